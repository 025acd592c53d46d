/**
 * The catalog reads kept with a kept template (catalog-cache.ts): a second start on the same
 * migrations reads them from the kept file, and a changed migration never reuses them.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedServer } from '../../testing/shared-server.ts';
import { keptTemplateKey } from './databases.ts';
import type { MigrationFile } from './migrations.ts';
import { cachedTemplateName } from './template-cache.ts';
import { catalogCacheFile, catalogOutsideSettingsTurn, catalogThroughCache, decodeCatalog, encodeCatalog, keepCatalog, KEPT_CATALOGS, KEPT_CATALOGS_IN_ALL, readKeptCatalog, serverIdentity } from './catalog-cache.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import { SETTINGS_TURN_LOCK } from './role-settings.ts';
import { builtDigest, CATALOG_CACHE_DIR, openEnvironment } from '../runner/environment.ts';

describe('kept catalog files', () => {
  it('Maps and Sets, nested, come back as they went', () => {
    const value = { tables: new Map([['public.a', [{ name: 'id', type: 'int' }]]]), grants: new Set(['a', 'b']), nested: { m: new Map([['x', new Set([1])]]) }, list: [1, 'two', null] };
    expect(decodeCatalog(encodeCatalog(value))).toEqual(value);
  });

  it('a file per template digest, reads’ inputs and engine code', () => {
    const file = catalogCacheFile('/c', 'aaaa', { exposedSchemas: ['public'] }, 'code1');
    expect(catalogCacheFile('/c', 'bbbb', { exposedSchemas: ['public'] }, 'code1')).not.toBe(file);
    expect(catalogCacheFile('/c', 'aaaa', { exposedSchemas: ['public', 'api'] }, 'code1')).not.toBe(file);
    expect(catalogCacheFile('/c', 'aaaa', { exposedSchemas: ['public'] }, 'code2')).not.toBe(file);
    expect(catalogCacheFile('/c', 'aaaa', { exposedSchemas: ['public'] }, 'code1')).toBe(file);
  });

  it("keeping one removes its template's files beyond the most recently used (each engine change added one, never removed); another template's stay", () => {
    const dir = tempDir('catalog-prune');
    const at = (file: string, secondsAgo: number) => utimesSync(file, new Date(Date.now() - secondsAgo * 1000), new Date(Date.now() - secondsAgo * 1000));
    const older = [1, 2, 3, 4, 5].map((n) => catalogCacheFile(dir, 'aaaa', {}, `code${n}`));
    for (const [i, file] of older.entries()) {
      writeFileSync(file, encodeCatalog({ n: i }));
      at(file, 100 - i * 10);
    }
    const other = catalogCacheFile(dir, 'bbbb', {}, 'code1');
    writeFileSync(other, encodeCatalog({}));
    at(other, 500);
    // The oldest, read now, is used again: it stays.
    expect(readKeptCatalog(older[0])).toEqual({ n: 0 });
    const newest = catalogCacheFile(dir, 'aaaa', {}, 'code6');
    keepCatalog(newest, { n: 6 });
    expect(readdirSync(dir).sort()).toEqual([newest, older[0], older[4], other].map((f) => path.basename(f)).sort());
    expect(KEPT_CATALOGS).toBe(3);
  });

  it("the folder keeps at most KEPT_CATALOGS_IN_ALL files, the most recently used (each mutant of a mutants run is a template digest of its own)", () => {
    const dir = tempDir('catalog-prune-all');
    const files = Array.from({ length: KEPT_CATALOGS_IN_ALL + 5 }, (_, i) => catalogCacheFile(dir, `mutant${i}`, {}, 'code1'));
    for (const [i, file] of files.entries()) {
      writeFileSync(file, encodeCatalog({ n: i }));
      // The first written is the least recently used.
      utimesSync(file, new Date(Date.now() - (10_000 - i) * 1000), new Date(Date.now() - (10_000 - i) * 1000));
    }
    const newest = catalogCacheFile(dir, 'mutant-new', {}, 'code1');
    keepCatalog(newest, { n: -1 });
    const left = readdirSync(dir);
    expect(left).toHaveLength(KEPT_CATALOGS_IN_ALL);
    expect(left).toContain(path.basename(newest));
    // The six least recently used went; the rest stay.
    for (const gone of files.slice(0, 6)) expect(left).not.toContain(path.basename(gone));
    for (const kept of files.slice(6)) expect(left).toContain(path.basename(kept));
  });
});

describe('a second start on a kept template', () => {
  const id = randomUUID().replace(/-/g, '').slice(0, 12);
  const migration = (sql: string): MigrationFile => ({ name: '001_items.sql', path: '001_items.sql', sql });
  const first = migration(`create table public.items_${id} (id int primary key);`);
  // The same file edited: another table.
  const edited = migration(`create table public.things_${id} (id int primary key);`);
  const keptFiles = (digest: string) => readdirSync(CATALOG_CACHE_DIR).filter((n) => n.startsWith(`${digest}-`)).map((n) => path.join(CATALOG_CACHE_DIR, n));
  afterAll(async () => {
    const server = await sharedServer();
    const c = new pg.Client({ connectionString: server.adminUrl });
    await c.connect();
    for (const file of [first, edited]) {
      const key = keptTemplateKey([file]);
      await c.query(`drop database if exists ${cachedTemplateName(key)}`);
      for (const kept of keptFiles(key.digest)) rmSync(kept, { force: true });
    }
    await c.end();
  });

  const start = async (file: MigrationFile) => {
    const env = await openEnvironment({ server: await sharedServer(), migrations: [file], workers: 1, cacheTemplate: true });
    await env.close();
    return env;
  };

  it('reads the catalog from the file kept by the first; an edited migration reads its own', async () => {
    const built = await start(first);
    expect(built.readyNote).not.toContain('catalog read from the cache');
    expect(built.cache.tables.has(`public.items_${id}`)).toBe(true);
    const [kept] = keptFiles(keptTemplateKey([first]).digest);
    expect(kept).toBeDefined();

    // A table only the kept file names: the second start's schema cache has it, so the file was read.
    const marked = readFileSync(kept, 'utf8').replace(`"public.items_${id}"`, `"public.kept_${id}"`);
    writeFileSync(kept, marked);
    const second = await start(first);
    expect(second.readyNote).toContain(`cached template ${keptTemplateKey([first]).digest}, its catalog read from the cache`);
    expect(second.cache.tables.has(`public.kept_${id}`)).toBe(true);

    // The edited migration: its own template and catalog, never the first's.
    const changed = await start(edited);
    expect(changed.readyNote).not.toContain('catalog read from the cache');
    expect(changed.cache.tables.has(`public.things_${id}`)).toBe(true);
    expect(changed.cache.tables.has(`public.kept_${id}`)).toBe(false);

    // The same migrations on a server in another state (a role setting the catalog reads, made
    // outside the migrations: here in the kept template, which each clone copies): read again.
    const admin = new pg.Client({ connectionString: (await sharedServer()).adminUrl });
    await admin.connect();
    try {
      await admin.query(`alter role anon in database ${cachedTemplateName(keptTemplateKey([first]))} set statement_timeout = '7s'`);
    } finally {
      await admin.end();
    }
    const otherServerState = await start(first);
    expect(otherServerState.readyNote).not.toContain('catalog read from the cache');
    expect(otherServerState.cache.tables.has(`public.items_${id}`)).toBe(true);
    expect(changed.cache.tables.has(`public.items_${id}`)).toBe(false);
  });
});

describe("a mutant's start: files applied on a copy of a kept template (policyfuzz mutants, the suite's mutants test)", () => {
  const id = randomUUID().replace(/-/g, '').slice(0, 12);
  const base: MigrationFile = { name: '001_items.sql', path: '001_items.sql', sql: `create table public.items_${id} (id int primary key);` };
  // A mutant seeding a row whose value differs at each start (a random id).
  const mutant = (table: string): MigrationFile => ({ name: 'mutant.sql', path: 'mutant.sql', sql: `create table public.${table}_${id} (label text primary key); insert into public.${table}_${id} values (gen_random_uuid()::text);` });
  const first = mutant('notes');
  const edited = mutant('memos');
  const digestOf = (extra: MigrationFile) => builtDigest(keptTemplateKey([base]).digest, [], [extra]);
  const keptFiles = (digest: string) => readdirSync(CATALOG_CACHE_DIR).filter((n) => n.startsWith(`${digest}-`)).map((n) => path.join(CATALOG_CACHE_DIR, n));
  afterAll(async () => {
    const c = new pg.Client({ connectionString: (await sharedServer()).adminUrl });
    await c.connect();
    await c.query(`drop database if exists ${cachedTemplateName(keptTemplateKey([base]))}`);
    await c.end();
    for (const digest of [keptTemplateKey([base]).digest, digestOf(first), digestOf(edited)]) for (const kept of keptFiles(digest)) rmSync(kept, { force: true });
  });

  const start = async (extra: MigrationFile) => {
    const env = await openEnvironment({ server: await sharedServer(), migrations: [base], extra: [extra], workers: 1, cacheTemplate: true });
    await env.close();
    return { env, seeded: env.workers[0].tx.fixturePlan.seededValues ?? [] };
  };

  it("reads the schema's catalog kept by the mutant's first start, its seeded rows again; an edited mutant reads its own", async () => {
    const built = await start(first);
    expect(built.env.readyNote).not.toContain('catalog read from the cache');
    expect(built.env.cache.tables.has(`public.notes_${id}`)).toBe(true);
    expect(built.seeded).toHaveLength(1);
    const [kept] = keptFiles(digestOf(first));
    expect(kept).toBeDefined();
    expect(keptFiles(digestOf(edited))).toEqual([]);

    // A table only the kept file names: the second start's schema cache has it, so the file was read.
    writeFileSync(kept, readFileSync(kept, 'utf8').replace(`"public.notes_${id}"`, `"public.kept_${id}"`));
    const second = await start(first);
    expect(second.env.readyNote).toContain('its catalog read from the cache');
    expect(second.env.cache.tables.has(`public.kept_${id}`)).toBe(true);
    // Its own row's random value is masked, not the first start's.
    expect(second.seeded).toHaveLength(1);
    expect(second.seeded[0]).not.toBe(built.seeded[0]);

    // The edited mutant: its own catalog, never the first's.
    const changed = await start(edited);
    expect(changed.env.readyNote).not.toContain('catalog read from the cache');
    expect(changed.env.cache.tables.has(`public.memos_${id}`)).toBe(true);
    expect(changed.env.cache.tables.has(`public.kept_${id}`)).toBe(false);
  });

  it('the digest changes with the template, each file, and which of them are migrations rather than extra SQL', () => {
    const digest = builtDigest('aaaa', [base], [first]);
    expect(builtDigest('aaaa', [], [])).toBe('aaaa');
    expect(builtDigest('bbbb', [base], [first])).not.toBe(digest);
    expect(builtDigest('aaaa', [base], [edited])).not.toBe(digest);
    expect(builtDigest('aaaa', [], [base, first])).not.toBe(digest);
    expect(builtDigest('aaaa', [base], [first])).toBe(digest);
  });
});

/** A database of its own on the shared server, with a connection to it and one to the admin database. */
async function identityDatabase(): Promise<{ id: string; name: string; admin: pg.Client; c: pg.Client }> {
  const server = await sharedServer();
  const id = randomUUID().replace(/-/g, '').slice(0, 12);
  const name = `pf_identity_${id}`;
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  return { id, name, admin, c };
}

