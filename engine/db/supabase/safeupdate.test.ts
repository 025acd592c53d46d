/**
 * pg-safeupdate inside database functions, against real Postgres: Supabase's hook sees every
 * statement the session parses (plpgsql and SQL function bodies too), so a function reached by
 * rpc that runs an UPDATE or DELETE with no WHERE fails with 21000 (400), a filtered one or one
 * on a branch not taken runs, and the harness's own writes outside requests are untouched.
 */
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../model/caller.ts';
import type { ApiRequest } from '../../model/request.ts';
import { loadMigrationFolder } from '../migrations.ts';
import { openEnvironment, type Environment } from '../../runner/environment.ts';
import { sharedServer } from '../../../testing/shared-server.ts';
import { tempDir } from '../../../testing/temp-dir.ts';
import { runsDynamicSql, unfilteredWrites } from './safeupdate.ts';
import { readTargetFacts } from '../../introspection/target-facts.ts';

describe('unfilteredWrites (reading function bodies)', () => {
  it('finds UPDATE and DELETE with no WHERE at their own level, with the text plpgsql reports', () => {
    const body = `
      begin
        -- delete from public.commented;
        perform 'update public.quoted set x = 1';
        delete from public.notes;
        update only public.notes n set body = (select b from t where t.id = n.id);
        delete from public.notes where id = p_id;
        update public.notes set body = 'x' where true;
        insert into public.notes values (1) on conflict (id) do update set body = 'y';
        perform 1 from public.notes for update;
        with gone as (delete from public.logs returning *) select count(*) from gone;
      end`;
    expect(unfilteredWrites(body).map((w) => [w.command, w.table, w.text])).toEqual([
      ['DELETE', 'public.notes', 'delete from public.notes'],
      ['UPDATE', 'public.notes', 'update only public.notes n set body = (select b from t where t.id = n.id)'],
      ['DELETE', 'public.logs', 'delete from public.logs returning *'],
    ]);
  });

  it('numbers the statements of a SQL function', () => {
    expect(unfilteredWrites("select 1; update public.notes set body = 'x'").map((w) => w.statementNo)).toEqual([2]);
  });
});

const ALICE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const alice: Caller = { kind: 'user', id: ALICE };
const service: Caller = { kind: 'service' };

const SCHEMA = `
create table public.notes (id int primary key, body text);
alter table public.notes enable row level security;
revoke all on public.notes from anon, authenticated;
grant select on public.notes to authenticated;
create policy notes_select on public.notes for select to authenticated using (true);

create function public.wipe() returns void language plpgsql security definer set search_path = '' as $$
begin
  delete from public.notes;
end $$;
create function public.wipe_one(p_id int) returns void language plpgsql security definer set search_path = '' as $$
begin
  delete from public.notes where id = p_id;
end $$;
create function public.wipe_all_on_purpose() returns void language plpgsql security definer set search_path = '' as $$
begin
  delete from public.notes where true;
end $$;
create function public.blank_if(p_do boolean) returns void language plpgsql security definer set search_path = public as $$
begin
  if p_do then
    update notes
       set body = '';
  end if;
end $$;
create function public.blank_sql() returns void language sql security definer set search_path = '' as $$
  select 1;
  update public.notes set body = ''
$$;
-- A trigger function a filtered request fires: its own unfiltered write is refused too.
create table public.log (n int);
create function public.reset_log() returns trigger language plpgsql security definer set search_path = '' as $$
begin
  delete from public.log;
  return new;
end $$;
grant update on public.notes to authenticated;
create policy notes_update on public.notes for update to authenticated using (true) with check (true);
create trigger notes_reset_log after update on public.notes for each row execute function public.reset_log();
grant execute on all functions in schema public to authenticated;
`;

/** A database from one migration, on the shared server. */
async function environmentOf(name: string, schema: string): Promise<Environment> {
  const dir = tempDir(name);
  writeFileSync(path.join(dir, '0001_schema.sql'), schema);
  return openEnvironment({ server: await sharedServer(), migrations: loadMigrationFolder(dir) });
}

type Fixture = { table: string; row: object; sql: string };

/** One case on `on`: its fixtures, then each request in turn; everything rolled back. */
async function caseOn(on: Environment, fixtures: Fixture[], steps: [Caller, ApiRequest][]) {
  const tx = on.workers[0].tx;
  await tx.begin(fixtures);
  try {
    const out = [];
    for (const [caller, request] of steps) out.push(await tx.send(caller, request));
    return out;
  } finally {
    await tx.end();
  }
}

let env: Environment;
beforeAll(async () => {
  env = await environmentOf('safeupdate', SCHEMA);
});
afterAll(() => env?.close());

