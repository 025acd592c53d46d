/**
 * A red night is a finding, never a harness accident, and a harness accident is never a pass: a
 * worker's connection dropped mid-run (its backend killed with pg_terminate_backend, as a server
 * restart or an admin does) makes the property running an ERROR naming the cause, exit 1, the
 * report written, and the run leaves no scratch database on the server it was lent. Merged with a
 * shard that passed, the merged verdict is that ERROR (exit 1), never a silent pass. SIGTERM
 * mid-run on the server it starts itself: exit 130, the report written and marked, no server
 * process and no run folder left.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../engine/db/providers/local-server.ts';
import type { DatabaseServer } from '../engine/db/providers/server.ts';
import type { RunSummary } from '../engine/report/summary.ts';
import { runBin, spawnBinReady } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { adminQuery } from '../testing/admin-query.ts';
import { processesUsing } from '../testing/processes.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from './paths.ts';

let server: DatabaseServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(() => server?.stop());

const query = <T extends pg.QueryResultRow>(sql: string) => adminQuery<T>(server.adminUrl, sql);

/**
 * The TMPDIR of the runs that start their own server (--provider local): one for both, so the
 * second starts from the first's pristine cluster and kept template (reference's migrations: the
 * shrink test's mutant goes on top) instead of an initdb and a build of its own (1.3 s of initdb's
 * CPU, measured, and a template). What they check of it (no server process, no run folder left)
 * holds after each run as before: they run one after the other. Reachable by the server's account
 * when run as root (local-server.ts reachableTempDir).
 */
let localServerTmp: string | undefined;
const serverTmp = () => {
  if (!localServerTmp) {
    localServerTmp = tempDir('red-night-tmp');
    chmodSync(localServerTmp, 0o755);
  }
  return localServerTmp;
};

describe('a worker connection dropped mid-run', () => {
  it('the property running is an ERROR naming the lost connection, exit 1, the report written, no scratch database left; merged with a passing shard, still an ERROR', async () => {
    const dir = tempDir('red-night');
    const reports = path.join(dir, 'shard1');
    const shard = (index: number, budget: string, out: string) => ['fuzz', '--database-url', server.adminUrl, '--seed', '1', '--runs', '1000000', '--workers', '2', '--only', 'R02', '--shard', `${index}/2`, '--time-budget', budget, '--no-replay', '--report-dir', out, '--failures-dir', path.join(dir, 'f')];
    const { exited, output } = await spawnBinReady(shard(1, '60s', reports));
    await new Promise((r) => setTimeout(r, 1500));
    const killed = await query<{ ok: boolean }>(`select pg_terminate_backend(pid) as ok from pg_stat_activity where datname like 'pf\\_%' and pid <> pg_backend_pid()`);
    expect(killed.length).toBeGreaterThan(0);
    expect(await exited, output()).toBe(1);
    expect(output()).toMatch(/R02 ERROR: harness error: the database server closed the connection/);
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as RunSummary;
    const r02 = summary.properties.find((p) => p.id === 'R02')!;
    expect(r02.status).toBe('error');
    expect(r02.note).toMatch(/connection|terminat/i);
    expect((await query<{ datname: string }>(`select datname from pg_database where datname like 'pf\\_%'`)).length).toBe(0);

    // The other shard ran its lanes undisturbed; the merge is the run's verdict.
    const other = await runBin(shard(2, '3s', path.join(dir, 'shard2')));
    expect(other.code, other.stdout + other.stderr).toBe(0);
    const merged = await runBin(['merge-reports', reports, path.join(dir, 'shard2'), '--out', path.join(dir, 'merged')]);
    expect(merged.code, merged.stdout + merged.stderr).toBe(1);
    expect(merged.stdout).toMatch(/^R02 +ERROR /m);
    const mergedR02 = (JSON.parse(readFileSync(path.join(dir, 'merged', 'summary.json'), 'utf8')) as RunSummary).properties.find((p) => p.id === 'R02')!;
    expect(mergedR02.status).toBe('error');
    expect(mergedR02.note).toMatch(/harness error: the database server closed the connection/);
  }, 180_000);
});

describe('SIGTERM mid-run on the server the run starts', () => {
  it('exit 130, the report written and marked interrupted, no server process and no run folder left', async () => {
    const tmp = serverTmp();
    const reports = tempDir('red-night-term');
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
    delete env.DATABASE_URL;
    const { child, exited } = await spawnBinReady(['fuzz', '--reference', '--provider', 'local', '--seed', '1', '--runs', '1000000', '--workers', '2', '--only', 'R02', '--no-sso', '--no-replay', '--report-dir', reports, '--failures-dir', path.join(reports, 'f')], { env });
    expect(processesUsing(tmp).length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1000));
    child.kill('SIGTERM');
    expect(await exited).toBe(130);
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.interrupted).toBe('SIGTERM');
    expect(summary.properties.find((p) => p.id === 'R02')?.status).toBe('partial');
    expect(processesUsing(tmp)).toEqual([]);
    const root = path.join(tmp, 'policyfuzz');
    expect(existsSync(root) ? readdirSync(root).filter((d) => d.startsWith('run-')) : []).toEqual([]);
  }, 120_000);
});

describe('SIGTERM while the findings are shrunk', () => {
  it('stops within seconds, exit 130: the findings made are in the report folder, the summary and the failures folder, marked; no server process, no run folder left', async () => {
    const tmp = serverTmp();
    const dir = tempDir('red-night-shrink');
    // The reference with R02's guard trigger dropped: R02 finds, then shrinks for seconds (14 s of a 20 s run here).
    const migrations = path.join(dir, 'migrations');
    mkdirSync(migrations);
    for (const f of readdirSync(BUNDLED_MIGRATIONS)) copyFileSync(path.join(BUNDLED_MIGRATIONS, f), path.join(migrations, f));
    copyFileSync(path.join(BUNDLED_MUTANTS, 'R02-users-role', 'mutants', 'R02-guard-trigger-dropped.sql'), path.join(migrations, '9999_mutant.sql'));
    const [reports, failures] = [path.join(dir, 'reports'), path.join(dir, 'failures')];
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
    delete env.DATABASE_URL;
    const runs = 300;
    const { child, exited, output } = await spawnBinReady(['fuzz', '--provider', 'local', '--migrations', migrations, '--seed', '11', '--runs', String(runs), '--workers', '2', '--time-budget', '10m', '--only', 'R02', '--no-sso', '--no-replay', '--report-dir', reports, '--failures-dir', failures], { env });
    // The run says when R02's findings start being shrunk (a line, stderr being no terminal): signalled then.
    while (!output().includes('R02: shrinking ') && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    expect(child.exitCode, output()).toBeNull();
    const signalled = Date.now();
    child.kill('SIGTERM');
    expect(await exited, output()).toBe(130);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.interrupted).toBe('SIGTERM');
    const r02 = summary.properties.find((p) => p.id === 'R02')!;
    expect(r02.status).toBe('failed');
    expect(r02.failures.length).toBeGreaterThan(0);
    expect(r02.note).toContain('shrinking cut short by the interrupt');
    for (const f of r02.failures) expect(existsSync(path.join(failures, `${f.id}.json`)), f.id ?? '').toBe(true);
    expect(processesUsing(tmp)).toEqual([]);
    const root = path.join(tmp, 'policyfuzz');
    expect(existsSync(root) ? readdirSync(root).filter((d) => d.startsWith('run-')) : []).toEqual([]);
  }, 180_000);
});

