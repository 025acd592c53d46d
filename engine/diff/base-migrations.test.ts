/** `diff --base <ref>` for a config with several migration folders: each folder as the ref had it. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/temp-dir.ts';
import { UsageError } from '../errors.ts';
import { baseFolders } from './base-migrations.ts';

function repo() {
  const root = tempDir('base-folders');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, encoding: 'utf8' });
  const write = (file: string, sql: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), sql);
  };
  const commit = (message: string) => {
    git('add', '-A');
    git('commit', '-qm', message);
  };
  git('init', '-q');
  return { root, write, commit };
}

describe('baseFolders', () => {
  it('reads each head folder at the ref; a folder the change adds is left out; cleanup removes the copy', () => {
    const { root, write, commit } = repo();
    write('db/core/0001_a.sql', 'select 1; -- base');
    commit('base');
    write('db/core/0001_a.sql', 'select 1; -- head');
    write('db/extra/0002_b.sql', 'select 2;');
    commit('head');
    const base = baseFolders('HEAD~1', [path.join(root, 'db/core'), path.join(root, 'db/extra')]);
    try {
      expect(base.label).toBe('HEAD~1:db/core, db/extra');
      expect(base.dirs).toHaveLength(1);
      expect(readdirSync(base.dirs[0])).toEqual(['0001_a.sql']);
      expect(readFileSync(path.join(base.dirs[0], '0001_a.sql'), 'utf8')).toBe('select 1; -- base');
    } finally {
      base.cleanup();
    }
    expect(existsSync(base.dirs[0])).toBe(false);
  });

  it('a ref without any .sql file under the head folders is a usage error naming them', () => {
    const { root, write, commit } = repo();
    write('README.md', 'nothing here');
    commit('base');
    write('db/core/0001_a.sql', 'select 1;');
    expect(() => baseFolders('HEAD', [path.join(root, 'db/core')])).toThrow(new UsageError('--base HEAD: the ref has no .sql files under db/core'));
  });
});
