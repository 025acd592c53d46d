/**
 * The template cache on a server policyfuzz is pointed at: a second template of the same
 * migrations is the kept one, new migrations go on top of a kept prefix, a mutant's extra files
 * go on a scratch copy (the kept template stays as it was); a local server started on a kept
 * template takes a ready copy of its data instead of copying it. (cache clear: cli/cache-command.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { runBin } from '../../testing/run-bin.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import type { RunSummary } from '../report/summary.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { copyDatabaseSettings, databaseUrl, KEPT_TEMPLATES_IN_USE_LOCK, keptTemplateKey, keptTemplates, prepareTemplate, settingsNotCopiedNote } from './databases.ts';
import { literal } from '../executor/sql-text.ts';
import type { MigrationFile } from './migrations.ts';
import { basePrefixLength, bestBase, cachedTemplateName, keyComment, templateKey } from './template-cache.ts';
import { STAND_INS_SOURCE } from './supabase/stand-ins.ts';
import { LOCAL_CACHE_ROOT, LOCAL_SERVER_ROOT } from './providers/local-server.ts';
import { openEnvironment } from '../runner/environment.ts';

const migration = (name: string, sql: string): MigrationFile => ({ name, path: name, sql });

async function rows(url: string, sql: string): Promise<unknown[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

describe('template key', () => {
  const a = migration('001.sql', 'create table a (id int)');
  const b = migration('002.sql', 'create table b (id int)');
  it('a kept list is a base of the lists it starts; another layer, an edited file or a longer list is not', () => {
    const base = keptTemplateKey([a]);
    expect(basePrefixLength(base, keptTemplateKey([a, b]))).toBe(1);
    expect(basePrefixLength(base, keptTemplateKey([a]))).toBe(1);
    expect(basePrefixLength(base, keptTemplateKey([a, b], false))).toBeUndefined();
    expect(basePrefixLength(base, keptTemplateKey([{ ...a, sql: 'create table a (id bigint)' }, b]))).toBeUndefined();
    expect(basePrefixLength(keptTemplateKey([a, b]), base)).toBeUndefined();
    const kept = [{ key: keptTemplateKey([]) }, { key: base }, { key: keptTemplateKey([b]) }];
    expect(bestBase(kept, keptTemplateKey([a, b]))?.key).toEqual(base);
  });
});

describe('template key: the stand-ins', () => {
  // A stand-in changed by an upgrade (pg_jsonschema made strict, pg_hashids computed) was not in
  // the key: Grida's kept template went on raising in every fixture's CHECK until a cache clear.
  it("another version of the stand-ins is another layer, with or without the compatibility layer, so no kept template is reused", () => {
    const files = [migration('001.sql', 'create extension if not exists pg_jsonschema with schema extensions')];
    const compat = { sql: ['-- layer'] };
    for (const layer of [compat, undefined]) {
      const now = templateKey(files, layer);
      const other = templateKey(files, layer, STAND_INS_SOURCE.replace('strict', 'volatile'));
      expect(other.layer).not.toBe(now.layer);
      expect(other.digest).not.toBe(now.digest);
      expect(basePrefixLength(now, other)).toBeUndefined();
      expect(templateKey(files, layer, STAND_INS_SOURCE)).toEqual(now);
    }
  });
});

describe('kept templates on a shared server', () => {
  // A table name of this test alone: its keys are its own on the shared server.
  const table = `t_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  // The function's unfiltered UPDATE puts safeupdate's trigger on the table.
  const first = migration('001.sql', `create table public.${table} (id int primary key); create function public.${table}_touch() returns void language sql as $$ update public.${table} set id = id $$;`);
  const second = migration('002.sql', `alter table public.${table} add column note text`);
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    const server = await sharedServer();
    const c = new pg.Client({ connectionString: server.adminUrl });
    await c.connect();
    for (const key of [keptTemplateKey([first]), keptTemplateKey([first, second])]) await c.query(`drop database if exists ${cachedTemplateName(key)}`);
    await c.end();
  });

  it('built once, then cloned as kept; new migrations go on top; extra files never reach the kept template', async () => {
    const server = await sharedServer();
    const built = await prepareTemplate(server, { migrations: [first], cache: true });
    drops.push(built.drop);
    const key = keptTemplateKey([first]);
    expect(built.source).toEqual({ kind: 'built', digest: key.digest });
    expect(built.name).toBe(cachedTemplateName(key));

    const again = await prepareTemplate(server, { migrations: [first], cache: true });
    drops.push(again.drop);
    expect(again.source).toEqual({ kind: 'cached', digest: key.digest });

    const extended = await prepareTemplate(server, { migrations: [first, second], cache: true });
    drops.push(extended.drop);
    expect(extended.source).toEqual({ kind: 'extended', digest: keptTemplateKey([first, second]).digest, base: key.digest, applied: 1 });
    expect(await rows(extended.url, `select column_name from information_schema.columns where table_name = '${table}' order by 1`)).toEqual([{ column_name: 'id' }, { column_name: 'note' }]);

    const mutant = await prepareTemplate(server, { migrations: [first], extra: [migration('mutant.sql', `alter table public.${table} add column leak text`)], cache: true });
    drops.push(mutant.drop);
    expect(mutant.source).toEqual({ kind: 'cached', digest: key.digest });
    expect(mutant.name).not.toBe(built.name);
    const columns = `select count(*)::int as n from information_schema.columns where table_name = '${table}'`;
    expect(await rows(mutant.url, columns)).toEqual([{ n: 2 }]);
    expect(await rows(databaseUrl(server.adminUrl, built.name), columns)).toEqual([{ n: 1 }]);
    // The compatibility layer's safeupdate trigger, installed again after the new migrations, is there once.
    const triggers = `select count(*)::int as n from pg_trigger where tgname like 'policyfuzz_safeupdate%' and tgrelid = 'public.${table}'::regclass`;
    expect(await rows(built.url, triggers)).toEqual([{ n: 1 }]);
    expect(await rows(extended.url, triggers)).toEqual([{ n: 1 }]);
    expect(await rows(mutant.url, triggers)).toEqual([{ n: 1 }]);

    // Another run on this server may clone the kept template: each worker gets a clone of it.
    const [worker] = await again.cloneForWorkers(1);
    expect(worker).not.toBe(again.url);
    expect(await rows(worker, `select count(*)::int as n from public.${table}`)).toEqual([{ n: 0 }]);
    // A copy keeps the database's settings: the compatibility layer's search_path (Supabase's), on the worker's and the mutant's sessions.
    for (const url of [worker, mutant.url]) expect(await rows(url, `select current_setting('search_path') as path`)).toEqual([{ path: '"$user", public, extensions' }]);
    for (const drop of drops.splice(0)) await drop();
    // Dropping a run's databases leaves the kept ones.
    const c = new pg.Client({ connectionString: server.adminUrl });
    await c.connect();
    const names = (await keptTemplates(c)).map((k) => k.name);
    await c.end();
    expect(names).toContain(cachedTemplateName(key));
    expect(names).toContain(cachedTemplateName(keptTemplateKey([first, second])));
  });

  it('a server started for this run alone: its last worker takes the template itself, the others clone it', async () => {
    const server = await sharedServer();
    const own = await prepareTemplate(server, { migrations: [first], cache: true, serverOfThisRun: true });
    drops.push(own.drop);
    const workers = await own.cloneForWorkers(2);
    expect(workers[1]).toBe(own.url);
    expect(workers[0]).not.toBe(own.url);
    const columns = `select count(*)::int as n from information_schema.columns where table_name = '${table}'`;
    for (const url of workers) expect(await rows(url, columns)).toEqual([{ n: 1 }]);
    // A mutant's template is a scratch copy: always this run's own, even on a shared server.
    const mutant = await prepareTemplate(server, { migrations: [first], extra: [migration('mutant.sql', `alter table public.${table} add column leak text`)], cache: true });
    drops.push(mutant.drop);
    expect(await mutant.cloneForWorkers(1)).toEqual([mutant.url]);
  });

  it('dropped with its server going next (one this run started, stopped at the end of the run): no DROP DATABASE, each costing a checkpoint; a plain drop still drops', async () => {
    const server = await sharedServer();
    const own = await prepareTemplate(server, { migrations: [first], cache: true, serverOfThisRun: true });
    drops.push(own.drop);
    // The first worker's is a clone (the last takes the template, kept for later runs).
    const [worker] = await own.cloneForWorkers(2);
    await own.drop({ serverGoing: true });
    expect(await rows(worker, 'select 1 as one')).toEqual([{ one: 1 }]);
    await own.drop();
    await expect(rows(worker, 'select 1 as one')).rejects.toThrow(/does not exist/);
  });

  it('a server reached by its URL is lent, whoever started it: a run there gives every worker a clone, never the kept template others clone', async () => {
    const server = await sharedServer();
    const env = await openEnvironment({ databaseUrl: server.adminUrl, migrations: [first], workers: 1, cacheTemplate: true });
    try {
      expect(env.readyNote).toMatch(new RegExp(`(cached template|template built, kept as) ${keptTemplateKey([first]).digest}`));
      expect(env.workers[0].client.database).not.toBe(cachedTemplateName(keptTemplateKey([first])));
    } finally {
      await env.close();
    }
  });

  it("a mutant's edited migration goes on a scratch copy of the kept template of the migrations before it; no template of the edited list is kept", async () => {
    const server = await sharedServer();
    const edited = { ...second, sql: second.sql.replace('note text', 'edited_note text') };
    const tpl = await prepareTemplate(server, { migrations: [first, edited], keptPrefix: 1, cache: true });
    drops.push(tpl.drop);
    expect(tpl.source).toMatchObject({ digest: keptTemplateKey([first]).digest });
    expect(tpl.name).not.toBe(cachedTemplateName(keptTemplateKey([first])));
    expect(await rows(tpl.url, `select column_name from information_schema.columns where table_name = '${table}' order by 1`)).toEqual([{ column_name: 'edited_note' }, { column_name: 'id' }]);
    const triggers = `select count(*)::int as n from pg_trigger where tgname like 'policyfuzz_safeupdate%' and tgrelid = 'public.${table}'::regclass`;
    expect(await rows(tpl.url, triggers)).toEqual([{ n: 1 }]);
    const c = new pg.Client({ connectionString: server.adminUrl });
    await c.connect();
    const names = (await keptTemplates(c)).map((k) => k.name);
    await c.end();
    expect(names).not.toContain(cachedTemplateName(keptTemplateKey([first, edited])));
  });

  it("a diff's base (reuseKept): cloned from the kept template of exactly its migrations, never handed to a worker; without one it is built, and nothing new is kept", async () => {
    const server = await sharedServer();
    const key = keptTemplateKey([first]);
    await (await prepareTemplate(server, { migrations: [first], cache: true })).drop();
    const base = await prepareTemplate(server, { migrations: [first], reuseKept: true });
    drops.push(base.drop);
    expect(base.source).toEqual({ kind: 'cached', digest: key.digest });
    expect(base.migrationsMs).toBe(0);
    const [worker] = await base.cloneForWorkers(1);
    expect(new URL(worker).pathname.slice(1)).not.toBe(cachedTemplateName(key));
    expect(await rows(worker, `select column_name from information_schema.columns where table_name = '${table}' order by 1`)).toEqual([{ column_name: 'id' }]);

    // A base no run kept: built as before, and not kept.
    const unkept = { ...second, sql: second.sql.replace('note text', 'base_note text') };
    const built = await prepareTemplate(server, { migrations: [first, unkept], reuseKept: true });
    drops.push(built.drop);
    expect(built.source).toEqual({ kind: 'uncached' });
    expect(await rows(built.url, `select column_name from information_schema.columns where table_name = '${table}' order by 1`)).toEqual([{ column_name: 'base_note' }, { column_name: 'id' }]);
    const c = new pg.Client({ connectionString: server.adminUrl });
    await c.connect();
    const names = (await keptTemplates(c)).map((k) => k.name);
    await c.end();
    expect(names).not.toContain(cachedTemplateName(keptTemplateKey([first, unkept])));
  });

  it("a mutant's set-up shares its connections to the server's admin database: one before its migrations, one after, not one per step (each costs a backend's fork: 15-30 ms of CPU)", async () => {
    const server = await sharedServer();
    const edited = { ...second, sql: second.sql.replace('note text', 'other_note text') };
    // The kept template of the prefix exists first, as for every mutant after a run's first.
    await (await prepareTemplate(server, { migrations: [first], cache: true })).drop();
    const admin = new URL(server.adminUrl).pathname.slice(1);
    const connect = vi.spyOn(pg.Client.prototype, 'connect');
    try {
      const tpl = await prepareTemplate(server, { migrations: [first, edited], keptPrefix: 1, cache: true });
      await tpl.cloneForWorkers(2);
      const toAdmin = () => connect.mock.contexts.filter((c) => (c as pg.Client).database === admin).length;
      const setUp = toAdmin();
      await tpl.drop();
      // Roles, the kept templates and the scratch copy on one; after the migrations (no admin connection
      // is left idle while they run) the second worker's clone on another; the drop on its own.
      expect(setUp).toBe(2);
      expect(toAdmin()).toBe(3);
    } finally {
      connect.mockRestore();
    }
  });
});

describe('kept data directories of local servers', () => {
  const only = migration('001.sql', `create table public.t_${randomUUID().replace(/-/g, '').slice(0, 12)} (id int primary key)`);
  const digest = keptTemplateKey([only]).digest;
  const keptDirs = () => readdirSync(LOCAL_CACHE_ROOT).flatMap((v) => readdirSync(path.join(LOCAL_CACHE_ROOT, v)).filter((n) => n.startsWith('templates-')).map((t) => path.join(LOCAL_CACHE_ROOT, v, t, digest)));
  afterAll(() => {
    for (const dir of keptDirs()) for (const entry of [dir, `${dir}.spare`]) rmSync(entry, { recursive: true, force: true });
  });
  const runDataDirs = () => readdirSync(LOCAL_SERVER_ROOT).filter((n) => n.startsWith(`run-${process.pid}-`)).map((n) => path.join(LOCAL_SERVER_ROOT, n, 'data'));

  it('a start on a kept template renames its spare copy into place (no copy before the server starts) and leaves a new spare when it stops', async () => {
    const first = await openEnvironment({ provider: 'local', migrations: [only], workers: 1, cacheTemplate: true });
    await first.close();
    expect(first.readyNote).toContain(`template built, kept as ${digest}`);
    const [kept] = keptDirs().filter((d) => existsSync(d));
    expect(existsSync(`${kept}.spare`)).toBe(true);
    const spareInode = statSync(`${kept}.spare`).ino;

    const before = new Set(runDataDirs());
    const second = await openEnvironment({ provider: 'local', migrations: [only], workers: 1, cacheTemplate: true });
    try {
      expect(second.readyNote).toContain(`cached template ${digest}`);
      const [dataDir] = runDataDirs().filter((d) => !before.has(d));
      expect(statSync(dataDir).ino).toBe(spareInode);
    } finally {
      await second.close();
    }
    expect(existsSync(`${kept}.spare`)).toBe(true);
    expect(statSync(`${kept}.spare`).ino).not.toBe(spareInode);
  });
});

describe('new migrations on a kept data directory (a local server started for this run)', () => {
  const table = `t_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const base = migration('001.sql', `create table public.${table} (id int primary key)`);
  const added = migration('002.sql', `alter table public.${table} add column note text`);
  const digests = [keptTemplateKey([base]).digest, keptTemplateKey([base, added]).digest];
  afterAll(() => {
    for (const version of readdirSync(LOCAL_CACHE_ROOT)) {
      for (const templates of readdirSync(path.join(LOCAL_CACHE_ROOT, version)).filter((n) => n.startsWith('templates-'))) {
        for (const d of digests) for (const entry of [d, `${d}.spare`]) rmSync(path.join(LOCAL_CACHE_ROOT, version, templates, entry), { recursive: true, force: true });
      }
    }
  });
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });
  const templateOid = async (env: Awaited<ReturnType<typeof openEnvironment>>, digest: string) =>
    (await rows(env.server.adminUrl, `select oid::int as oid from pg_database where datname = '${cachedTemplateName({ digest, layer: '', files: [] })}'`))[0];

  it('go on the kept template itself, renamed, not on a copy of it (a copy and the drop of the base each cost a checkpoint); the next run starts from the template they made', async () => {
    const first = await openEnvironment({ provider: 'local', migrations: [base], workers: 1, cacheTemplate: true });
    const baseOid = await templateOid(first, digests[0]);
    await first.close();
    expect(first.readyNote).toContain(`kept as ${digests[0]}`);

    // Kept data directories older than any other, which keeping a new template pushes out of the
    // cache: removed in the background, gone (aside copies too) once the run has stopped.
    const templatesDir = readdirSync(LOCAL_CACHE_ROOT).flatMap((v) => readdirSync(path.join(LOCAL_CACHE_ROOT, v)).filter((n) => n.startsWith('templates-')).map((t) => path.join(LOCAL_CACHE_ROOT, v, t))).find((d) => existsSync(path.join(d, digests[0])))!;
    const stale = [1, 2, 3].map((i) => path.join(templatesDir, `${table}_stale_${i}`));
    stale.forEach((dir, i) => {
      mkdirSync(path.join(dir, 'data'), { recursive: true });
      for (let f = 0; f < 500; f++) writeFileSync(path.join(dir, 'data', String(f)), 'x');
      writeFileSync(path.join(dir, 'key.json'), JSON.stringify(keptTemplateKey([migration(`${i}.sql`, table)])));
      utimesSync(dir, new Date(1000 * (i + 1)), new Date(1000 * (i + 1)));
    });
    // The oldest is what another live run is copying its server's data from: it stays.
    const otherRun = path.join(LOCAL_SERVER_ROOT, `run-${process.ppid}-${table}`);
    mkdirSync(otherRun);
    writeFileSync(path.join(otherRun, 'owner.json'), JSON.stringify({ pid: process.ppid, started: new Date().toISOString(), uses: [stale[0]] }));
    drops.push(async () => [...stale, otherRun].forEach((dir) => rmSync(dir, { recursive: true, force: true })));
    const extended = await openEnvironment({ provider: 'local', migrations: [base, added], workers: 1, cacheTemplate: true });
    await extended.close();
    expect(extended.readyNote).toContain(`cached template ${digests[0]} + 1 new migration, kept as ${digests[1]}`);
    // The second oldest at least (beyond the newest three: the new template, its base and the newest stale one, or another of this account's).
    expect(existsSync(stale[1])).toBe(false);
    expect(existsSync(stale[0])).toBe(true);
    expect(readdirSync(templatesDir).filter((n) => n.includes(`.tmp-${process.pid}-`))).toEqual([]);

    const next = await openEnvironment({ provider: 'local', migrations: [base, added], workers: 1, cacheTemplate: true });
    try {
      expect(next.readyNote).toContain(`cached template ${digests[1]}`);
      // The same database as the base's, renamed: a copy would have another oid.
      expect(await templateOid(next, digests[1])).toEqual(baseOid);
      expect(await rows(databaseUrl(next.server.adminUrl, next.template.name), `select column_name from information_schema.columns where table_name = '${table}' order by 1`)).toEqual([{ column_name: 'id' }, { column_name: 'note' }]);
    } finally {
      await next.close();
    }
  });
});

describe('settings a copy cannot take (a lent server, a non-superuser role)', () => {
  it('are reported, each named with the server’s reason, not skipped silently; the ones it may make are copied', async () => {
    const server = await sharedServer();
    const id = randomUUID().replace(/-/g, '').slice(0, 10);
    const [role, from, to] = [`pf_lent_${id}`, `pf_src_${id}`, `pf_dst_${id}`];
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    try {
      await admin.query(`create role ${role} login password 'x' createdb`);
      await admin.query(`create database ${from} owner ${role}`);
      await admin.query(`create database ${to} owner ${role}`);
      // The database's own path (its owner may copy it) and a superuser's per-role path (it may not).
      await admin.query(`alter database ${from} set search_path = public, extensions`);
      await admin.query(`alter role ${admin.user} in database ${from} set search_path = private`);
      const url = new URL(server.adminUrl);
      url.username = role;
      url.password = 'x';
      const lent = new pg.Client({ connectionString: url.toString() });
      await lent.connect();
      let missed;
      try {
        missed = await copyDatabaseSettings(lent, from, to);
      } finally {
        await lent.end();
      }
      expect(missed).toEqual([{ setting: 'search_path', role: admin.user, error: expect.stringMatching(/permission denied|must be superuser/) }]);
      expect(settingsNotCopiedNote(missed)).toMatch(new RegExp(`^settings of the migrated database this role may not copy onto the run's databases, which run without them: search_path for role ${admin.user} \\(.+\\): search_path decides which schema an unqualified name reaches`));
      expect(await rows(databaseUrl(server.adminUrl, to), `select unnest(setconfig) as s from pg_db_role_setting where setdatabase = (select oid from pg_database where datname = '${to}')`)).toEqual([{ s: 'search_path=public, extensions' }]);
      expect(settingsNotCopiedNote([])).toBeUndefined();
    } finally {
      for (const db of [from, to]) await admin.query(`drop database if exists ${db}`);
      await admin.query(`drop role if exists ${role}`);
      await admin.end();
    }
  });

  it('reach the console under --quiet, summary.json and report.html (bin/policyfuzz.mjs, a child process)', async () => {
    const dir = tempDir('settings-note');
    mkdirSync(path.join(dir, 'm'));
    // A tablespace the catalog lacks is accepted by ALTER DATABASE (a notice) but refused by a session's set: no copy can take it.
    writeFileSync(path.join(dir, 'm', '0001_settings.sql'), `do $$ begin execute format('alter database %I set default_tablespace = %L', current_database(), 'pf_no_such_space'); end $$;`);
    const reports = path.join(dir, 'r');
    const r = await runBin(['fuzz', '--migrations', path.join(dir, 'm'), '--only', 'R02', '--no-sso', '--runs', '1', '--workers', '1', '--no-replay', '--no-color', '--quiet', '--report-dir', reports, '--failures-dir', path.join(dir, 'f'), '--database-url', inject('databaseUrl')], { cwd: dir });
    const warning = /settings of the migrated database this role may not copy onto the run's databases, which run without them: default_tablespace \(.*pf_no_such_space.*\)/;
    expect(r.stdout + r.stderr).toMatch(new RegExp(`warning: ${warning.source}`));
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.warnings).toEqual([expect.stringMatching(warning)]);
    expect(readFileSync(path.join(reports, 'report.html'), 'utf8')).toMatch(/<p class="warning">warning: settings of the migrated database/);
  });
});

describe("old kept templates are dropped only while no other run's set-up has listed them", () => {
  it('another run between listing the kept templates and copying one (holding the in-use lock shared) keeps every old one; once it is done, the next keep drops them', async () => {
    const server = await sharedServer();
    const mark = randomUUID().slice(0, 8);
    // Four kept templates built two hours ago, beyond the newest three once another is kept: droppable by age.
    const old = Array.from({ length: 4 }, (_, i) => keptTemplateKey([migration(`old_${mark}_${i}.sql`, `select ${i}`)]));
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    const listing = new pg.Client({ connectionString: server.adminUrl });
    await listing.connect();
    const present = async () => (await keptTemplates(admin)).map((k) => k.name).filter((n) => old.some((k) => cachedTemplateName(k) === n));
    const built: string[] = [];
    try {
      for (const [i, key] of old.entries()) {
        await admin.query(`create database ${cachedTemplateName(key)}`);
        await admin.query(`comment on database ${cachedTemplateName(key)} is ${literal(keyComment(key, Date.now() - 2 * 3600_000 - i))}`);
      }
      // The other run: its set-up has listed them and is about to copy one.
      await listing.query('select pg_advisory_lock_shared($1, $2)', [...KEPT_TEMPLATES_IN_USE_LOCK]);
      const one = await prepareTemplate(server, { migrations: [migration(`new_${mark}_1.sql`, 'select 1')], cache: true });
      built.push(one.name);
      await one.drop();
      expect((await present()).sort()).toEqual(old.map(cachedTemplateName).sort());
      // Its copies made: a later keep drops the old ones beyond the newest three (a few tries: the suite's
      // other files' set-ups, on this server at once, hold the lock too while they list and copy).
      await listing.query('select pg_advisory_unlock_shared($1, $2)', [...KEPT_TEMPLATES_IN_USE_LOCK]);
      for (let n = 2; n < 7 && (await present()).length > 1; n++) {
        const next = await prepareTemplate(server, { migrations: [migration(`new_${mark}_${n}.sql`, `select ${n}`)], cache: true });
        built.push(next.name);
        await next.drop();
      }
      expect((await present()).length).toBeLessThanOrEqual(1);
    } finally {
      await listing.end();
      for (const name of [...old.map(cachedTemplateName), ...built]) await admin.query(`drop database if exists ${name}`);
      await admin.end();
    }
  }, 120_000);
});