const FIXTURES = [
  { table: 'auth.users', row: {}, sql: `insert into auth.users (id, email) values ('${ALICE}', 'a@x')` },
  // The harness's fixtures run outside any request: an unfiltered write there is not refused.
  { table: 'log', row: {}, sql: `insert into public.log values (1); delete from public.log; insert into public.log values (2)` },
  { table: 'notes', row: {}, sql: `insert into public.notes values (1, 'one'), (2, 'two')` },
];

const sequence = (...steps: [Caller, ApiRequest][]) => caseOn(env, FIXTURES, steps);
const rpc = (fn: string, args: Record<string, unknown> = {}): ApiRequest => ({ kind: 'rpc', fn, args }) as ApiRequest;
const count: ApiRequest = { kind: 'select', table: 'notes', columns: ['id'], filters: [] };

describe('pg-safeupdate inside functions called by rpc', () => {
  it('a plpgsql DELETE with no WHERE: 400 21000, nothing deleted', async () => {
    const [r, read] = await sequence([alice, rpc('wipe')], [alice, count]);
    expect(r).toMatchObject({ status: 400, error: { code: '21000', message: 'DELETE requires a WHERE clause', hint: 'To delete all rows, use "WHERE true" or similar.' } });
    expect(read.body).toHaveLength(2);
  });

  it('the service role is refused too (the hook is the session’s, not the role’s)', async () => {
    expect((await sequence([service, rpc('wipe')]))[0]).toMatchObject({ status: 400, error: { code: '21000' } });
  });

  it('a filtered DELETE, and one WHERE true, run', async () => {
    const [one, read1] = await sequence([alice, rpc('wipe_one', { p_id: 1 })], [alice, count]);
    expect(one.status).toBeLessThan(300);
    expect(read1.body).toEqual([{ id: 2 }]);
    const [all, read2] = await sequence([alice, rpc('wipe_all_on_purpose')], [alice, count]);
    expect(all.status).toBeLessThan(300);
    expect(read2.body).toEqual([]);
  });

  it('only when reached: a branch not taken runs, the same function taking it is refused (a statement over several lines)', async () => {
    const [skipped, taken] = await sequence([alice, rpc('blank_if', { p_do: false })], [alice, rpc('blank_if', { p_do: true })]);
    expect(skipped.status).toBeLessThan(300);
    expect(taken).toMatchObject({ status: 400, error: { code: '21000', message: 'UPDATE requires a WHERE clause' } });
  });

  it('a SQL function with an unfiltered UPDATE: 400 21000', async () => {
    expect((await sequence([alice, rpc('blank_sql')]))[0]).toMatchObject({ status: 400, error: { code: '21000', message: 'UPDATE requires a WHERE clause' } });
  });

  it('a trigger function fired by a filtered PATCH: its unfiltered DELETE refuses the PATCH', async () => {
    const [r] = await sequence([alice, { kind: 'update', table: 'notes', patch: { body: 'x' }, filters: [{ column: 'id', op: 'eq', value: 1 }], returning: 'minimal' }]);
    expect(r).toMatchObject({ status: 400, error: { code: '21000', message: 'DELETE requires a WHERE clause' } });
  });
});

describe("what init reads of the target: not policyfuzz's own safeupdate", () => {
  it('a table carrying the safeupdate trigger lists no guard of policyfuzz (init proposed guards refuse with 21000)', async () => {
    // After Recollect: init said "guards (triggers) refuse with 21000 (… requires a WHERE clause)", its own refusal.
    const client = new pg.Client({ connectionString: env.template.url });
    await client.connect();
    try {
      const installed = await client.query(`select count(*)::int as n from pg_trigger where tgname like 'policyfuzz\\_%'`);
      expect(installed.rows[0].n).toBeGreaterThan(0);
      const { functions } = await readTargetFacts(client, ['public']);
      expect(functions.filter((f) => f.trigger).map((f) => f.name)).toEqual(['reset_log']);
    } finally {
      await client.end();
    }
  });

  it("the API roles' privileges as they can use them (catalog.ts's reading): a SELECT in a schema anon has no USAGE on is none; UPDATE by column grants", async () => {
    const client = new pg.Client({ connectionString: env.template.url });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`create schema hidden; create table hidden.t (id int primary key, body text);
        grant select on hidden.t to anon; grant select, update (body) on hidden.t to authenticated; grant usage on schema hidden to authenticated`);
      const { tables } = await readTargetFacts(client, ['hidden']);
      expect(tables.map((t) => ({ name: t.name, anonCanSelect: t.anonCanSelect, grants: t.grants }))).toEqual([{ name: 'hidden.t', anonCanSelect: false, grants: { anon: [], authenticated: ['select'], columnUpdate: { authenticated: ['body'] } } }]);
    } finally {
      await client.query('rollback');
      await client.end();
    }
  });
});

