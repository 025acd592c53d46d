/**
 * The request executor against real Postgres: every HTTP status path PostgREST v12 gives, the
 * row-security facts rules 5 and 6 rest on, and settings that must not leak between requests.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import { loadMigrationFolder } from '../db/migrations.ts';
import { openEnvironment, type Environment } from '../runner/environment.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import type { ApiResponse } from './response.ts';
import { tempDir } from '../../testing/temp-dir.ts';

const ALICE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const BOB = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const alice: Caller = { kind: 'user', id: ALICE };
const anon: Caller = { kind: 'anon' };

const SCHEMA = `
create table public.things (id int primary key, owner uuid, label text unique);
alter table public.things enable row level security;
revoke all on public.things from anon, authenticated;
grant select, insert, update, delete on public.things to authenticated;
create policy things_select on public.things for select to authenticated using (owner = auth.uid());
create policy things_insert on public.things for insert to authenticated with check (true);
create policy things_update on public.things for update to authenticated using (true) with check (true);
create policy things_delete on public.things for delete to authenticated using (true);

create table public.loop (id int primary key);
alter table public.loop enable row level security;
grant select on public.loop to authenticated;
create policy loop_select on public.loop for select to authenticated using (exists (select 1 from public.loop l2 where l2.id = loop.id));

create function public.boom() returns void language plpgsql as $$ begin raise exception 'BOOM'; end $$;
create function public.hello(p_name text) returns text language sql as $$ select 'hi ' || p_name $$;
create function public.noop() returns void language sql as $$ select $$;
create function public.things_of(p_owner uuid) returns setof public.things language sql security definer as $$ select * from public.things where owner = p_owner order by id $$;
create function public.seen() returns jsonb language sql as $$
  select jsonb_build_object('uid', auth.uid(), 'role', current_user, 'claims', current_setting('request.jwt.claims', true))
$$;
`;

let env: Environment;

beforeAll(async () => {
  const dir = tempDir('exec');
  writeFileSync(path.join(dir, '0001_things.sql'), SCHEMA);
  env = await openEnvironment({ server: await sharedServer(), migrations: loadMigrationFolder(dir) });
});
afterAll(() => env?.close());

const FIXTURES = [
  { table: 'auth.users', row: {}, sql: `insert into auth.users (id, email) values ('${ALICE}', 'a@x'), ('${BOB}', 'b@x')` },
  { table: 'things', row: {}, sql: `insert into public.things values (1, '${ALICE}', 'one'), (2, '${BOB}', 'two')` },
];

/** Runs requests in one case (fixtures, then each request as PostgREST would), then rolls back. */
async function sequence(...steps: [Caller, ApiRequest, { withoutToken?: boolean }?][]): Promise<ApiResponse[]> {
  const tx = env.workers[0].tx;
  await tx.begin(FIXTURES);
  try {
    const out: ApiResponse[] = [];
    for (const [caller, request, options] of steps) out.push(await tx.send(caller, request, options));
    return out;
  } finally {
    await tx.end();
  }
}
const one = async (caller: Caller, request: ApiRequest, options?: { withoutToken?: boolean }) => (await sequence([caller, request, options]))[0];

const byId = (id: number) => [{ column: 'id', op: 'eq' as const, value: id }];

