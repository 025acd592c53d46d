/**
 * Start-up paid once, through the real binary on a local server with a cache of its own: the
 * first run builds and keeps the template, the next says it used the kept one and gives exactly
 * the verdicts of a run with the cache off; a new migration goes on top of the kept template;
 * `cache clear` removes the cache and says what it removed, locally and on --database-url.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin, spawnBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { processesUsing } from '../testing/processes.ts';
import { startDatabaseServer } from '../engine/db/providers/index.ts';
import type { DatabaseServer } from '../engine/db/providers/server.ts';
import { keptTemplateKey, prepareTemplate } from '../engine/db/databases.ts';
import { cachedTemplateName } from '../engine/db/template-cache.ts';
import type { RunSummary } from '../engine/report/summary.ts';
import { BUNDLED_MIGRATIONS } from './paths.ts';

// A temp folder the server's account can enter (as root it runs as another one), so this file's cache is its own.
const tmp = tempDir('cache');
chmodSync(tmp, 0o755);
const env = (extra: NodeJS.ProcessEnv = {}) => {
  const e: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, ...extra };
  delete e.DATABASE_URL;
  return e;
};

async function fuzz(name: string, extra: NodeJS.ProcessEnv = {}, args: string[] = []) {
  const reports = path.join(tmp, name);
  const r = await runBin(['fuzz', '--seed', '7', '--runs', '8', '--workers', '1', '--no-sso', '--provider', 'local', '--report-dir', reports, '--failures-dir', path.join(reports, 'failures'), ...args], { env: env(extra) });
  expect(r.code, r.stderr).toBe(0);
  const ready = r.stdout.split('\n').find((l) => l.startsWith('ready in'));
  const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as RunSummary;
  // Everything a verdict is, without the clock.
  const verdicts = summary.properties.map(({ durationMs: _, ...p }) => p);
  return { ready, verdicts, stdout: r.stdout };
}

/** The first (cache-building) run's properties: one on each of users, tickets, shop orders and grants. */
const FIRST_RUN_ONLY = ['R01', 'R02', 'R07', 'R16'];

