/**
 * The notes app, tested as its owners would: through policyfuzz's public entry points only
 * (`policyfuzz`, `policyfuzz/vitest`). Its rules hold on its migrations, and each broken
 * variant of its policies is caught by the rule it breaks.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadMigrationFolder, openEnvironment, oracleOf, runDataProperty, type Environment } from 'policyfuzz';
import { describePack } from 'policyfuzz/vitest';
import pack from './policyfuzz.pack.ts';
import { runBin } from '../../testing/run-bin.ts';
import { tempDir } from '../../testing/temp-dir.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

describePack(pack, { databaseUrl: inject('databaseUrl'), runs: 150, seed: 4 });

describe('notes-app: every broken variant is caught by its rule', () => {
  const mutantsDir = pack.mutants!;
  for (const file of readdirSync(mutantsDir).filter((f) => f.endsWith('.sql'))) {
    const sql = readFileSync(path.join(mutantsDir, file), 'utf8');
    const rule = /^--\s*rules:\s*(\S+)/m.exec(sql)![1];
    let env: Environment;
    beforeAll(async () => {
      env = await openEnvironment({ databaseUrl: inject('databaseUrl'), migrations: loadMigrationFolder(pack.migrations!), extra: [{ name: file, path: path.join(mutantsDir, file), sql }], workers: 1 });
    });
    afterAll(() => env?.close());

    it(`${file} fails ${rule}`, async () => {
      const property = pack.properties.find((p) => p.id === rule)!;
      const result = await runDataProperty(env, property, { seed: 4, runs: 150, oracle: oracleOf(pack) });
      expect(result.status).toBe('failed');
      expect(result.failure?.message).toMatch(/step 1/);
    });
  }
});

describe('notes-app through the CLI (bin/policyfuzz.mjs --pack, a child process)', () => {
  const options = (dir: string) => ['--database-url', inject('databaseUrl'), '--seed', '4', '--runs', '150', '--workers', '1', '--no-replay', '--quiet', '--report-dir', path.join(dir, 'r'), '--failures-dir', path.join(dir, 'f')];

  it('runs the pack its module exports, on the pack’s own migrations; a second folder with a broken policy fails its rule', async () => {
    const dir = tempDir('notes-cli');
    const packModule = path.join(HERE, 'policyfuzz.pack.ts');
    const holds = await runBin(['fuzz', '--pack', packModule, ...options(dir)], { cwd: dir });
    expect(holds.stdout).toMatch(/^2 passed, 0 failed/m);
    expect(holds.code).toBe(0);
    // The mutant as a migrations folder of its own, applied after the app's.
    const broken = path.join(dir, 'broken');
    mkdirSync(broken);
    copyFileSync(path.join(pack.mutants!, 'N01-notes-readable-by-all.sql'), path.join(broken, '9999_n01.sql'));
    const fails = await runBin(['fuzz', '--pack', packModule, '--migrations', pack.migrations!, broken, ...options(dir)], { cwd: dir });
    expect(fails.stdout).toMatch(/^N01 FAILED: step 1/m);
    expect(fails.stdout).toMatch(/^1 passed, 1 failed/m);
    expect(fails.code).toBe(1);
    // A pack's own ids select and leave out its rules, as R… ids do for the reference.
    const only = await runBin(['fuzz', '--pack', packModule, '--migrations', pack.migrations!, broken, '--only', 'N02', ...options(dir)], { cwd: dir });
    expect(only.stdout).toMatch(/^1 passed, 0 failed/m);
    expect(only.code).toBe(0);
    const excluded = await runBin(['fuzz', '--pack', packModule, '--migrations', pack.migrations!, broken, '--exclude', 'N01', ...options(dir)], { cwd: dir });
    expect(excluded.stdout).toMatch(/^1 passed, 0 failed/m);
    const unknown = await runBin(['fuzz', '--pack', packModule, '--only', 'N09', ...options(dir)], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no data-layer property N09 (known: N01, N02)');
  });
});
