/**
 * The request executor against real Postgres: every HTTP status path PostgREST v12.2 gives, the
 * row-security facts rules 5 and 6 rest on, Supabase's pg-safeupdate, and each request isolated
 * like its own transaction (settings of any name, deferred constraints, read-only mode), with
 * the request context Supabase gives (search_path, headers, JWT claims).
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
import { CaseTransaction, preRequestSql, requestMessage, VACUUM_EVERY, type RequestPlace } from './case-transaction.ts';
import { buildStatement } from './statement.ts';
import { inlineSql } from './sql-text.ts';
import type { SchemaCache } from './schema-cache.ts';
import { readTableShapes } from '../introspection/table-shapes.ts';

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

create table public.paired (id int primary key, phone text unique nulls not distinct, room text, day text, unique nulls not distinct (room, day), hall text, slot text);
create unique index paired_hall_slot on public.paired (hall, slot) nulls not distinct;

create extension if not exists citext with schema extensions;
create domain public.campus_email as extensions.citext;
create table public.mailbox (id int primary key, email public.campus_email, alias text);
create unique index mailbox_email_key on public.mailbox (email) where email is not null;
create unique index mailbox_alias_key on public.mailbox (alias) where alias <> '';

create table public.loop (id int primary key);
alter table public.loop enable row level security;
grant select on public.loop to authenticated;
create policy loop_select on public.loop for select to authenticated using (exists (select 1 from public.loop l2 where l2.id = loop.id));

create function public.boom() returns void language plpgsql as $$ begin raise exception 'BOOM'; end $$;
create function public.hello(p_name text) returns text language sql as $$ select 'hi ' || p_name $$;
create function public.noop() returns void language sql as $$ select $$;
create function public.request_time() returns timestamptz language sql volatile as $$ select now() $$;
create function public.things_of(p_owner uuid) returns setof public.things language sql security definer as $$ select * from public.things where owner = p_owner order by id $$;
create function public.seen() returns jsonb language sql as $$
  select jsonb_build_object('uid', auth.uid(), 'role', current_user, 'claims', current_setting('request.jwt.claims', true))
$$;

-- Point 1: a definer function that trusts the next write and forgets to clear the flag, a guard
-- that skips while it is set, and a setting of an arbitrary name.
create function public.trust_me() returns void language sql security definer as $$
  select set_config('app.vs_trusted', 'on', true), set_config('my.anything', 'leaked', true)
$$;
create function public.peek() returns jsonb language sql as $$
  select jsonb_build_object('trusted', current_setting('app.vs_trusted', true), 'anything', current_setting('my.anything', true),
    'search_path', current_setting('search_path'), 'headers', current_setting('request.headers', true)::jsonb,
    'claims', current_setting('request.jwt.claims', true)::jsonb)
$$;
create function public.guard_label() returns trigger language plpgsql as $$
begin
  if coalesce(current_setting('app.vs_trusted', true), '') <> 'on' and new.label is distinct from old.label and new.label like 'locked%' then
    raise exception 'guarded: labels starting with locked need the trusted path';
  end if;
  return new;
end $$;
create trigger things_guard before update on public.things for each row execute function public.guard_label();

-- Point 1: deferred constraints fire at the end of each request.
create table public.parents (id int primary key);
create table public.children (id int primary key, parent int references public.parents(id) deferrable initially deferred);
grant select, insert on public.parents, public.children to authenticated;
create function public.child_then_parent(p_id int) returns void language sql as $$
  insert into public.children values (p_id, p_id); insert into public.parents values (p_id);
$$;
-- Deferred only by the function itself (SET CONSTRAINTS … DEFERRED): still this request's to fire.
create table public.late_children (id int primary key, parent int references public.parents(id) deferrable initially immediate);
grant select, insert on public.late_children to authenticated;
create function public.defer_then_orphan(p_id int) returns void language plpgsql as $$
begin
  set constraints all deferred;
  insert into public.late_children values (p_id, 999);
end $$;

-- Point 3: STABLE functions (and GET) run read-only, even when a volatile callee writes.
create table public.audit (n int);
revoke all on public.audit from anon, authenticated;
grant insert on public.audit to authenticated;
create function public.write_audit() returns int language sql as $$ insert into public.audit values (1); select 1 $$;
create function public.stable_but_writes() returns int language sql stable as $$ select public.write_audit() $$;
create view public.audited with (security_invoker = true) as select public.write_audit() as n;
grant select on public.audited to authenticated;

-- Point 4: a NOT NULL domain column a PATCH does not name.
create domain public.nonblank as text not null check (value <> '');
create table public.notes (id int primary key, title public.nonblank, body text);
-- A domain over a domain (over a varchar and over an enum): read as the type under them all.
create domain public.short_code as varchar(8);
create domain public.ticket_code as public.short_code check (value ~ '^T');
create type public.mood as enum ('calm', 'cross');
create domain public.any_mood as public.mood;
create domain public.known_mood as public.any_mood not null;
create table public.coded (id int primary key, code public.ticket_code, mood public.known_mood);
-- A vocabulary kept as a domain's CHECK (stranger-app-5's app_role), and a column's own CHECK over it.
create domain public.app_role as text check (value in ('user', 'staff', 'admin'));
create table public.ranked (id int primary key, role public.app_role not null default 'user', lead public.app_role check (lead in ('staff', 'admin')));
grant select, update on public.notes to authenticated;

-- Point 5: a 21000 that is not pg-safeupdate's (a scalar subquery with several rows).
create function public.two_rows() returns int language sql security definer as $$ select (select id from public.things) $$;

-- PostgREST logs in as authenticator: supabase-custom-claims' is_claims_admin() trusts every other
-- session user (the SQL editor, a trigger) and reads the token's app_metadata otherwise.
create function public.claims_admin() returns boolean language plpgsql as $$
begin
  if session_user = 'authenticator' then
    return current_setting('request.jwt.claims', true)::jsonb ->> 'role' = 'service_role'
        or coalesce((current_setting('request.jwt.claims', true)::jsonb) -> 'app_metadata' -> 'claims_admin', 'false')::bool;
  end if;
  return true;
end $$;
create function public.who() returns text language sql as $$ select session_user || '/' || current_user $$;

-- Point 6: the same probe in a second exposed schema.
create schema passport;
grant usage on schema passport to anon, authenticated;
create function passport.peek() returns jsonb language sql as $$ select public.peek() $$;
grant execute on function passport.peek() to anon, authenticated;
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
  { table: 'notes', row: {}, sql: `insert into public.notes values (1, 'title', 'body')` },
];

type Step = [Caller, ApiRequest, { withoutToken?: boolean }?];

/** Runs requests in one case (fixtures, then each request as PostgREST would), then rolls back. */
async function sendOneByOne(steps: Step[]): Promise<ApiResponse[]> {
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

/** The same case with its requests planned in begin(): they are written with the fixtures, before any answer. */
async function sendPlanned(steps: Step[]): Promise<ApiResponse[]> {
  const tx = env.workers[0].tx;
  await tx.begin(FIXTURES, undefined, steps.map(([caller, request]) => ({ caller, request })));
  try {
    const out: ApiResponse[] = [];
    for (const [caller, request] of steps) out.push(await tx.send(caller, request));
    return out;
  } finally {
    await tx.end();
  }
}

/**
 * The same case run as the fuzz runs it (runPlanned): its last request, which the case's rollback
 * ends, is written without what only a next request needs (a lone request without a savepoint).
 */
async function sendRunPlanned(steps: Step[]): Promise<ApiResponse[]> {
  const tx = env.workers[0].tx;
  try {
    return await tx.runPlanned(FIXTURES, () => FIXTURES, steps.map(([caller, request]) => ({ caller, request })));
  } finally {
    await tx.flush();
  }
}

/** All three ways, which must answer alike (a request with options is only sent one by one). */
async function sequence(...steps: Step[]): Promise<ApiResponse[]> {
  const out = await sendOneByOne(steps);
  if (steps.every(([, , options]) => !options)) {
    expect(await sendPlanned(steps)).toEqual(out);
    expect(await sendRunPlanned(steps)).toEqual(out);
  }
  return out;
}

/** The text of every message `run` writes on the executor's connection (its final rollback included), into `texts` as they go. */
async function batchesOf(run: () => Promise<unknown>, texts: string[] = []): Promise<string[]> {
  const client = env.workers[0].client;
  const query = client.query;
  client.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    texts.push(typeof config === 'string' ? config : (config as { text: string }).text);
    return (query as (...a: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof client.query;
  try {
    await run();
    await env.workers[0].tx.flush();
  } finally {
    client.query = query;
  }
  return texts;
}
/**
 * How many messages `run` writes before it waits for any answer (its synchronous part: the
 * connection is pipelined), and how many in all (flush()'s rollback included).
 */
async function messagesWritten(run: () => Promise<unknown>): Promise<{ atOnce: number; all: number }> {
  const texts: string[] = [];
  let atOnce = 0;
  await batchesOf(() => {
    const running = run();
    atOnce = texts.length;
    return running;
  }, texts);
  return { atOnce, all: texts.length };
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
    const r = await one(alice, { kind: 'delete', table: 'things', filters: [{ column: 'id', op: 'gt', value: 0 }], returning: 'representation' });
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

  it('unknown table 404 with Postgres’ 42P01 (v12.2 has no PGRST205); unknown body column 400 PGRST204', async () => {
    expect(await one(alice, { kind: 'select', table: 'nope', columns: '*', filters: [] })).toMatchObject({ status: 404, error: { code: '42P01', message: 'relation "public.nope" does not exist' } });
    expect(await one(alice, { kind: 'update', table: 'nope', patch: { a: 1 }, filters: byId(1), returning: 'minimal' })).toMatchObject({ status: 404, error: { code: '42P01' } });
    // Parse analysis fails on the table before pg-safeupdate's hook would look for a WHERE.
    expect(await one(alice, { kind: 'delete', table: 'nope', filters: [], returning: 'minimal' })).toMatchObject({ status: 404, error: { code: '42P01' } });
    expect(await one(alice, { kind: 'insert', table: 'things', rows: [{ id: 5, nope: 1 }], returning: 'minimal' })).toMatchObject({ status: 400, error: { code: 'PGRST204' } });
  });

  it('infinite recursion in a policy: 500 42P17', async () => {
    expect(await one(alice, { kind: 'select', table: 'loop', columns: '*', filters: [] })).toMatchObject({ status: 500, error: { code: '42P17' } });
  });

  it('42501: 401 for the anon key (role anon) and for no token, 403 for any other role (PostgREST v12.2 AuthSpec)', async () => {
    const request: ApiRequest = { kind: 'select', table: 'things', columns: '*', filters: [] };
    expect(await one(anon, request)).toMatchObject({ status: 401, error: { code: '42501', message: 'permission denied for table things' } });
    expect(await one(anon, request, { withoutToken: true })).toMatchObject({ status: 401, error: { code: '42501' } });
    expect(await one(alice, { kind: 'select', table: 'audit', columns: '*', filters: [] })).toMatchObject({ status: 403, error: { code: '42501' } });
  });

  it('21000: 400 only for pg-safeupdate’s "requires a WHERE clause", 500 otherwise', async () => {
    expect(await one(alice, { kind: 'rpc', fn: 'two_rows', args: {} })).toMatchObject({ status: 500, error: { code: '21000', message: 'more than one row returned by a subquery used as an expression' } });
  });

  it('an unreadable filter literal: 400 22P02', async () => {
    expect(await one(alice, { kind: 'select', table: 'things', columns: '*', filters: [{ column: 'owner', op: 'eq', value: 'not-a-uuid' }] })).toMatchObject({ status: 400, error: { code: '22P02' } });
  });
});

describe('Supabase pg-safeupdate (point 2)', () => {
  it('an unfiltered PATCH or DELETE is refused with 21000 and 400, and changes nothing', async () => {
    const [patch, del, read] = await sequence(
      [alice, { kind: 'update', table: 'things', patch: { label: 'all' }, filters: [], returning: 'minimal' }],
      [alice, { kind: 'delete', table: 'things', filters: [], returning: 'representation' }],
      [alice, { kind: 'select', table: 'things', columns: ['label'], filters: [] }],
    );
    expect(patch).toMatchObject({ status: 400, error: { code: '21000', message: 'UPDATE requires a WHERE clause', hint: 'To update all rows, use "WHERE true" or similar.' } });
    expect(del).toMatchObject({ status: 400, error: { code: '21000', message: 'DELETE requires a WHERE clause' } });
    expect(read.body).toEqual([{ label: 'one' }]);
  });
});

describe('read-only requests (point 3)', () => {
  it('rpc to a STABLE function whose callee writes: 405 25006; the same write through a VOLATILE function: 200', async () => {
    expect(await one(alice, { kind: 'rpc', fn: 'stable_but_writes', args: {} })).toMatchObject({ status: 405, error: { code: '25006' } });
    expect(await one(alice, { kind: 'rpc', fn: 'write_audit', args: {} })).toMatchObject({ status: 200, body: 1 });
  });

  it('GET of a view that writes: 405 25006', async () => {
    expect(await one(alice, { kind: 'select', table: 'audited', columns: '*', filters: [] })).toMatchObject({ status: 405, error: { code: '25006' } });
  });
});

describe('write bodies read over the named columns only (point 4)', () => {
  it('a PATCH that does not name a NOT NULL domain column succeeds', async () => {
    const [patch, read] = await sequence(
      [alice, { kind: 'update', table: 'notes', patch: { body: 'new' }, filters: byId(1), returning: 'minimal' }],
      [alice, { kind: 'select', table: 'notes', columns: '*', filters: byId(1) }],
    );
    expect(patch).toEqual({ status: 204, body: null, affected: 1 });
    expect(read.body).toEqual([{ id: 1, title: 'title', body: 'new' }]);
  });
});

describe('table shapes of unique keys', () => {
  it('reads NULLS NOT DISTINCT (PG15+) off a unique constraint or index, one column or several', async () => {
    const paired = (await readTableShapes(env.workers[0].client, ['public'])).get('paired')!;
    expect(paired.find((c) => c.name === 'phone')!.uniqueIndexes).toEqual([{ name: 'paired_phone_key', fold: { lower: false, trim: false }, nullsNotDistinct: true }]);
    expect(paired.find((c) => c.name === 'room')!.uniqueTogether).toEqual([{ name: 'paired_room_day_key', columns: ['room', 'day'], nullsNotDistinct: true }]);
    expect(paired.find((c) => c.name === 'hall')!.uniqueTogether).toEqual([{ name: 'paired_hall_slot', columns: ['hall', 'slot'], nullsNotDistinct: true }]);
  });
});

describe('table shapes of unique indexes a real app writes (stranger-app-5)', () => {
  it('a partial index `where col is not null` is the plain one; on citext (through a domain) it folds case; another predicate is left to the database', async () => {
    const mailbox = (await readTableShapes(env.workers[0].client, ['public'])).get('mailbox')!;
    expect(mailbox.find((c) => c.name === 'email')!.uniqueIndexes).toEqual([{ name: 'mailbox_email_key', fold: { lower: true, trim: false } }]);
    expect(mailbox.find((c) => c.name === 'alias')!.uniqueIndexes).toBeUndefined();
  });
});

describe('table shapes of domain columns', () => {
  it("a domain's list CHECK is the column's vocabulary (init reads the roles off it: stranger-app-5 proposed no role list); the column's own CHECK comes first", async () => {
    const ranked = (await readTableShapes(env.workers[0].client, ['public'])).get('ranked')!;
    expect(ranked.filter((c) => c.name !== 'id').map((c) => ({ name: c.name, vocabulary: c.vocabulary, from: c.vocabularyConstraint }))).toEqual([
      { name: 'role', vocabulary: ['user', 'staff', 'admin'], from: 'app_role_check' },
      { name: 'lead', vocabulary: ['staff', 'admin'], from: 'ranked_lead_check' },
    ]);
  });

  it('a domain over a domain is read down to the type under them all, its enum labels too', async () => {
    const coded = (await readTableShapes(env.workers[0].client, ['public'])).get('coded')!;
    expect(coded.filter((c) => c.name !== 'id').map((c) => ({ name: c.name, type: c.type, enumLabels: c.enumLabels }))).toEqual([
      { name: 'code', type: 'character varying(8)', enumLabels: undefined },
      { name: 'mood', type: 'mood', enumLabels: ['calm', 'cross'] },
    ]);
  });
});

describe('each request ends like its own transaction (point 1)', () => {
  it('a transaction-local setting of any name that a function set is gone for the next request', async () => {
    const [trust, afterKeptCall, afterRead] = await sequence(
      [alice, { kind: 'rpc', fn: 'trust_me', args: {} }],
      [alice, { kind: 'rpc', fn: 'peek', args: {} }],
      [alice, { kind: 'rpc', fn: 'peek', args: {} }],
    );
    expect(trust.status).toBe(204);
    for (const r of [afterKeptCall, afterRead]) expect(r.body).toMatchObject({ trusted: '', anything: '' });
  });

  it('a guard that skips while the flag is set holds for a later PATCH of the same case', async () => {
    const [trust, patch, read] = await sequence(
      [alice, { kind: 'rpc', fn: 'trust_me', args: {} }],
      [alice, { kind: 'update', table: 'things', patch: { label: 'locked-1' }, filters: byId(1), returning: 'minimal' }],
      [alice, { kind: 'select', table: 'things', columns: ['label'], filters: byId(1) }],
    );
    expect(trust.status).toBe(204);
    expect(patch).toMatchObject({ status: 400, error: { code: 'P0001', message: 'guarded: labels starting with locked need the trusted path' } });
    expect(read.body).toEqual([{ label: 'one' }]);
  });

  it('but not in its time: now() is the case transaction\'s, the same for every request (model: student.ts historyOrders)', async () => {
    const [first, second] = await sendPlanned([[alice, { kind: 'rpc', fn: 'request_time', args: {} }], [alice, { kind: 'rpc', fn: 'request_time', args: {} }]]);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  it('deferred constraints fire at the end of the request, and are deferred again for the next one', async () => {
    const [orphan, ok, pair, read] = await sequence(
      [alice, { kind: 'insert', table: 'children', rows: [{ id: 1, parent: 99 }], returning: 'minimal' }],
      [alice, { kind: 'insert', table: 'parents', rows: [{ id: 5 }], returning: 'minimal' }],
      [alice, { kind: 'rpc', fn: 'child_then_parent', args: { p_id: 7 } }],
      [alice, { kind: 'select', table: 'children', columns: '*', filters: [] }],
    );
    expect(orphan).toMatchObject({ status: 409, error: { code: '23503' } });
    expect(ok.status).toBe(201);
    expect(pair.status).toBe(204);
    expect(read.body).toEqual([{ id: 7, parent: 7 }]);
  });

  it('a DEFERRABLE INITIALLY IMMEDIATE constraint a function defers fires at the end of that request too', async () => {
    const [orphan, read] = await sequence([alice, { kind: 'rpc', fn: 'defer_then_orphan', args: { p_id: 3 } }], [alice, { kind: 'select', table: 'late_children', columns: '*', filters: [] }]);
    expect(orphan).toMatchObject({ status: 409, error: { code: '23503' } });
    expect(read.body).toEqual([]);
  });

  it('a database with no DEFERRABLE constraint: a write ends without SET CONSTRAINTS ALL IMMEDIATE, which would do nothing there', () => {
    const request: ApiRequest = { kind: 'update', table: 'things', patch: { label: 'uno' }, filters: byId(1), returning: 'minimal' };
    const statement = buildStatement(request, env.cache);
    if ('refusal' in statement) throw new Error('the PATCH is sent');
    const message = (cache: SchemaCache, place: RequestPlace) => requestMessage(alice, request, statement, cache, {}, inlineSql, place);
    for (const place of [{ after: false, last: true }, { after: true, last: false }]) {
      expect(env.cache.noDeferrableConstraints).toBeUndefined();
      expect(message(env.cache, place)).toContain('; set constraints all immediate');
      expect(message({ ...env.cache, initiallyDeferred: [], noDeferrableConstraints: true }, place)).not.toContain('set constraints');
    }
  });
});

describe('the request context is Supabase’s (point 6)', () => {
  it('search_path is the target schema, then the extra search path (public, extensions)', async () => {
    const [pub, pass] = await sequence([alice, { kind: 'rpc', fn: 'peek', args: {} }], [alice, { kind: 'rpc', fn: 'peek', schema: 'passport', args: {} }]);
    expect((pub.body as { search_path: string }).search_path).toBe('"public", "extensions"');
    expect((pass.body as { search_path: string }).search_path).toBe('"passport", "public", "extensions"');
  });

  it('request.headers carries what supabase-js sends; the claims have Supabase’s access-token shape', async () => {
    const r = await one({ kind: 'user', id: ALICE, email: 'a@x' }, { kind: 'rpc', fn: 'peek', schema: 'passport', args: {} });
    const body = r.body as { headers: Record<string, string>; claims: Record<string, unknown> };
    expect(body.headers).toMatchObject({ 'content-type': 'application/json', 'content-profile': 'passport' });
    expect(body.headers.apikey.split('.')).toHaveLength(3);
    expect(JSON.parse(Buffer.from(body.headers.apikey.split('.')[1], 'base64url').toString())).toMatchObject({ role: 'anon' });
    const bearer = body.headers.authorization.replace(/^Bearer /, '');
    expect(JSON.parse(Buffer.from(bearer.split('.')[1], 'base64url').toString())).toEqual(body.claims);
    expect(body.claims).toMatchObject({ sub: ALICE, role: 'authenticated', aud: 'authenticated', email: 'a@x', phone: '', aal: 'aal1', is_anonymous: false, app_metadata: { provider: 'email' }, user_metadata: {} });
    expect(body.claims.exp as number).toBeGreaterThan(Date.now() / 1000);
    expect(body.claims.session_id).toMatch(/^[0-9a-f-]{36}$/);
    const write = await one(alice, { kind: 'update', table: 'things', patch: { label: 'x' }, filters: byId(1), returning: 'representation' });
    expect(write.status).toBe(200);
  });

  it('an anonymous sign-in user is role authenticated with is_anonymous true', async () => {
    const r = await one({ kind: 'user', id: BOB, isAnonymous: true }, { kind: 'rpc', fn: 'peek', args: {} });
    expect((r.body as { claims: unknown }).claims).toMatchObject({ sub: BOB, role: 'authenticated', is_anonymous: true, email: '', app_metadata: { provider: 'anonymous' } });
  });
});

describe('the session user is PostgREST\'s authenticator', () => {
  it('a function trusting any other session user (custom claims: is_claims_admin) reads the token for every request, a kept write\'s next one too', async () => {
    const admin: Caller = { kind: 'user', id: BOB, appMetadata: { claims_admin: true } };
    const call = (fn: string): ApiRequest => ({ kind: 'rpc', fn, args: {} });
    const answers = await sequence(
      [anon, call('claims_admin')],
      [alice, call('claims_admin')],
      [admin, call('claims_admin')],
      [alice, { kind: 'update', table: 'things', patch: { label: 'uno' }, filters: byId(1), returning: 'minimal' }],
      [alice, call('claims_admin')],
      [{ kind: 'service' }, call('claims_admin')],
      [anon, call('who')],
    );
    expect(answers.map((r) => r.body)).toEqual([false, false, true, null, false, true, 'authenticator/anon']);
    // The case's rollback ends it: the server's own statements run as the connection's user again.
    const { rows } = await env.workers[0].client.query<{ u: string }>('select session_user as u');
    expect(rows[0].u).not.toBe('authenticator');
    // A psql repro, run by whoever reproduces it, switches only where its user may (Supabase's postgres is no superuser).
    expect(preRequestSql(anon, call('who'), env.cache, { portableSessionUser: true })).toContain(
      "set_config('session_authorization', case when (select rolsuper from pg_roles where rolname = session_user) then 'authenticator' else session_user::text end, true)",
    );
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
      const body = r.body as { uid: string | null; role: string; claims: string };
      expect({ uid: body.uid, role: body.role }).toEqual({ uid: null, role: 'anon' });
      expect(JSON.parse(body.claims)).toMatchObject({ role: 'anon', iss: 'supabase' });
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

describe('requests planned in begin() are written with the fixtures (the first in their message), each its own message', () => {
  const patchOk: Step = [alice, { kind: 'update', table: 'things', patch: { label: 'uno' }, filters: byId(1), returning: 'minimal' }];
  const boom: Step = [alice, { kind: 'rpc', fn: 'boom', args: {} }];
  const readThings: Step = [alice, { kind: 'select', table: 'things', columns: ['label'], filters: [] }];

  it('all succeeding: the fixtures and every request written before any answer (one round trip), the first request in the fixtures\' message, the same answers as one by one', async () => {
    await env.workers[0].tx.flush();
    const steps = [patchOk, readThings, [alice, { kind: 'rpc', fn: 'hello', args: { p_name: 'x' } }] as Step];
    expect(await messagesWritten(() => sendPlanned(steps))).toEqual({ atOnce: 3, all: 4 }); // then flush()'s rollback
    expect(await messagesWritten(() => sendOneByOne(steps))).toEqual({ atOnce: 1, all: 5 });
    expect(await sendPlanned(steps)).toEqual(await sendOneByOne(steps));
  });

  it('a failing request gets the failure and ends only its own message: the requests after it still run, still written at once', async () => {
    const steps = [patchOk, boom, readThings, readThings];
    expect(await messagesWritten(() => sendPlanned(steps))).toEqual({ atOnce: 4, all: 5 });
    const answers = await sendPlanned(steps);
    expect(answers[1]).toMatchObject({ status: 400, error: { code: 'P0001', message: 'BOOM' } });
    expect(answers[2].body).toEqual(expect.arrayContaining([{ label: 'uno' }]));
    expect(answers).toEqual(await sendOneByOne(steps));
  });

  it('a deferred constraint failing at the end of a planned request is that request’s failure', async () => {
    const steps: Step[] = [
      [alice, { kind: 'insert', table: 'parents', rows: [{ id: 5 }], returning: 'minimal' }],
      [alice, { kind: 'insert', table: 'children', rows: [{ id: 1, parent: 99 }], returning: 'minimal' }],
      [alice, { kind: 'select', table: 'children', columns: '*', filters: [] }],
    ];
    const answers = await sequence(...steps);
    expect(answers.map((a) => a.status)).toEqual([201, 409, 200]);
  });

  it('a request PostgREST refuses itself is answered without the database; the rest are still written at once', async () => {
    const steps: Step[] = [patchOk, [alice, { kind: 'update', table: 'things', patch: { nope: 1 }, filters: byId(1), returning: 'minimal' }], readThings];
    expect(await messagesWritten(() => sendPlanned(steps))).toEqual({ atOnce: 2, all: 3 });
    const answers = await sequence(...steps);
    expect(answers[1]).toMatchObject({ status: 400, error: { code: 'PGRST204' } });
    expect(answers[2].body).toEqual(expect.arrayContaining([{ label: 'uno' }]));
  });

  it('a refused fixture is still named, with requests planned', async () => {
    const tx = env.workers[0].tx;
    const bad = [...FIXTURES, { table: 'things', row: { id: 1 }, sql: `insert into public.things values (1, null, 'dup')` }];
    await expect(tx.begin(bad, undefined, [patchOk].map(([caller, request]) => ({ caller, request })))).rejects.toThrow(/fixture for things refused: duplicate key/);
    await tx.end();
  });

  it("runPlanned: the case's last request, which the case's rollback ends, leaves out what only a next request needs; a lone one has no savepoint; a read's read-only mode is one of its settings", async () => {
    // From no prepared statement: each shape's first use is sent as text, values and all.
    await env.workers[0].tx.deallocatePrepared();
    // The first request's message opens with the case's own statements (the fixtures), each line one.
    const requestOf = (message: string) => message.split(';\n').at(-1)!;
    const [first, last] = await batchesOf(() => sendRunPlanned([patchOk, patchOk]));
    expect(first).toMatch(/^(rollback;\n)?begin;\ninsert into auth\.users /);
    expect(requestOf(first)).toMatch(/^savepoint pf_request; .*; set constraints all immediate; release savepoint pf_request; reset session authorization; reset role; reset all; (set constraints [^;]+ deferred; )?savepoint pf_request$/);
    expect(last).toMatch(/^rollback to savepoint pf_request; .*; set constraints all immediate$/);
    const [lone] = await batchesOf(() => sendRunPlanned([readThings]));
    expect(requestOf(lone)).not.toMatch(/savepoint|set local/);
    expect(lone).toContain(`set_config('transaction_read_only', 'on', true)`);
    // Each answers as one by one does (sequence() runs every case of this file the three ways).
    expect(await sendRunPlanned([patchOk, patchOk])).toEqual(await sendOneByOne([patchOk, patchOk]));
    const [orphan] = await sequence([alice, { kind: 'insert', table: 'children', rows: [{ id: 1, parent: 99 }], returning: 'minimal' }]);
    expect(orphan).toMatchObject({ status: 409, error: { code: '23503' } });
    const [refused] = await sequence(boom);
    expect(refused).toMatchObject({ status: 400, error: { code: 'P0001', message: 'BOOM' } });
  });

  it('runPlanned: the next case is written behind a case before any answer; each answers as it does alone', async () => {
    const tx = env.workers[0].tx;
    const planned = (steps: Step[]) => steps.map(([caller, request]) => ({ caller, request }));
    const first = [patchOk, readThings];
    const second = [readThings];
    const expected = [await sendOneByOne(first), await sendOneByOne(second)];
    let answers: ApiResponse[][] = [];
    const written = await messagesWritten(async () => {
      const a = tx.runPlanned(FIXTURES, () => FIXTURES, planned(first));
      const b = tx.runPlanned(FIXTURES, () => FIXTURES, planned(second));
      answers = await Promise.all([a, b]);
    });
    expect(written).toEqual({ atOnce: 3, all: 4 });
    // The second case starts with the first one's rollback: the PATCH it made is not seen.
    expect(answers).toEqual(expected);
    expect(answers[1][0].body).toEqual(expect.arrayContaining([{ label: 'one' }]));
  });

  it('a fixture refused by a guard in code (a trigger raising) names the function and its message, as a constraint is named', async () => {
    // After Capgo: a trigger on auth.mfa_factors raised on every verified factor the fixtures wrote;
    // with no constraint to name, the case was a harness error instead of a dropped case with its remedy.
    const tx = env.workers[0].tx;
    await tx.flush();
    const guarded = [...FIXTURES, { table: 'things', row: { id: 9 }, sql: `select public.boom()` }];
    const refused = tx.runPlanned(guarded, () => guarded, [{ caller: readThings[0], request: readThings[1] }]);
    await expect(refused).rejects.toMatchObject({ name: 'FixtureError', constraint: 'boom() raising "BOOM"' });
  });

  it('runPlanned: a refused fixture is named even with the next case already written behind it, which answers as alone', async () => {
    const tx = env.workers[0].tx;
    await tx.flush();
    const bad = [...FIXTURES, { table: 'things', row: { id: 1 }, sql: `insert into public.things values (1, null, 'dup')` }];
    const refused = tx.runPlanned(bad, () => bad, [{ caller: patchOk[0], request: patchOk[1] }]);
    const behind = tx.runPlanned(FIXTURES, () => FIXTURES, [{ caller: readThings[0], request: readThings[1] }]);
    await expect(refused).rejects.toThrow(/fixture for things refused: duplicate key/);
    expect(await behind).toEqual(await sendOneByOne([readThings]));
  });

  it('runPlanned: a connection that dies under a case is the harness’s error (not a refused fixture, not an answer), and the case behind it fails too', async () => {
    const { user, database, host, port, password } = (env.workers[0].client as unknown as { connectionParameters: pg.ClientConfig }).connectionParameters;
    const client = new pg.Client({ user, database, host, port, password, pipeline: true });
    client.on('error', () => {});
    await client.connect();
    const pid = (await client.query('select pg_backend_pid() as pid')).rows[0].pid;
    const tx = new CaseTransaction(client, env.cache);
    const slow = [{ table: 'things', row: {}, sql: 'select pg_sleep(5)' }];
    const planned = [{ caller: readThings[0], request: readThings[1] }];
    const dying = tx.runPlanned(slow, () => slow, planned);
    const behind = tx.runPlanned(FIXTURES, () => FIXTURES, planned);
    // Awaited as the runner awaits them (at once), so a rejection is never unhandled.
    const outcomes = Promise.all([dying, behind].map((p) => p.then(() => 'answered', (e: Error) => e.message)));
    const admin = new pg.Client({ connectionString: (await sharedServer()).adminUrl });
    await admin.connect();
    await admin.query('select pg_terminate_backend($1)', [pid]);
    await admin.end();
    const [first, second] = await outcomes;
    // Not a refused fixture row, not an answer to compare: the connection's end.
    expect(first).toMatch(/^the database connection ended: terminating connection due to administrator command \(57P01\)$/);
    expect(second).not.toBe('answered');
    await client.end().catch(() => {});
  });

  it('sending anything but the next planned request, while planned answers wait, is a harness error', async () => {
    const tx = env.workers[0].tx;
    const [caller, request] = patchOk;
    await tx.begin(FIXTURES, undefined, [{ caller, request }]);
    try {
      await expect(tx.send(caller, { ...request })).rejects.toThrow(/other than the next one planned/);
    } finally {
      await tx.end();
    }
  });
});

describe('request and fixture shapes are prepared per connection, as PostgREST prepares its queries', () => {
  const labelOf = (id: number, label: string): Step => [alice, { kind: 'update', table: 'things', patch: { label }, filters: byId(id), returning: 'representation' }];

  it('a shape runs as is the first time, is prepared the second, then only executed; every answer is the same', async () => {
    await env.workers[0].tx.deallocatePrepared();
    const answers: ApiResponse[][] = [];
    const sent = [];
    for (let k = 0; k < 3; k++) sent.push(await batchesOf(async () => answers.push(await sendOneByOne([labelOf(1, `label ${k}`)]))));
    expect(sent[0].join()).not.toMatch(/prepare pf_|execute pf_/);
    expect(sent[1].join()).toMatch(/prepare pf_\d+ as with pgrst_source as \(update "public"\."things" set "label" = pgrst_body\."label" from \(select \* from json_to_recordset\(\$1::json\)/);
    expect(sent[2].join()).not.toMatch(/prepare pf_/);
    expect(sent[2].join()).toMatch(/execute pf_\d+\('\[\{"label":"label 2"\}\]', '1'\)/);
    expect(answers.map((a) => a[0])).toEqual([0, 1, 2].map((k) => ({ status: 200, body: [{ id: 1, owner: ALICE, label: `label ${k}` }], affected: 1 })));
  });

  it('a read sent by callers of two roles in turn is prepared once per role: each executes its own statement', async () => {
    await env.workers[0].tx.deallocatePrepared();
    const sent: string[] = [];
    for (let k = 0; k < 3; k++) for (const caller of [alice, anon]) sent.push((await batchesOf(() => sendOneByOne([[caller, readThingsRequest]]))).join());
    // The read's statement: the one naming the table (the settings statement, the same for both roles, is prepared apart).
    const readPrepared = (text: string) => [...text.matchAll(/prepare (pf_\d+) as [^;]*"public"\."things"/g)].map((m) => m[1]);
    expect(sent.slice(0, 2).map(readPrepared)).toEqual([[], []]);
    const [authenticatedRead, anonRead] = sent.slice(2, 4).map(readPrepared).map((names) => names[0]);
    expect(authenticatedRead).toMatch(/^pf_\d+$/);
    expect(anonRead).toMatch(/^pf_\d+$/);
    expect(anonRead).not.toBe(authenticatedRead);
    expect(sent.slice(4).map(readPrepared)).toEqual([[], []]);
    const executes = (text: string, name: string) => new RegExp(`execute ${name}(?!\\d)`).test(text);
    expect([executes(sent[4], authenticatedRead), executes(sent[4], anonRead)]).toEqual([true, false]);
    expect([executes(sent[5], authenticatedRead), executes(sent[5], anonRead)]).toEqual([false, true]);
  });

  it('errors are the same prepared or not: a bad filter value (22P02 at EXECUTE), an unknown table (42P01 at PREPARE)', async () => {
    const badUuid: Step = [alice, { kind: 'select', table: 'things', columns: '*', filters: [{ column: 'owner', op: 'eq', value: 'not-a-uuid' }] }];
    const noTable: Step = [alice, { kind: 'select', table: 'nowhere', columns: '*', filters: [] }];
    for (const step of [badUuid, noTable]) {
      await env.workers[0].tx.deallocatePrepared();
      const answers = [];
      for (let k = 0; k < 3; k++) answers.push((await sendOneByOne([step]))[0]);
      expect(answers[0].status).toBeGreaterThanOrEqual(400);
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
    }
  });

  it('a PREPARE that did not run (its batch failed before it) is sent again with the next use', async () => {
    await env.workers[0].tx.deallocatePrepared();
    const boom: Step = [alice, { kind: 'rpc', fn: 'boom', args: {} }];
    await sendOneByOne([labelOf(1, 'seen once')]);
    // Second use of the shape, planned after a failing request: its PREPARE is in the part of the batch that never ran.
    const answers = await sendPlanned([boom, labelOf(1, 'after boom')]);
    expect(answers[0]).toMatchObject({ status: 400, error: { message: 'BOOM' } });
    expect(answers[1]).toMatchObject({ status: 200, body: [{ id: 1, label: 'after boom' }] });
    const again = await batchesOf(() => sendOneByOne([labelOf(1, 'third')]));
    expect(again.join()).toMatch(/execute pf_/);
  });

  it('fixture inserts are prepared the same way, with their rows as the parameter', async () => {
    await env.workers[0].tx.deallocatePrepared();
    const { fixtureStatements } = await import('../target/fixtures.ts');
    const world = { 'auth.users': [{ id: ALICE, email: 'a@x' }], things: [{ id: 7, owner: ALICE, label: 'seven' }] };
    const tx = env.workers[0].tx;
    const sent: string[][] = [];
    for (let k = 0; k < 3; k++) {
      sent.push(
        await batchesOf(async () => {
          await tx.begin(fixtureStatements(world, ['auth.users', 'things']), undefined, [{ caller: alice, request: readThingsRequest }]);
          expect((await tx.send(alice, readThingsRequest)).body).toEqual([{ id: 7, owner: ALICE, label: 'seven' }]);
          await tx.end();
        }),
      );
    }
    expect(sent[1].join()).toMatch(/prepare pf_\d+ as insert into "public"\."things" \("id", "owner", "label"\) select r\."id", r\."owner", r\."label" from json_populate_recordset\(null::"public"\."things", \$1::json\) r/);
    expect(sent[2].join()).toMatch(/execute pf_\d+\('\[\{"id":7,"owner":"aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa","label":"seven"\}\]'\)/);
  });
});

const readThingsRequest: ApiRequest = { kind: 'select', table: 'things', columns: '*', filters: [] };

describe('rolled-back rows are vacuumed away', () => {
  it(`every ${VACUUM_EVERY} cases, between two cases, the tables those cases wrote are vacuumed (and nothing else)`, async () => {
    const { fixtureStatements } = await import('../target/fixtures.ts');
    await env.workers[0].tx.flush();
    // A transaction of its own on the worker's connection: no case of an earlier test counts or wrote a table.
    const tx = new CaseTransaction(env.workers[0].client, env.cache);
    const sent = await batchesOf(async () => {
      for (let k = 0; k < VACUUM_EVERY + 1; k++) {
        await tx.begin(fixtureStatements({ 'auth.users': [{ id: ALICE, email: 'a@x' }], things: [{ id: 100 + k, owner: ALICE, label: `n${k}` }] }, ['auth.users', 'things']));
        await tx.end();
      }
      await tx.flush();
    });
    const vacuums = sent.filter((t) => t.startsWith('vacuum'));
    expect(vacuums).toEqual(['vacuum "auth"."users", "public"."things"']);
    // Sent on its own, after the previous case's rollback: VACUUM cannot run inside a transaction.
    expect(sent[sent.indexOf(vacuums[0]) - 1]).toBe('rollback');
  });
});

describe("a case's rows never outlive its rollback (stranger-app-9: a fixture row of an earlier case seen by later ones)", () => {
  // Its fixtures refused as a batch (a duplicate key), accepted row by row: the case takes the
  // per-row path, which writes each row as its own statement after the batch's answer came back.
  const refusedAsBatch = [...FIXTURES, { table: 'things', row: { id: 1 }, sql: `insert into public.things values (1, null, 'dup')` }];
  const rowByRow = [
    { table: '(pause)', row: null, sql: 'select pg_sleep(0.2)' },
    { table: 'things', row: { id: 41 }, sql: `insert into public.things values (41, '${ALICE}', 'left behind')` },
  ];
  const committedRow41 = async () => {
    const client = new pg.Client({ connectionString: env.template.url.replace(/\/[^/?]*(\?|$)/, `/${env.workers[0].client.database}$1`) });
    await client.connect();
    try {
      return (await client.query<{ n: number }>('select count(*)::int as n from public.things where id = 41')).rows[0].n;
    } finally {
      // Never left for the other tests, whatever this one found.
      await client.query('delete from public.things where id = 41');
      await client.end();
    }
  };

  it('flush() arriving while a case writes its fixtures row by row waits for the case to end: the next case on the connection sees none of its rows, and none was committed', async () => {
    const tx = env.workers[0].tx;
    await tx.flush();
    let askedPerRow!: () => void;
    const perRowAsked = new Promise<void>((resolve) => (askedPerRow = resolve));
    const perRow = () => {
      askedPerRow();
      return rowByRow;
    };
    // A case whose caller stopped waiting for it, as fast-check's time limit raced a shrink's
    // case: it goes on writing, and ends when it is done. The shrink then flushed the connection.
    const abandoned = tx.begin(refusedAsBatch, perRow).finally(() => tx.end());
    await perRowAsked;
    await tx.flush();
    // Its own outcome is no one's: its caller stopped waiting for it.
    await abandoned.catch(() => {});
    await tx.begin([]);
    let seen: ApiResponse;
    try {
      seen = await tx.send(alice, readThingsRequest);
    } finally {
      await tx.end();
    }
    const committed = await committedRow41();
    expect(seen).toMatchObject({ status: 200, body: [] });
    expect(committed).toBe(0);
  });

  it('a case opened (or run planned) while another is still open is refused before anything of it is written; the open case goes on unharmed', async () => {
    const tx = env.workers[0].tx;
    await tx.flush();
    await tx.begin(FIXTURES);
    try {
      const sent = await batchesOf(async () => {
        await expect(tx.begin([])).rejects.toThrow(/^harness: a case was opened while a case opened with begin\(\) was still open/);
        await expect(tx.runPlanned([], () => [], [{ caller: alice, request: readThingsRequest }])).rejects.toThrow(/^harness: a planned case was run while/);
        expect(await tx.send(alice, readThingsRequest)).toMatchObject({ status: 200, body: [{ id: 1, label: 'one' }] });
      });
      // Only the open case's own request (and batchesOf's flush, after its end below) reached the connection.
      expect(sent.filter((t) => /begin|insert/.test(t))).toEqual([]);
    } finally {
      await tx.end();
    }
  });
});
