/**
 * A server policyfuzz is lent (--database-url) keeps nothing of it: after a run interrupted
 * mid-way, no `pf_…` scratch database and no role that can log in; a dead run's scratch
 * databases are dropped at the next start, another machine's recent ones are left alone.
 * The server is started by the test (the embedded Postgres), the run is the real binary.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../engine/db/providers/local-server.ts';
import type { DatabaseServer } from '../engine/db/providers/server.ts';
import { HOST_TAG } from '../engine/db/server-hygiene.ts';
import type { RunSummary } from '../engine/report/summary.ts';
import { spawnBinReady } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { adminQuery } from '../testing/admin-query.ts';

let server: DatabaseServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(() => server?.stop());

const query = <T extends pg.QueryResultRow>(sql: string) => adminQuery<T>(server.adminUrl, sql);

const scratchDatabases = async () => (await query<{ datname: string }>(`select datname from pg_database where datname like 'pf\\_%' order by 1`)).map((r) => r.datname);
const loginRoles = async () => (await query<{ rolname: string }>(`select rolname from pg_roles where rolcanlogin and rolname in ('anon', 'authenticated', 'service_role', 'authenticator')`)).map((r) => r.rolname);

describe('--database-url leaves nothing behind', () => {
  it('after SIGINT mid-run: 0 pf_ databases of its own, a dead run\'s dropped, no LOGIN role; the report is marked interrupted', async () => {
    const deadPid = spawnSync('true').pid!;
    const stale = `pf_${HOST_TAG}_${deadPid}_${(Date.now() - 60_000).toString(36)}_0_tpl`;
    const foreign = `pf_0f0f0f_4242_${Date.now().toString(36)}_0_tpl`;
    await query(`create database "${stale}"`);
    await query(`create database "${foreign}"`);
    expect(await loginRoles()).toEqual([]);

    const reports = tempDir('dburl');
    const { child, exited } = await spawnBinReady(['fuzz', '--database-url', server.adminUrl, '--seed', '1', '--runs', '1000000', '--workers', '2', '--no-replay', '--report-dir', reports, '--failures-dir', path.join(reports, 'f')]);
    // Cases are running on two worker clones of the template it keeps there (README: Start-up paid once).
    await new Promise((r) => setTimeout(r, 1000));
    expect((await scratchDatabases()).filter((d) => d !== foreign).length).toBe(2);
    const kept = await query<{ datname: string }>(`select datname from pg_database where datname like 'policyfuzz\\_template\\_%'`);
    expect(kept.length).toBeGreaterThan(0);
    expect(await scratchDatabases()).not.toContain(stale);
    child.kill('SIGINT');
    expect(await exited).toBe(130);

    expect(await scratchDatabases()).toEqual([foreign]);
    // The Supabase roles it created are there, none can log in.
    expect((await query<{ n: number }>(`select count(*)::int as n from pg_roles where rolname in ('anon', 'authenticated', 'service_role', 'authenticator')`))[0].n).toBe(4);
    expect(await loginRoles()).toEqual([]);
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.interrupted).toBe('SIGINT');
    expect(summary.properties.map((p) => p.status)).not.toContain('failed');
  });
});