describe('HTTP status paths (PostgREST v12)', () => {
  it('GET: 200 with only the rows the SELECT rule shows', async () => {
    const r = await one(alice, { kind: 'select', table: 'things', columns: ['id', 'label'], filters: [] });
    expect(r).toMatchObject({ status: 200, body: [{ id: 1, label: 'one' }], affected: 1 });
  });

  it('GET singular: 406 PGRST116 when not exactly one row', async () => {
    const r = await one(alice, { kind: 'select', table: 'things', columns: '*', filters: byId(2), single: true });
    expect(r.status).toBe(406);
    expect(r.error?.code).toBe('PGRST116');
  });

  it('POST return=representation of a row the writer cannot select: 403 42501 (rule 5)', async () => {
    const r = await one(alice, { kind: 'insert', table: 'things', rows: [{ id: 3, owner: BOB, label: 'three' }], returning: 'representation' });
    expect(r.status).toBe(403);
    expect(r.error).toMatchObject({ code: '42501' });
    expect(r.error?.message).toMatch(/row-level security policy for table "things"/);
  });

  it('POST return=minimal of the same row: 201, no body (rule 5)', async () => {
    const r = await one(alice, { kind: 'insert', table: 'things', rows: [{ id: 3, owner: BOB, label: 'three' }], returning: 'minimal' });
    expect(r).toEqual({ status: 201, body: null, affected: 1 });
  });

  it('PATCH that moves a row out of the writer’s SELECT scope: 403 42501 (rule 6)', async () => {
    const r = await one(alice, { kind: 'update', table: 'things', patch: { owner: BOB }, filters: byId(1), returning: 'minimal' });
    expect(r.status).toBe(403);
    expect(r.error?.message).toMatch(/row-level security policy/);
  });

  it('PATCH matching no visible row: 204 minimal, 200 [] representation', async () => {
    expect(await one(alice, { kind: 'update', table: 'things', patch: { label: 'x' }, filters: byId(2), returning: 'minimal' })).toEqual({ status: 204, body: null, affected: 0 });
    expect(await one(alice, { kind: 'update', table: 'things', patch: { label: 'x' }, filters: byId(2), returning: 'representation' })).toEqual({ status: 200, body: [], affected: 0 });
  });

  it('DELETE return=representation: 200 with the deleted rows', async () => {
    const r = await one(alice, { kind: 'delete', table: 'things', filters: [], returning: 'representation' });
    expect(r).toEqual({ status: 200, body: [{ id: 1, owner: ALICE, label: 'one' }], affected: 1 });
  });

  it('unique violation: 409 23505', async () => {
    const r = await one(alice, { kind: 'insert', table: 'things', rows: [{ id: 4, owner: ALICE, label: 'one' }], returning: 'minimal' });
    expect(r.status).toBe(409);
    expect(r.error?.code).toBe('23505');
  });

  it('raise exception: 400 P0001', async () => {
    const r = await one(alice, { kind: 'rpc', fn: 'boom', args: {} });
    expect(r).toMatchObject({ status: 400, error: { code: 'P0001', message: 'BOOM' } });
  });

  it('rpc: scalar 200, void 204, setof rows 200, unknown 404 PGRST202', async () => {
    expect(await one(alice, { kind: 'rpc', fn: 'hello', args: { p_name: 'x' } })).toMatchObject({ status: 200, body: 'hi x' });
    expect(await one(alice, { kind: 'rpc', fn: 'noop', args: {} })).toMatchObject({ status: 204, body: null });
    expect(await one(anon, { kind: 'rpc', fn: 'things_of', args: { p_owner: BOB } })).toMatchObject({ status: 200, body: [{ id: 2, owner: BOB, label: 'two' }] });
    expect(await one(alice, { kind: 'rpc', fn: 'nope', args: {} })).toMatchObject({ status: 404, error: { code: 'PGRST202' } });
  });

  it('unknown table 404 PGRST205; unknown body column 400 PGRST204', async () => {
    expect(await one(alice, { kind: 'select', table: 'nope', columns: '*', filters: [] })).toMatchObject({ status: 404, error: { code: 'PGRST205' } });
    expect(await one(alice, { kind: 'insert', table: 'things', rows: [{ id: 5, nope: 1 }], returning: 'minimal' })).toMatchObject({ status: 400, error: { code: 'PGRST204' } });
  });

  it('infinite recursion in a policy: 500 42P17', async () => {
    expect(await one(alice, { kind: 'select', table: 'loop', columns: '*', filters: [] })).toMatchObject({ status: 500, error: { code: '42P17' } });
  });

  it('missing grant: 403 with the anon key, 401 with no token at all', async () => {
    const request: ApiRequest = { kind: 'select', table: 'things', columns: '*', filters: [] };
    expect(await one(anon, request)).toMatchObject({ status: 403, error: { code: '42501', message: 'permission denied for table things' } });
    expect(await one(anon, request, { withoutToken: true })).toMatchObject({ status: 401, error: { code: '42501' } });
  });

  it('an unreadable filter literal: 400 22P02', async () => {
    expect(await one(alice, { kind: 'select', table: 'things', columns: '*', filters: [{ column: 'owner', op: 'eq', value: 'not-a-uuid' }] })).toMatchObject({ status: 400, error: { code: '22P02' } });
  });
});

describe('requests of one case do not share settings', () => {
  it('role and claims of a write, a failed request and a read end with them', async () => {
    const seen: ApiRequest = { kind: 'rpc', fn: 'seen', args: {} };
    const [, afterWrite, , afterError, , afterRead] = await sequence(
      [alice, { kind: 'update', table: 'things', patch: { label: 'uno' }, filters: byId(1), returning: 'minimal' }],
      [anon, seen],
      [alice, { kind: 'rpc', fn: 'boom', args: {} }],
      [anon, seen],
      [alice, { kind: 'select', table: 'things', columns: '*', filters: [] }],
      [anon, seen],
    );
    for (const r of [afterWrite, afterError, afterRead]) {
      expect(r.body).toEqual({ uid: null, role: 'anon', claims: JSON.stringify({ role: 'anon', iss: 'supabase' }) });
    }
  });

  it('a write is visible to the next request of the same case', async () => {
    const [, read] = await sequence(
      [alice, { kind: 'update', table: 'things', patch: { label: 'uno' }, filters: byId(1), returning: 'minimal' }],
      [alice, { kind: 'select', table: 'things', columns: ['label'], filters: byId(1) }],
    );
    expect(read.body).toEqual([{ label: 'uno' }]);
  });
});

describe('Supabase auth functions (facts from the notes, checked)', () => {
  async function uidWith(settings: Record<string, string>): Promise<string | null> {
    const client = new pg.Client({ connectionString: env.template.url });
    await client.connect();
    try {
      await client.query('begin');
      for (const [k, v] of Object.entries(settings)) await client.query('select set_config($1, $2, true)', [k, v]);
      const r = await client.query('select auth.uid()::text as uid');
      await client.query('rollback');
      return r.rows[0].uid;
    } finally {
      await client.end();
    }
  }

  it('the legacy request.jwt.claim.sub wins over request.jwt.claims', async () => {
    expect(await uidWith({ 'request.jwt.claim.sub': ALICE, 'request.jwt.claims': JSON.stringify({ sub: BOB }) })).toBe(ALICE);
  });

  it("an empty string counts as absent", async () => {
    expect(await uidWith({ 'request.jwt.claim.sub': '', 'request.jwt.claims': JSON.stringify({ sub: BOB }) })).toBe(BOB);
    expect(await uidWith({ 'request.jwt.claims': '' })).toBeNull();
  });

  it("after a rollback on a reused connection, request.jwt.claims reads '' (not NULL)", async () => {
    const client = new pg.Client({ connectionString: env.template.url });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('request.jwt.claims', '{}', true)`);
      await client.query('rollback');
      const r = await client.query(`select current_setting('request.jwt.claims', true) as v`);
      expect(r.rows[0].v).toBe('');
    } finally {
      await client.end();
    }
  });
});