describe('pg-safeupdate and dynamic SQL (EXECUTE)', () => {
  const DYNAMIC = `
create table public.items (id int primary key, body text);
grant select, update on public.items to authenticated;
create function public.wipe_dynamic(p_table text) returns void language plpgsql security definer set search_path = '' as $$
begin
  execute format('delete from public.%I', p_table);
end $$;
create function public.blank_dynamic(p_rest text) returns void language plpgsql security definer set search_path = '' as $$
begin
  execute 'update public.items set body = ''''' || p_rest;
end $$;
create function public.run_sql(p_sql text) returns void language plpgsql security definer set search_path = '' as $$
begin
  execute p_sql;
end $$;
grant execute on all functions in schema public to authenticated;
`;
  let dynamic: Environment;
  beforeAll(async () => {
    dynamic = await environmentOf('safeupdate-dynamic', DYNAMIC);
  });
  afterAll(() => dynamic?.close());

  const run = (...steps: [Caller, ApiRequest][]) =>
    caseOn(
      dynamic,
      [
        { table: 'auth.users', row: {}, sql: `insert into auth.users (id, email) values ('${ALICE}', 'a@x')` },
        { table: 'items', row: {}, sql: `insert into public.items values (1, 'one'), (2, 'two')` },
      ],
      steps,
    );
  const items: ApiRequest = { kind: 'select', table: 'items', columns: ['id', 'body'], filters: [] };

  it('knows which bodies run dynamic SQL', () => {
    expect(runsDynamicSql(`begin execute format('delete from %I', t); end`)).toBe(true);
    expect(runsDynamicSql(`begin perform 1; raise notice 'execute me'; end`)).toBe(false);
    expect(runsDynamicSql(`begin create trigger t after insert on x for each row execute function f(); end`)).toBe(false);
  });

  it('an unfiltered DELETE built for EXECUTE: 400 21000, nothing deleted', async () => {
    const [r, read] = await run([alice, rpc('wipe_dynamic', { p_table: 'items' })], [alice, items]);
    expect(r).toMatchObject({ status: 400, error: { code: '21000', message: 'DELETE requires a WHERE clause' } });
    expect(read.body).toHaveLength(2);
  });

  it('an UPDATE built for EXECUTE runs with a WHERE and is refused without one; a filtered PATCH still runs', async () => {
    const [filtered, read] = await run([alice, rpc('blank_dynamic', { p_rest: ' where id = 1' })], [alice, items]);
    expect(filtered.status).toBe(204);
    expect(read.body).toEqual(expect.arrayContaining([{ id: 1, body: '' }, { id: 2, body: 'two' }]));
    const [unfiltered] = await run([alice, rpc('blank_dynamic', { p_rest: '' })]);
    expect(unfiltered).toMatchObject({ status: 400, error: { code: '21000', message: 'UPDATE requires a WHERE clause' } });
    const [patch] = await run([alice, { kind: 'update', table: 'items', patch: { body: 'x' }, filters: [{ column: 'id', op: 'eq', value: 2 }], returning: 'minimal' }]);
    expect(patch.status).toBe(204);
  });

  it('a dynamic statement is judged by its own WHERE, as the parse tree is: not one in a subquery, a string or a comment; each data-modifying CTE by its own', async () => {
    const outcome = async (sql: string) => {
      const [r, read] = await run([alice, rpc('run_sql', { p_sql: sql })], [alice, items]);
      return { status: r.status, code: r.error?.code, message: r.error?.message, rows: (read.body as unknown[]).length };
    };
    const refused = (command: string) => ({ status: 400, code: '21000', message: `${command} requires a WHERE clause`, rows: 2 });
    expect(await outcome(`update public.items set body = (select 'x' where true)`)).toEqual(refused('UPDATE'));
    expect(await outcome(`update public.items set body = 'where'`)).toEqual(refused('UPDATE'));
    expect(await outcome(`update public.items set body = 'c' /* where id = 1 */`)).toEqual(refused('UPDATE'));
    expect(await outcome(`with c as (select 1 where true) delete from public.items`)).toEqual(refused('DELETE'));
    expect(await outcome(`with d as (delete from public.items returning 1) select count(*) from d where true`)).toEqual(refused('DELETE'));
    expect(await outcome(`with c (n) as materialized (select 1) update public.items set body = 'y' where id = (select n from c)`)).toMatchObject({ status: 204, rows: 2 });
    expect(await outcome(`update public.items set body = 'it''s (where)' where id = 2`)).toMatchObject({ status: 204 });
    expect(await outcome(`with d as (delete from public.items where id = 1 returning 1) select count(*) from d`)).toMatchObject({ status: 204, rows: 1 });
    // An INSERT whose conflict updates is an INSERT: pg-safeupdate does not judge it (its UPDATE statement triggers fire all the same).
    expect(await outcome(`insert into public.items values (1, 'z') on conflict (id) do update set body = 'z'`)).toMatchObject({ status: 204, rows: 2 });
  });
});
