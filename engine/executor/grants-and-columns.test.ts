/**
 * Privileges as Supabase has them, against real Postgres and the model:
 * - the API roles INHERIT (supabase/postgres migrations/db/migrations/20230529180330_alter_api_roles_for_inherit.sql):
 *   a table granted to a group role `authenticated` belongs to is readable;
 * - column lists (`select=`) on reads and on writes with return=representation, as PostgREST
 *   v12.2 writes them (src/PostgREST/Plan.hs inferColsEmbedNeeds: the select's columns plus the
 *   primary key; src/PostgREST/Query/SqlFragment.hs returningF: `RETURNING "s"."t"."c", …` or
 *   `RETURNING 1`; Statements.hs prepareWrite: the body read back through the select), so a table
 *   hiding a column with column-level grants answers a write with `select=id` (the model agreeing),
 *   and refuses, as the model predicts, only a request that asks for the hidden column.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHeaderOf, type Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import type { TableModel } from '../model/table-model.ts';
import { predictTableRequest } from '../model/engine.ts';
import { compareOutcomes } from '../checker/compare.ts';
import { observedOutcome } from '../checker/observe.ts';
import type { Environment } from '../runner/environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';
import { buildStatement } from './statement.ts';

const ALICE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const alice: Caller = { kind: 'user', id: ALICE };

const SCHEMA = `
do $$ begin
  if not exists (select 1 from pg_roles where rolname = 'pf_test_shelf_readers') then create role pf_test_shelf_readers nologin; end if;
end $$;
grant pf_test_shelf_readers to authenticated;
create table public.shelf (id int primary key);
revoke all on public.shelf from anon, authenticated;
grant select on public.shelf to pf_test_shelf_readers;

create table public.cards (id int primary key, title text, secret text);
alter table public.cards enable row level security;
create policy cards_all on public.cards for all to authenticated using (true) with check (true);
revoke all on public.cards from anon, authenticated;
grant insert, update, delete on public.cards to authenticated;
grant select (id, title) on public.cards to authenticated;

-- As TypeCell keeps a document's id and owner fixed: UPDATE only on the columns one may edit.
create table public.docs (id int primary key, owner uuid, body text);
alter table public.docs enable row level security;
create policy docs_all on public.docs for all to authenticated using (true) with check (true);
revoke update on public.docs from authenticated;
grant update (body) on public.docs to authenticated;

-- As feedbase reads a project API key from a header its clients send (a definer function checks it).
create table public.keys (token text primary key, permission text not null);
insert into public.keys values ('full-1', 'full_access'), ('public-1', 'public_access');
create function public.is_allowed_api_token(apitoken text, wanted text[]) returns boolean language sql security definer set search_path = '' as
  $f$ select exists (select 1 from public.keys where token = apitoken and permission = any (wanted)) $f$;
create table public.changelogs (id int primary key, title text);
alter table public.changelogs enable row level security;
create policy "Allow API Access" on public.changelogs for all to public
  using (public.is_allowed_api_token(current_setting('request.headers', true)::json ->> 'lumkey', '{full_access}'))
  with check (public.is_allowed_api_token(current_setting('request.headers', true)::json ->> 'lumkey', '{full_access}'));
`;

const cards: TableModel = {
  table: 'cards',
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'title', type: 'text', nullable: true },
    { name: 'secret', type: 'text', nullable: true },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['insert', 'update', 'delete'], columnSelect: { authenticated: ['id', 'title'] } },
  rowSecurity: true,
  rules: { select: () => true, insertCheck: () => true, updateUsing: () => true, updateCheck: () => true, deleteUsing: () => true },
};
const world = { cards: [{ id: 1, title: 'one', secret: 's1' }] };
const FIXTURES = [{ table: 'cards', row: {}, sql: `insert into public.cards values (1, 'one', 's1')` }];

let env: Environment;
beforeAll(async () => {
  env = await sqlEnvironment('grants', SCHEMA);
});
afterAll(() => env?.close());

const send = async (request: ApiRequest) => (await runCase(env, FIXTURES, [{ caller: alice, request }]))[0];

/** The database's answer, and whether the model predicted it. */
async function agreed(request: Exclude<ApiRequest, { kind: 'rpc' }>) {
  const response = await send(request);
  const predicted = predictTableRequest(cards, world, alice, request, undefined).outcome;
  return { response, predicted, disagreement: compareOutcomes(predicted, observedOutcome(request, response)) };
}

const byId = [{ column: 'id', op: 'eq' as const, value: 1 }];

describe('the API roles inherit, as on Supabase', () => {
  it('a table granted only to a group role authenticated is a member of is readable', async () => {
    const r = await send({ kind: 'select', table: 'shelf', columns: '*', filters: [] });
    expect(r).toMatchObject({ status: 200, body: [] });
  });
});

