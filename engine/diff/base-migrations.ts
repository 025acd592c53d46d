/**
 * `diff --base <git-ref|dir>`: a folder is used as it is; otherwise the ref's version of the head
 * folder is written from git into a temporary pf-diff-base-* folder (removed by `cleanup`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../errors.ts';

export interface BaseFolder {
  dir: string;
  /** How the report names it: the folder, or `<ref>:<folder>`. */
  label: string;
  cleanup(): void;
}

function git(args: string[], cwd: string): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

export function baseFolder(base: string, headDir: string): BaseFolder {
  if (existsSync(base) && statSync(base).isDirectory()) return { dir: base, label: base, cleanup: () => {} };
  const head = path.resolve(headDir);
  let root: string;
  try {
    root = git(['rev-parse', '--show-toplevel'], head).trim();
  } catch {
    throw new UsageError(`--base ${base}: not a folder, and ${headDir} is not inside a git repository to read the ref from`);
  }
  const relative = path.relative(root, head).split(path.sep).join('/');
  let files: string[];
  try {
    git(['rev-parse', '--verify', '--quiet', `${base}^{commit}`], root);
    files = git(['ls-tree', '-r', '--name-only', base, '--', relative || '.'], root).split('\n').filter((f) => f.endsWith('.sql'));
  } catch {
    throw new UsageError(`--base ${base}: neither a folder nor a git ref (try a branch, a tag or a commit, e.g. --base origin/main)`);
  }
  if (!files.length) throw new UsageError(`--base ${base}: the ref has no .sql files under ${relative || '.'}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-diff-base-'));
  try {
    for (const file of files) {
      const target = path.join(dir, path.relative(relative, file));
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, git(['show', `${base}:${file}`], root));
    }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return { dir, label: `${base}:${relative}`, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
