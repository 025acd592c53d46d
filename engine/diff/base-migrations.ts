/**
 * `diff --base <git-ref|dir…>`: folders are used as they are, one for each head folder (a project
 * config may list several), in the same order; otherwise the ref's version of each head folder is
 * written from git into a temporary pf-diff-base-* folder (removed by `cleanup`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../errors.ts';
import { shownPath } from '../config/shown-path.ts';

export interface BaseFolders {
  /** The base's migration folders with files, in the order of the head folders they stand for. */
  dirs: string[];
  /** How the report names it: the folder, or `<ref>:<folder>[, <folder>…]`. */
  label: string;
  cleanup(): void;
}

function git(args: string[], cwd: string): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

const isFolder = (p: string) => existsSync(p) && statSync(p).isDirectory();

export function baseFolders(bases: string | readonly string[], headDirs: string[]): BaseFolders {
  const list = [bases].flat();
  if (list.some(isFolder) || list.length > 1) {
    const notFolders = list.filter((b) => !isFolder(b));
    if (notFolders.length) throw new UsageError(`--base: ${notFolders.join(', ')} is not a folder (give one git ref, or a folder for each migrations folder)`);
    if (list.length !== headDirs.length) {
      throw new UsageError(`--base names ${list.length} folder(s) but the head has ${headDirs.length} migrations folder(s) (${headDirs.map((d) => shownPath(d)).join(', ')}): give a base folder for each, in that order, or one git ref`);
    }
    return { dirs: [...list], label: list.join(', '), cleanup: () => {} };
  }
  const base = list[0];
  const heads = headDirs.map((d) => path.resolve(d));
  let root: string;
  try {
    root = git(['rev-parse', '--show-toplevel'], heads[0]).trim();
  } catch {
    throw new UsageError(`--base ${base}: not a folder, and ${headDirs[0]} is not inside a git repository to read the ref from`);
  }
  const relatives = heads.map((h) => path.relative(root, h).split(path.sep).join('/'));
  let files: string[][];
  try {
    git(['rev-parse', '--verify', '--quiet', `${base}^{commit}`], root);
    files = relatives.map((relative) => git(['ls-tree', '-r', '--name-only', base, '--', relative || '.'], root).split('\n').filter((f) => f.endsWith('.sql')));
  } catch {
    throw new UsageError(`--base ${base}: neither a folder nor a git ref (try a branch, a tag or a commit, e.g. --base origin/main)`);
  }
  const where = relatives.map((r) => r || '.').join(', ');
  // A folder the change adds has no files at the base; only a base with none at all is wrong.
  if (!files.flat().length) throw new UsageError(`--base ${base}: the ref has no .sql files under ${where}`);
  const top = mkdtempSync(path.join(os.tmpdir(), 'pf-diff-base-'));
  const dirs: string[] = [];
  try {
    relatives.forEach((relative, i) => {
      if (!files[i].length) return;
      const dir = path.join(top, String(i));
      for (const file of files[i]) {
        const target = path.join(dir, path.relative(relative, file));
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, git(['show', `${base}:${file}`], root));
      }
      dirs.push(dir);
    });
  } catch (e) {
    rmSync(top, { recursive: true, force: true });
    throw e;
  }
  return { dirs, label: `${base}:${where}`, cleanup: () => rmSync(top, { recursive: true, force: true }) };
}