describe("the server's identity, in the key (one server's reads never answer another's run)", () => {
  it('names the version and collation, and changes with a role setting the catalog reads', async () => {
    const { name, admin, c } = await identityDatabase();
    try {
      const before = await serverIdentity(c);
      const { rows } = await c.query<{ v: string; collate: string }>(`select version() as v, datcollate as collate from pg_database where datname = current_database()`);
      expect(before).toContain(rows[0]!.v);
      expect(before).toContain(`|${rows[0]!.collate}|`);
      // A setting made outside the migrations (the pre-request hook a --database-url server holds): another identity, another file.
      await c.query(`alter role authenticator in database ${name} set pgrst.db_pre_request = 'public.elsewhere'`);
      const after = await serverIdentity(c);
      expect(after).not.toBe(before);
      expect(catalogCacheFile('/k', 'd', { inputs: 1, server: after })).not.toBe(catalogCacheFile('/k', 'd', { inputs: 1, server: before }));
    } finally {
      await c.end();
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    }
  });

  it("takes no other role's setting, and none another run's build made outside its database before confining it (the catalog-cache flake)", async () => {
    const { id, name, admin, c } = await identityDatabase();
    try {
      const before = await serverIdentity(c);
      // Another run's role, set role-wide: no input of the catalog's reads.
      await admin.query(`create role pf_other_${id}`);
      await admin.query(`alter role pf_other_${id} set work_mem = '5MB'`);
      expect(await serverIdentity(c)).toBe(before);
      // Another run's build holds the turn, its migrations' role-wide hook not yet moved into its
      // own database: the identity is read once it is (the start waits), never with it.
      await admin.query('select pg_advisory_lock($1, $2)', [...SETTINGS_TURN_LOCK]);
      await admin.query(`alter role authenticator set pgrst.db_pre_request = 'public.hook_${id}'`);
      const during = serverIdentity(c);
      await new Promise((r) => setTimeout(r, 500));
      await admin.query(`alter role authenticator reset pgrst.db_pre_request`);
      await admin.query('select pg_advisory_unlock($1, $2)', [...SETTINGS_TURN_LOCK]);
      expect(await during).toBe(before);
    } finally {
      await c.end();
      await admin.query(`alter role authenticator reset pgrst.db_pre_request`).catch(() => {});
      await admin.query(`drop role if exists pf_other_${id}`).catch(() => {});
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    }
  });
  it("uncached (no kept template: a test's own database), the reads that saw another build's role-wide hook are not used either; read again once its turn ends (the foreign-key-actions flake: 42883)", async () => {
    const { id, name, admin, c } = await identityDatabase();
    let buildEnded: Promise<void> | undefined;
    try {
      const authenticatorHook = async () => {
        const { rows } = await c.query<{ hook: string | null }>(`select array_to_string(setconfig, ',') as hook from pg_db_role_setting where setdatabase = 0 and setrole = (select oid from pg_roles where rolname = 'authenticator')`);
        return rows[0]?.hook ?? '';
      };
      let reads = 0;
      const read = async () => {
        reads++;
        if (reads === 1) {
          await admin.query('select pg_advisory_lock($1, $2)', [...SETTINGS_TURN_LOCK]);
          await admin.query(`alter role authenticator set pgrst.db_pre_request = 'public.hook_${id}'`);
          buildEnded = (async () => {
            await new Promise((r) => setTimeout(r, 300));
            await admin.query(`alter role authenticator reset pgrst.db_pre_request`);
            await admin.query('select pg_advisory_unlock($1, $2)', [...SETTINGS_TURN_LOCK]);
          })();
        }
        return authenticatorHook();
      };
      const { facts, source } = await catalogOutsideSettingsTurn(c, read);
      expect(source).toBe('read');
      expect(facts).not.toContain(`hook_${id}`);
      expect(reads).toBe(2);
    } finally {
      await buildEnded?.catch(() => {});
      await c.end();
      await admin.query(`alter role authenticator reset pgrst.db_pre_request`).catch(() => {});
      await admin.query('select pg_advisory_unlock_all()').catch(() => {});
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    }
  });
  it("a build that takes the turn while the catalog is read (a cold start's read window): the reads that saw its role-wide hook are neither kept nor used; read again once its turn ends", async () => {
    const { id, name, admin, c } = await identityDatabase();
    const dir = tempDir('catalog-window');
    let buildEnded: Promise<void> | undefined;
    try {
      // Stands for the catalog reads: the authenticator's role-wide settings (its pre-request hook), as the schema cache reads them.
      const authenticatorSettings = async () => {
        const { rows } = await c.query<{ hook: string | null }>(`select array_to_string(setconfig, ',') as hook from pg_db_role_setting where setdatabase = 0 and setrole = (select oid from pg_roles where rolname = 'authenticator')`);
        return { hook: rows[0]?.hook ?? '' };
      };
      const clean = await authenticatorSettings();
      let reads = 0;
      const read = async () => {
        reads++;
        if (reads === 1) {
          // Another run's build takes the turn as these reads start and sets its hook role-wide (not yet moved into its database)...
          await admin.query('select pg_advisory_lock($1, $2)', [...SETTINGS_TURN_LOCK]);
          await admin.query(`alter role authenticator set pgrst.db_pre_request = 'public.hook_${id}'`);
          // ... and confines it a moment after they end.
          buildEnded = (async () => {
            await new Promise((r) => setTimeout(r, 300));
            await admin.query(`alter role authenticator reset pgrst.db_pre_request`);
            await admin.query('select pg_advisory_unlock($1, $2)', [...SETTINGS_TURN_LOCK]);
          })();
        }
        return authenticatorSettings();
      };
      const first = await catalogThroughCache(c, dir, 'digest', { inputs: 1 }, read);
      expect(clean.hook).not.toContain(`hook_${id}`);
      expect(first).toEqual({ facts: clean, source: 'read' });
      expect(reads).toBe(2);
      // What was kept is the clean read: the next start reads it from the file.
      const second = await catalogThroughCache(c, dir, 'digest', { inputs: 1 }, read);
      expect(second).toEqual({ facts: clean, source: 'kept' });
      expect(readdirSync(dir)).toHaveLength(1);
    } finally {
      await buildEnded?.catch(() => {});
      await c.end();
      await admin.query(`alter role authenticator reset pgrst.db_pre_request`).catch(() => {});
      await admin.query('select pg_advisory_unlock_all()').catch(() => {});
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    }
  });
});
