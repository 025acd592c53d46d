/**
 * SIGTERM while a finding's shrink candidate hangs in the database (a fixture write waiting on a
 * lock, bounded only by the workers' 60 s statement bound): the run cancels the candidate at once
 * and reports its findings as shrunk so far, well within the interrupt's 15 s grace (past it,
 * everything is stopped and the report was lost), on a server it was lent, leaving no database.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../engine/db/providers/local-server.ts';
import type { DatabaseServer } from '../engine/db/providers/server.ts';
import type { RunSummary } from '../engine/report/summary.ts';
import { spawnBinReady } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { adminQuery } from '../testing/admin-query.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from './paths.ts';

let server: DatabaseServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(() => server?.stop());

const query = <T extends pg.QueryResultRow>(sql: string) => adminQuery<T>(server.adminUrl, sql);

describe('SIGTERM while a shrink candidate hangs on a lock', () => {
  it('the candidate is cancelled at once: exit 130 within seconds, the findings in the report marked, no database left', async () => {
    const dir = tempDir('shrink-hung');
    // The reference with R02's guard trigger dropped: R02 finds, then shrinks for seconds.
    const migrations = path.join(dir, 'migrations');
    mkdirSync(migrations);
    for (const f of readdirSync(BUNDLED_MIGRATIONS)) copyFileSync(path.join(BUNDLED_MIGRATIONS, f), path.join(migrations, f));
    copyFileSync(path.join(BUNDLED_MUTANTS, 'R02-users-role', 'mutants', 'R02-guard-trigger-dropped.sql'), path.join(migrations, '9999_mutant.sql'));
    const [reports, failures] = [path.join(dir, 'reports'), path.join(dir, 'failures')];
    const { child, exited, output } = await spawnBinReady(['fuzz', '--database-url', server.adminUrl, '--migrations', migrations, '--seed', '11', '--runs', '300', '--workers', '2', '--time-budget', '10m', '--only', 'R02', '--no-sso', '--no-replay', '--report-dir', reports, '--failures-dir', failures]);
    while (!output().includes('R02: shrinking ') && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    expect(child.exitCode, output()).toBeNull();
    // Every worker's database: its users table locked by a transaction left open, so the next candidate's fixture write waits.
    const databases = (await query<{ datname: string }>(`select distinct datname from pg_stat_activity where datname like 'pf\\_%' and pid <> pg_backend_pid()`)).map((r) => r.datname);
    expect(databases.length).toBeGreaterThan(0);
    const holders = await Promise.all(
      databases.map(async (database) => {
        const url = new URL(server.adminUrl);
        url.pathname = `/${database}`;
        const holder = new pg.Client({ connectionString: url.toString() });
        // The run drops its databases with (force) at its end, which ends this session.
        holder.on('error', () => {});
        await holder.connect();
        await holder.query('begin; lock table public.users in access exclusive mode');
        return holder;
      }),
    );
    try {
      // A candidate waits on the lock.
      while (!(await query(`select 1 from pg_stat_activity where datname like 'pf\\_%' and wait_event_type = 'Lock'`)).length && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
      expect(child.exitCode, output()).toBeNull();
      const signalled = Date.now();
      child.kill('SIGTERM');
      expect(await exited, output()).toBe(130);
      expect(Date.now() - signalled, output()).toBeLessThan(8_000);
    } finally {
      await Promise.all(holders.map((h) => h.end().catch(() => {})));
    }
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.interrupted).toBe('SIGTERM');
    const r02 = summary.properties.find((p) => p.id === 'R02')!;
    expect(r02.status).toBe('failed');
    expect(r02.failures.length).toBeGreaterThan(0);
    expect(r02.note).toContain('shrinking cut short by the interrupt');
    for (const f of r02.failures) expect(existsSync(path.join(failures, `${f.id}.json`)), f.id ?? '').toBe(true);
    expect(await query(`select datname from pg_database where datname like 'pf\\_%'`)).toEqual([]);
  }, 180_000);
});
