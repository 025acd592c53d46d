/**
 * The package as a user gets it: `npm pack`, then `npm install <tarball>` in a fresh folder
 * outside this repository, then the example pack (examples/notes-app, which imports only the
 * public entry points) run there against real Postgres: its rules hold, and a broken variant
 * of its policy is caught.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT } from '../cli/paths.ts';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let consumer: string;

const SCRIPT = `
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as api from 'policyfuzz';
import * as vitestApi from 'policyfuzz/vitest';
import * as configApi from 'policyfuzz/config';
import pack from './notes-app/policyfuzz.pack.ts';

const migrations = api.loadMigrationFolder(pack.migrations);
const results = {};
for (const mutant of [undefined, 'N01-notes-readable-by-all.sql']) {
  const extra = mutant ? [{ name: mutant, path: mutant, sql: readFileSync(path.join(pack.mutants, mutant), 'utf8') }] : [];
  const env = await api.openEnvironment({ databaseUrl: process.env.DATABASE_URL, migrations, extra, workers: 1 });
  try {
    for (const property of pack.properties) {
      const r = await api.runDataProperty(env, property, { seed: 4, runs: 150, oracle: api.oracleOf(pack) });
      results[(mutant ?? 'clean') + ':' + property.id] = r.status;
    }
  } finally {
    await env.close();
  }
}
console.log(JSON.stringify({ results, vitest: typeof vitestApi.describePack, config: typeof configApi.defineConfig }));
`;

describe('the packed package', () => {
  beforeAll(async () => {
    consumer = mkdtempSync(path.join(os.tmpdir(), 'pf-consumer-'));
    await run(npm, ['pack', '--pack-destination', consumer], { cwd: PROJECT_ROOT });
    const tarball = readdirSync(consumer).find((f) => f.endsWith('.tgz'))!;
    writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // vitest is the optional peer that policyfuzz/vitest needs; --prefer-offline uses the npm cache.
    await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(consumer, tarball), 'vitest@4.1.12'], { cwd: consumer });
    cpSync(path.join(PROJECT_ROOT, 'examples', 'notes-app'), path.join(consumer, 'notes-app'), { recursive: true, filter: (src) => !src.endsWith('.test.ts') });
  }, 240_000);
  afterAll(() => {
    if (consumer) rmSync(consumer, { recursive: true, force: true });
  });

  it('installs, exposes its three entry points, and runs the example pack outside the repository', async () => {
    writeFileSync(path.join(consumer, 'run-example.ts'), SCRIPT);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'run-example.ts'], { cwd: consumer, env: { ...process.env, DATABASE_URL: inject('databaseUrl') } });
    const out = JSON.parse(stdout.trim().split('\n').pop()!) as { results: Record<string, string>; vitest: string; config: string };
    expect(out.vitest).toBe('function');
    expect(out.config).toBe('function');
    expect(out.results).toEqual({
      'clean:N01': 'passed',
      'clean:N02': 'passed',
      'clean:N03': 'passed',
      'clean:N04': 'passed',
      'N01-notes-readable-by-all.sql:N01': 'failed',
      'N01-notes-readable-by-all.sql:N02': 'passed',
      'N01-notes-readable-by-all.sql:N03': 'passed',
      'N01-notes-readable-by-all.sql:N04': 'passed',
    });
  }, 120_000);
});