describe('column lists on writes and reads (column-level grants)', () => {
  it('RETURNING is the select= columns plus the primary key, in name order, read back through the select (Plan.hs, SqlFragment.hs returningF)', () => {
    const s = buildStatement({ kind: 'insert', table: 'cards', rows: [{ id: 2, title: 't' }], returning: 'representation', columns: ['title'] }, env.cache);
    expect('query' in s && s.query.marked).toMatch(/returning "public"\."cards"\."id", "public"\."cards"\."title"\) .* from \(select pgrst_source\."title" from pgrst_source\) _postgrest_t$/);
    const minimal = buildStatement({ kind: 'delete', table: 'cards', filters: byId, returning: 'minimal', columns: ['title'] }, env.cache);
    expect('query' in minimal && minimal.query.marked).toMatch(/returning 1\)/);
  });

  it('a write with select=id answers as the model predicts; select=* (every column) is refused by the grant, as predicted', async () => {
    const insert: Exclude<ApiRequest, { kind: 'rpc' }> = { kind: 'insert', table: 'cards', rows: [{ id: 2, title: 'two', secret: 's2' }], returning: 'representation', columns: ['id'] };
    const ok = await agreed(insert);
    expect(ok.response).toMatchObject({ status: 201, body: [{ id: 2 }] });
    expect(ok.disagreement).toBeUndefined();
    const all = await agreed({ ...insert, columns: undefined });
    expect(all.response.status).toBe(403);
    expect(all.predicted).toMatchObject({ kind: 'rejected', by: 'grant' });
    expect(all.disagreement).toBeUndefined();
  });

  it('asking for the hidden column is refused as predicted, on writes and reads; the visible ones are answered', async () => {
    const cases: [Exclude<ApiRequest, { kind: 'rpc' }>, number][] = [
      [{ kind: 'update', table: 'cards', patch: { secret: 'x' }, filters: byId, returning: 'representation', columns: ['id', 'title'] }, 200],
      [{ kind: 'update', table: 'cards', patch: { secret: 'x' }, filters: byId, returning: 'representation', columns: ['secret'] }, 403],
      [{ kind: 'delete', table: 'cards', filters: byId, returning: 'representation', columns: ['title'] }, 200],
      [{ kind: 'delete', table: 'cards', filters: byId, returning: 'representation', columns: ['secret'] }, 403],
      [{ kind: 'select', table: 'cards', columns: ['id', 'title'], filters: byId }, 200],
      [{ kind: 'select', table: 'cards', columns: ['id'], filters: [{ column: 'secret', op: 'eq', value: 's1' }] }, 403],
      [{ kind: 'select', table: 'cards', columns: '*', filters: [] }, 403],
    ];
    for (const [request, status] of cases) {
      const r = await agreed(request);
      expect(r.response.status, JSON.stringify(request)).toBe(status);
      expect(r.disagreement, JSON.stringify(request)).toBeUndefined();
    }
  });
});

describe('column-level UPDATE grants', () => {
  // After TypeCell (`revoke update on documents …; grant update (data, public_access_level, updated_at)`):
  // the model had no way to say it, and every PATCH of an editable column was a false alarm (42501 predicted).
  const docs: TableModel = {
    table: 'docs',
    columns: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'owner', type: 'uuid', nullable: true },
      { name: 'body', type: 'text', nullable: true },
    ],
    primaryKey: ['id'],
    grants: { anon: [], authenticated: ['select', 'insert', 'delete'], columnUpdate: { authenticated: ['body'] } },
    rowSecurity: true,
    rules: { select: () => true, updateUsing: () => true, updateCheck: () => true },
  };
  const fixtures = [{ table: 'docs', row: {}, sql: `insert into public.docs values (1, '${ALICE}', 'one')` }];
  it('a PATCH of a granted column is answered, one of any other column refused (42501), as the model predicts', async () => {
    for (const [patch, status] of [[{ body: 'two' }, 204], [{ owner: null }, 403], [{ body: 'two', owner: null }, 403]] as const) {
      const request: Exclude<ApiRequest, { kind: 'rpc' }> = { kind: 'update', table: 'docs', patch, filters: byId, returning: 'minimal' };
      const response = (await runCase(env, fixtures, [{ caller: alice, request }]))[0];
      const predicted = predictTableRequest(docs, { docs: [{ id: 1, owner: ALICE, body: 'one' }] }, alice, request, undefined).outcome;
      expect(response.status, JSON.stringify(patch)).toBe(status);
      expect(compareOutcomes(predicted, observedOutcome(request, response)), JSON.stringify(patch)).toBeUndefined();
    }
  });
});

describe('a policy reading a header the client sends (a project API key)', () => {
  const changelogs: TableModel = {
    table: 'changelogs',
    columns: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'title', type: 'text', nullable: true },
    ],
    primaryKey: ['id'],
    grants: { anon: ['select', 'insert', 'update', 'delete'], authenticated: ['select', 'insert', 'update', 'delete'] },
    rowSecurity: true,
    rules: { select: (_row, ctx) => requestHeaderOf(ctx.caller, 'lumkey') === 'full-1' },
  };
  const fixtures = [{ table: 'changelogs', row: {}, sql: `insert into public.changelogs values (1, 'v1')` }];
  const read: ApiRequest = { kind: 'select', table: 'changelogs', columns: '*', filters: [] };

  // Before callers could carry headers, feedbase's eight API-key policies could be met only on their deny side.
  it('reaches the rows with the full-access key, none with a public key or none; as the model predicts from the caller', async () => {
    for (const [caller, rows] of [
      [{ kind: 'anon', headers: { lumkey: 'full-1' } }, 1],
      [{ kind: 'user', id: ALICE, headers: { LumKey: 'full-1' } }, 1],
      [{ kind: 'anon', headers: { lumkey: 'public-1' } }, 0],
      [{ kind: 'anon' }, 0],
    ] as [Caller, number][]) {
      const [response] = await runCase(env, fixtures, [{ caller, request: read }]);
      expect((response.body as unknown[]).length, JSON.stringify(caller)).toBe(rows);
      const predicted = predictTableRequest(changelogs, { changelogs: [{ id: 1, title: 'v1' }] }, caller, read, undefined).outcome;
      expect(compareOutcomes(predicted, observedOutcome(read, response)), JSON.stringify(caller)).toBeUndefined();
    }
  });
});