describe('template cache through the binary', () => {
  it('the second run starts from the kept template with the verdicts of an uncached run; a new migration goes on top; cache clear removes it', async () => {
    const uncached = await fuzz('off', { POLICYFUZZ_TEMPLATE_CACHE: 'off' });
    expect(uncached.ready).toMatch(/^ready in \d+ ms$/);

    // Two workers: their copies are made after the kept template's server restart (the admin connection it cut ended the run).
    // A few properties: the template and catalog it keeps are the migrations' whatever --only says; the second run, on
    // every property, is the one held to the uncached verdicts (all 23 here cost 4.6 s of CPU against 2.0 s, measured).
    const first = await fuzz('first', {}, ['--workers', '2', '--only', FIRST_RUN_ONLY.join(',')]);
    const digest = /^ready in \d+ ms \(template built, kept as ([0-9a-f]{16})\)$/.exec(first.ready ?? '')?.[1];
    expect(digest, first.ready).toBeDefined();
    const second = await fuzz('second');
    // Its catalog reads too (catalog-cache.ts), kept by the first run.
    expect(second.ready).toMatch(new RegExp(`^ready in \\d+ ms \\(cached template ${digest}, its catalog read from the cache\\)$`));
    expect(second.verdicts).toEqual(uncached.verdicts);
    // (The first ran on two workers, so other cases: its verdicts are compared by status alone.)
    // (--only R16 brings its catalog part, R16:catalog, too: compared with the uncached run's verdicts of the same ids.)
    const firstIds = first.verdicts.map((v) => v.id);
    expect(firstIds).toEqual(expect.arrayContaining(FIRST_RUN_ONLY));
    expect(first.verdicts.map((v) => [v.id, v.status])).toEqual(uncached.verdicts.filter((v) => firstIds.includes(v.id)).map((v) => [v.id, v.status]));

    const migrations = path.join(tmp, 'migrations');
    cpSync(BUNDLED_MIGRATIONS, migrations, { recursive: true });
    writeFileSync(path.join(migrations, '9999_note.sql'), `comment on schema public is 'one more migration';`);
    const extended = await fuzz('extended', {}, ['--migrations', migrations, '--only', 'R02']);
    expect(extended.ready).toMatch(new RegExp(`^ready in \\d+ ms \\(cached template ${digest} \\+ 1 new migration, kept as [0-9a-f]{16}\\)$`));

    const cleared = await runBin(['cache', 'clear'], { env: env() });
    expect(cleared.code, cleared.stderr).toBe(0);
    const cacheRoot = path.join(tmp, 'policyfuzz', 'cache');
    expect(cleared.stdout).toMatch(new RegExp(`^removed ${cacheRoot}/[^ ]+/templates-[^ ]+ \\(\\d+\\.\\d MB\\)$`, 'm'));
    expect(existsSync(cacheRoot)).toBe(false);
    // No run left a server folder behind.
    expect(readdirSync(path.join(tmp, 'policyfuzz')).filter((n) => n.startsWith('run-'))).toEqual([]);
    const again = await runBin(['cache', 'clear'], { env: env() });
    expect(again).toMatchObject({ code: 0, stdout: `no local cache in ${cacheRoot}\n` });
  }, 480_000);

  // While the first run keeps its template, the server is stopped, its data copied, started again.
  for (const delayMs of [500, 1500, 2500]) {
    it(`a signal ${delayMs} ms after the server started, while the template is built or kept: exit 130, no Postgres, no half-kept copy, no run folder`, async () => {
      // Enough cases that the run is still going whenever the signal comes (build, keep or generation),
      // and no saved failures of the current folder replayed.
      const reports = path.join(tmp, `signal-${delayMs}`);
      const child = spawnBin(['fuzz', '--seed', '1', '--runs', '20000', '--workers', '1', '--no-sso', '--no-replay', '--provider', 'local', '--report-dir', reports, '--failures-dir', path.join(reports, 'failures')], { env: env() });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('database: ')) resolve();
        });
        child.once('exit', () => reject(new Error(`exited before its server started:\n${out}`)));
      });
      let err = '';
      child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
      await new Promise((r) => setTimeout(r, delayMs));
      child.kill('SIGTERM');
      expect(await exited, `${out}\n${err}`).toBe(130);
      // Whatever it was doing (a migration, the schema load, cases): one line at most, no failure blamed, no stack trace.
      expect(err, err).not.toMatch(/internal error|\n\s+at |failed:|--skip/);
      expect(err.split('\n').filter((l) => l.startsWith('policyfuzz: ')).length, err).toBeLessThanOrEqual(1);
      const root = path.join(tmp, 'policyfuzz');
      // Its server and copies are named by its pid: run-<pid>-…, <entry>.tmp-<pid>-….
      expect([...processesUsing(path.join(root, `run-${child.pid}-`)), ...processesUsing(`.tmp-${child.pid}-`)]).toEqual([]);
      expect(readdirSync(root).filter((n) => n.startsWith('run-'))).toEqual([]);
      const halfKept = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => /\.tmp-\d+-[^/]*$/.test(n)) : []);
      expect(halfKept(path.join(root, 'cache'))).toEqual([]);
    });
  }

  it("cache clear beside a running job leaves what that run uses (its server's binaries, the template it copies and its spare, a cluster it builds) and says so; the rest goes", async () => {
    // Seen: a clear while another run's initdb built the pristine cluster ended that run ("initdb failed: could not
    // seek to end of file", exit 2); as root its server runs from the cache's copy of the binaries, which a clear removed under it.
    const own = tempDir('cache-beside');
    chmodSync(own, 0o755);
    const root = path.join(own, 'policyfuzz');
    const version = path.join(root, 'cache', 'embedded-postgres-17');
    const make = (dir: string, file = 'f') => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, file), 'x');
      return dir;
    };
    const live = process.pid;
    const install = make(path.join(version, 'install', 'bin'), 'postgres');
    const copied = make(path.join(version, 'templates-postgres', 'aaaa'), 'key.json');
    const spare = make(path.join(version, 'templates-postgres', 'aaaa.spare'));
    const unused = make(path.join(version, 'templates-postgres', 'bbbb'), 'key.json');
    const cluster = make(path.join(version, 'cluster-postgres'), 'PG_VERSION');
    const building = make(path.join(version, `cluster-nobody.tmp-${live}-abc`));
    const deadBuild = make(path.join(version, 'cluster-other.tmp-999999999-abc'));
    make(path.join(root, `run-${live}-test`), 'owner.json');
    writeFileSync(path.join(root, `run-${live}-test`, 'owner.json'), JSON.stringify({ pid: live, started: new Date().toISOString(), uses: [path.dirname(install), copied] }));
    const r = await runBin(['cache', 'clear'], { env: { ...env(), TMPDIR: own } });
    expect(r.code, r.stderr).toBe(0);
    for (const kept of [path.dirname(install), copied, spare, building]) {
      expect(existsSync(kept), kept).toBe(true);
      expect(r.stdout).toContain(`left ${kept}: in use by a running policyfuzz (pid ${live}); run \`policyfuzz cache clear\` again once it ends\n`);
    }
    for (const gone of [unused, cluster, deadBuild]) {
      expect(existsSync(gone), gone).toBe(false);
      expect(r.stdout).toMatch(new RegExp(`^removed ${gone} \\(0\\.0 MB\\)$`, 'm'));
    }
  });

  describe('on a server given with --database-url', () => {
    let server: DatabaseServer | undefined;
    afterAll(() => server?.stop());

    it('cache clear drops the kept template databases there and names them', async () => {
      server = await startDatabaseServer({ provider: 'local' });
      const migrations = [{ name: '001.sql', path: '001.sql', sql: 'create table public.kept (id int)' }];
      const template = await prepareTemplate(server, { migrations, cache: true });
      await template.drop();
      const name = cachedTemplateName(keptTemplateKey(migrations));
      const r = await runBin(['cache', 'clear', '--database-url', server.adminUrl], { env: env() });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`dropped database ${name} on `);
      const c = new pg.Client({ connectionString: server.adminUrl });
      await c.connect();
      const left = await c.query(`select datname from pg_database where datname like 'policyfuzz%'`);
      await c.end();
      expect(left.rows).toEqual([]);
    });
  });
});
