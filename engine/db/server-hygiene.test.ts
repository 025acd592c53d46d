/**
 * The stale sweep on a server several machines share (--database-url): another machine's run
 * cannot be asked whether its process lives, so a run holds its presence lock for its life; a
 * database of a run past FOREIGN_STALE_MS with no connection at that moment is dropped only when
 * its run holds no presence.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { sharedServer } from '../../testing/shared-server.ts';
import { prepareTemplate } from './databases.ts';
import { dropStaleScratchDatabases, parseScratchName, presenceKey, PRESENCE_LOCK_CLASS } from './server-hygiene.ts';

async function connected(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

describe('the stale sweep on a shared server', () => {
  it("drops another machine's run over 6 h old with no connection only when that run holds no presence lock", async () => {
    const server = await sharedServer();
    const admin = await connected(server.adminUrl);
    // Another machine's live sharded run, 7 h in: its database has no connection at this moment.
    const otherHost = randomBytes(3).toString('hex');
    const run = `pf_${otherHost}_4242_${(Date.now() - 7 * 3600_000).toString(36)}_`;
    const name = `${run}0_tpl`;
    const otherMachine = await connected(server.adminUrl);
    try {
      await admin.query(`create database "${name}"`);
      await otherMachine.query('select pg_advisory_lock($1, $2)', [PRESENCE_LOCK_CLASS, presenceKey(run)]);
      expect(await dropStaleScratchDatabases(admin)).not.toContain(name);
      expect((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount).toBe(1);
      // Its process gone (the lock released with its connection): stale, dropped.
      await otherMachine.end();
      expect(await dropStaleScratchDatabases(admin)).toContain(name);
    } finally {
      await otherMachine.end().catch(() => {});
      await admin.query(`drop database if exists "${name}"`).catch(() => {});
      await admin.end();
    }
  });

  it('a run holds its presence lock on a server it did not start, from its first database', async () => {
    const server = await sharedServer();
    const template = await prepareTemplate({ ...server, ownsServer: false }, { migrations: [], cache: false });
    const admin = await connected(server.adminUrl);
    try {
      const key = presenceKey(parseScratchName(template.name)!.run);
      const held = async () => (await admin.query(`select 1 from pg_locks where locktype = 'advisory' and classid = $1 and objid = $2 and objsubid = 2 and granted`, [PRESENCE_LOCK_CLASS, key])).rowCount;
      // Taken without holding the build up: it comes within moments.
      for (let i = 0; i < 100 && !(await held()); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await held()).toBe(1);
    } finally {
      await admin.end();
      await template.drop();
    }
  });
});
