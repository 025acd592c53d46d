/**
 * Other request forms real Supabase clients send, as PostgREST v12.2 runs them, against Postgres
 * and the model:
 * - a PATCH with an empty body `{}`: no UPDATE, but `SELECT <returnings, or NULL> FROM t WHERE
 *   false` (src/PostgREST/Query/QueryBuilder.hs mutatePlanToQuery Update, `null uCols`, lines
 *   136-140 at v12.2.12): filters left out, no UPDATE privilege needed, SELECT on the table (or a
 *   column) needed, nothing touched;
 * - `Prefer: return=headers-only`: no body (201 for an insert, 204 otherwise: Response.hs), but
 *   the statement RETURNs the columns as for representation (Plan.hs: returnings are empty only
 *   for return=minimal or none), so the new row must pass SELECT: 42501 where minimal succeeds;
 * - embedded resources (`select=*,cards(*)`): LATERAL subqueries under the caller's role, each
 *   table under its own row rules (QueryBuilder.hs lines 64-108 at v12.2.12);
 * - db-max-rows: LIMIT on every read node, embeds and rpc sets too, never on a write (Plan.hs
 *   treeRestrictRange, lines 453-459; SqlFragment.hs limitOffsetF, 482-487);
 * - GET rpc: arguments from the query string (text), and a read-only transaction whatever the
 *   function's volatility (src/PostgREST/Plan.hs callReadPlan txMode, lines 182-186): a VOLATILE
 *   function that writes fails with 25006 (405).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../model/caller.ts';
import { describeRequest, type ApiRequest, type Embed } from '../model/request.ts';
import type { TableModel } from '../model/table-model.ts';
import { predictTableRequest } from '../model/engine.ts';
import { compareOutcomes, embedOrderMask } from '../checker/compare.ts';
import { maskedColumns } from '../runner/check-case.ts';
import { observedOutcome } from '../checker/observe.ts';
import type { Environment } from '../runner/environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';
import { buildStatement } from './statement.ts';
import { loadSchemaCache } from './schema-cache.ts';
import { maxRowsCap, predict } from '../model/predict.ts';
import { allowed } from '../model/outcome.ts';
import type { FunctionModel } from '../model/function-model.ts';

const alice: Caller = { kind: 'user', id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' };
const anon: Caller = { kind: 'anon' };
const service: Caller = { kind: 'service' };

const SCHEMA = `
create table public.memos (id int primary key, owner text not null, v text);
alter table public.memos enable row level security;
create policy memos_read on public.memos for select to anon, authenticated using (true);
create policy memos_edit on public.memos for update to authenticated using (true);
revoke all on public.memos from anon, authenticated;
grant select on public.memos to authenticated;

create table public.drafts (id int primary key, owner text not null);
alter table public.drafts enable row level security;
create policy drafts_read on public.drafts for select to authenticated using (owner = 'me');
create policy drafts_add on public.drafts for insert to authenticated with check (true);
create policy drafts_edit on public.drafts for update to authenticated using (true) with check (true);
revoke all on public.drafts from anon, authenticated;
grant select, insert, update on public.drafts to authenticated;

create table public.boards (id int primary key, title text not null);
alter table public.boards enable row level security;
create policy boards_read on public.boards for select to authenticated using (true);
create table public.cards (id int primary key, board_id int references public.boards (id), owner text not null);
alter table public.cards enable row level security;
create policy cards_read on public.cards for select to authenticated using (owner = 'me');
revoke all on public.boards, public.cards from anon, authenticated;
grant select on public.boards, public.cards to authenticated;

-- A composite foreign key; a foreign key over a UNIQUE constraint (one-to-one) and over a unique index only (not a constraint: to-many).
create table public.teams (org int, id int, name text not null, primary key (org, id));
create table public.seats (id int primary key, org int not null, team int, owner text not null, rank int, foreign key (org, team) references public.teams (org, id));
create table public.badges (id int primary key, board_id int not null unique references public.boards (id), label text not null);
create table public.stickers (id int primary key, board_id int not null references public.boards (id), label text not null);
create unique index stickers_one_per_board on public.stickers (board_id);
alter table public.seats enable row level security;
create policy seats_read on public.seats for select to authenticated using (owner = 'me');
grant select on public.teams, public.seats, public.badges, public.stickers to authenticated;

-- Many-to-many through a junction whose two keys lie in its primary key (post_tags; post_links' do
-- not: no junction), a second relationship between posts and tags (cover_tag_id: PGRST201 without a
-- hint) and a self-referencing key (parent_id).
create table public.tags (id int primary key, name text not null);
create table public.posts (id int primary key, parent_id int references public.posts (id), cover_tag_id int references public.tags (id), title text not null, rank int);
create table public.post_tags (post_id int references public.posts (id), tag_id int references public.tags (id), tagger text not null, primary key (post_id, tag_id, tagger));
create table public.post_links (id int primary key, post_id int not null references public.posts (id), tag_id int not null references public.tags (id));
alter table public.tags enable row level security;
create policy tags_read on public.tags for select to authenticated using (name <> 'secret');
alter table public.post_tags enable row level security;
create policy post_tags_read on public.post_tags for select to authenticated using (tagger = 'me');
grant select on public.tags, public.posts, public.post_tags, public.post_links to authenticated;

-- A db-pre-request hook refusing anon: called after the request's role and claims are set.
create function public.refuse_anon() returns void language plpgsql as $$
begin
  if current_setting('request.jwt.claims', true)::jsonb ->> 'role' = 'anon' then
    raise exception 'anon may not call the API';
  end if;
end $$;
grant execute on function public.refuse_anon() to anon, authenticated;
`;
const drafts: TableModel = {
  table: 'drafts',
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'owner', type: 'text', nullable: false },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select', 'insert', 'update'] },
  rowSecurity: true,
  rules: { select: (r) => r.owner === 'me', insertCheck: () => true, updateUsing: () => true, updateCheck: () => true },
};
const memos: TableModel = {
  table: 'memos',
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'owner', type: 'text', nullable: false },
    { name: 'v', type: 'text', nullable: true },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select'] },
  rowSecurity: true,
  rules: { select: () => true, updateUsing: () => true, updateCheck: () => true },
};
const world = { memos: [{ id: 1, owner: 'me', v: 'a' }] };
const FIXTURES = [{ table: 'memos', row: {}, sql: `insert into public.memos values (1, 'me', 'a')` }];

let env: Environment;
beforeAll(async () => {
  env = await sqlEnvironment('forms', SCHEMA);
});
afterAll(() => env?.close());

type TableRequest = Exclude<ApiRequest, { kind: 'rpc' }>;
async function agreed(caller: Caller, request: TableRequest) {
  const [response] = await runCase(env, FIXTURES, [{ caller, request }]);
  const prediction = predictTableRequest(memos, world, caller, request, undefined);
  return { response, prediction, disagreement: compareOutcomes(prediction.outcome, observedOutcome(request, response)) };
}

describe('PATCH with an empty body', () => {
  it('is SELECT … FROM t WHERE false, the filters left out (QueryBuilder.hs)', () => {
    const s = buildStatement({ kind: 'update', table: 'memos', patch: {}, filters: [{ column: 'id', op: 'eq', value: 1 }], returning: 'representation', columns: ['v'] }, env.cache);
    expect('query' in s && s.query.marked).toMatch(/^with pgrst_source as \(select "memos"\."id", "memos"\."v" from "public"\."memos" where false\) /);
    const minimal = buildStatement({ kind: 'update', table: 'memos', patch: {}, filters: [], returning: 'minimal' }, env.cache);
    expect('query' in minimal && minimal.query.marked).toMatch(/^with pgrst_source as \(select null from "public"\."memos" where false\) /);
  });

  it('answers no row without the UPDATE grant, with no filter (no pg-safeupdate) or a filter on an unknown column, as predicted', async () => {
    for (const request of [
      { kind: 'update', table: 'memos', patch: {}, filters: [{ column: 'id', op: 'eq', value: 1 }], returning: 'representation' },
      { kind: 'update', table: 'memos', patch: {}, filters: [], returning: 'minimal' },
      { kind: 'update', table: 'memos', patch: {}, filters: [{ column: 'nope', op: 'eq', value: 1 }], returning: 'minimal' },
    ] as TableRequest[]) {
      const r = await agreed(alice, request);
      expect(r.response.error, JSON.stringify(request)).toBeUndefined();
      expect(r.response.affected).toBe(0);
      expect(r.disagreement, JSON.stringify(request)).toBeUndefined();
    }
  });

  it('needs SELECT on the table: anon (no grant) is refused by the grant, as predicted', async () => {
    const r = await agreed(anon, { kind: 'update', table: 'memos', patch: {}, filters: [{ column: 'id', op: 'eq', value: 1 }], returning: 'minimal' });
    expect(r.response.error?.code).toBe('42501');
    expect(r.prediction.outcome).toMatchObject({ kind: 'rejected', by: 'grant' });
    expect(r.disagreement).toBeUndefined();
  });

  it('touches no row', async () => {
    const [, after] = await runCase(env, FIXTURES, [
      { caller: alice, request: { kind: 'update', table: 'memos', patch: {}, filters: [{ column: 'id', op: 'eq', value: 1 }], returning: 'minimal' } },
      { caller: service, request: { kind: 'select', table: 'memos', columns: '*', filters: [] } },
    ]);
    expect(after.body).toEqual(world.memos);
  });
});

describe('Prefer: return=headers-only', () => {
  async function draft(request: TableRequest) {
    const [response] = await runCase(env, [{ table: 'drafts', row: {}, sql: `insert into public.drafts values (1, 'me')` }], [{ caller: alice, request }]);
    const prediction = predictTableRequest(drafts, { drafts: [{ id: 1, owner: 'me' }] }, alice, request, undefined);
    return { response, disagreement: compareOutcomes(prediction.outcome, observedOutcome(request, response)) };
  }

  it('RETURNs the columns (Plan.hs returnings), answers no body', () => {
    const s = buildStatement({ kind: 'insert', table: 'drafts', rows: [{ id: 2, owner: 'me' }], returning: 'headers-only' }, env.cache);
    expect('query' in s && s.query.marked).toMatch(/returning "public"\."drafts"\.\*\)/);
  });

  it("an insert of a row the caller cannot read back is refused as with representation (minimal: allowed); a readable one is 201 with no body; a PATCH 204", async () => {
    const hidden = await draft({ kind: 'insert', table: 'drafts', rows: [{ id: 2, owner: 'other' }], returning: 'headers-only' });
    expect(hidden.response.error).toMatchObject({ code: '42501', message: 'new row violates row-level security policy for table "drafts"' });
    expect(hidden.disagreement).toBeUndefined();
    const minimal = await draft({ kind: 'insert', table: 'drafts', rows: [{ id: 2, owner: 'other' }], returning: 'minimal' });
    expect(minimal.response.status).toBe(201);
    expect(minimal.disagreement).toBeUndefined();
    const mine = await draft({ kind: 'insert', table: 'drafts', rows: [{ id: 2, owner: 'me' }], returning: 'headers-only' });
    expect(mine.response).toMatchObject({ status: 201, body: null, affected: 1 });
    expect(mine.disagreement).toBeUndefined();
    const patch = await draft({ kind: 'update', table: 'drafts', patch: { owner: 'other' }, filters: [{ column: 'id', op: 'eq', value: 1 }], returning: 'headers-only' });
    expect(patch.response.error?.code).toBe('42501');
    expect(patch.disagreement).toBeUndefined();
    const kept = await draft({ kind: 'update', table: 'drafts', patch: { owner: 'me' }, filters: [{ column: 'id', op: 'eq', value: 1 }], returning: 'headers-only' });
    expect(kept.response).toMatchObject({ status: 204, body: null, affected: 1 });
    expect(kept.disagreement).toBeUndefined();
  });
});

describe('db-pre-request (Query.hs runPreReq)', () => {
  const read: TableRequest = { kind: 'select', table: 'memos', columns: '*', filters: [] };
  beforeAll(() => {
    env.cache.preRequest = 'public.refuse_anon';
  });
  afterAll(() => {
    delete env.cache.preRequest;
  });

  it("is called after the role and claims, before the statement: one that raises refuses the request with its SQLSTATE's status; a request it lets through is answered", async () => {
    const [asAnon, asUser] = await runCase(env, FIXTURES, [
      { caller: anon, request: read },
      { caller: alice, request: read },
    ]);
    // Without the hook, anon's read is refused by the grant (42501, 401): the hook's raise comes first.
    expect(asAnon).toMatchObject({ status: 400, error: { code: 'P0001', message: 'anon may not call the API' } });
    expect(asUser).toMatchObject({ status: 200, body: [{ id: 1, owner: 'me', v: 'a' }] });
    // Alone in a case run as the fuzz runs it (runPlanned, no savepoint): the answer is still the statement's after the hook's.
    try {
      expect(await env.workers[0].tx.runPlanned(FIXTURES, () => FIXTURES, [{ caller: alice, request: read }])).toEqual([asUser]);
    } finally {
      await env.workers[0].tx.flush();
    }
  });

  it("is read from the in-database config, the authenticator's pgrst.db_pre_request (the database's own setting wins)", async () => {
    // Its own connection to the worker's database: the worker's holds the case transaction open.
    const { host, port, user, password, database } = env.workers[0].client as unknown as { host: string; port: number; user: string; password?: string; database: string };
    const client = new pg.Client({ host, port, user, password, database });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`do $$ begin
        execute 'alter role authenticator set pgrst.db_pre_request = ''public.everywhere''';
        execute format('alter role authenticator in database %I set pgrst.db_pre_request = %L', current_database(), 'public.refuse_anon');
      end $$`);
      expect((await loadSchemaCache(client, ['public'])).preRequest).toBe('public.refuse_anon');
      // Undone: the server is shared with other test files.
      await client.query('rollback');
      expect((await loadSchemaCache(client, ['public'])).preRequest).toBeUndefined();
    } finally {
      await client.end();
    }
  });
});

describe('GET rpc (read-only transaction)', () => {
  const SQL_FNS = `
    create function public.add_memo(p_id int) returns void language sql volatile security definer set search_path = '' as $$ insert into public.memos values (p_id, 'me', 'x') $$;
    create function public.count_memos(p_min int) returns bigint language sql stable as $$ select count(*) from public.memos where id >= p_min $$;
    grant insert on public.memos to authenticated;
    grant execute on function public.add_memo(int), public.count_memos(int) to authenticated;
  `;
  const fns: Record<string, FunctionModel> = {
    add_memo: {
      name: 'add_memo',
      args: ['p_id'],
      executableBy: ['authenticated', 'service_role'],
      predict: (w, _c, args) => ({ outcome: allowed(null, 1), world: { ...w, memos: [...(w.memos ?? []), { id: args.p_id as number, owner: 'me', v: 'x' }] } }),
    },
    count_memos: {
      name: 'count_memos',
      args: ['p_min'],
      executableBy: ['authenticated', 'service_role'],
      predict: (w, _c, args) => ({ outcome: allowed([{ value: (w.memos ?? []).filter((m) => (m.id as number) >= (args.p_min as number)).length }], 1), world: w }),
    },
  };
  const oracle = { model: { tables: { memos }, functions: fns, fixtureOrder: ['memos'] }, settings: undefined };
  let fenv: Environment;
  beforeAll(async () => {
    fenv = await sqlEnvironment('forms-rpc', SCHEMA + SQL_FNS);
  });
  afterAll(() => fenv?.close());

  async function call(request: Extract<ApiRequest, { kind: 'rpc' }>) {
    const [response] = await runCase(fenv, FIXTURES, [{ caller: alice, request }]);
    const prediction = predict(oracle, world, alice, request);
    return { response, prediction, disagreement: compareOutcomes(prediction.outcome, observedOutcome(request, response)) };
  }

  it('a VOLATILE function that writes: POST writes; GET fails with 25006 (405), as the model predicts from the write', async () => {
    const post = await call({ kind: 'rpc', fn: 'add_memo', args: { p_id: 5 } });
    expect(post.response.status).toBe(204);
    expect(post.disagreement).toBeUndefined();
    const get = await call({ kind: 'rpc', fn: 'add_memo', args: { p_id: 5 }, get: true });
    expect(get.response).toMatchObject({ status: 405, error: { code: '25006', message: 'cannot execute INSERT in a read-only transaction' } });
    expect(get.prediction.outcome).toMatchObject({ kind: 'error', code: '25006' });
    expect(get.disagreement).toBeUndefined();
  });

  it('a read by GET takes its arguments as text (query parameters), answers as by POST', async () => {
    const s = buildStatement({ kind: 'rpc', fn: 'count_memos', args: { p_min: 1 }, get: true }, fenv.cache);
    expect('query' in s && s.readOnly).toBe(true);
    expect('query' in s && s.query.params).toContain('{"p_min":"1"}');
    const get = await call({ kind: 'rpc', fn: 'count_memos', args: { p_min: 1 }, get: true });
    expect(get.response).toMatchObject({ status: 200, body: 1 });
    expect(get.disagreement).toBeUndefined();
  });
});

describe("the API roles' statement_timeout, as on Supabase", () => {
  let tenv: Environment;
  beforeAll(async () => {
    tenv = await sqlEnvironment(
      'forms-timeout',
      `create function public.timeout_now() returns text language sql stable as $$ select current_setting('statement_timeout') $$;
       grant execute on function public.timeout_now() to anon, authenticated;`,
    );
  });
  afterAll(() => tenv?.close());

  it('anon runs under 3s, authenticated under 8s: the role settings PostgREST applies per request (Query.hs setPgLocals)', async () => {
    const request: ApiRequest = { kind: 'rpc', fn: 'timeout_now', args: {} };
    const [asAnon, asUser, after] = await runCase(tenv, [], [
      { caller: anon, request },
      { caller: alice, request },
      { caller: service, request },
    ]);
    expect(tenv.cache.roleSettings?.get('anon')).toContainEqual(['statement_timeout', '3s']);
    expect([asAnon.body, asUser.body]).toEqual(['3s', '8s']);
    // Set for the request only: the next one (service_role, which has none) is back to the session's, policyfuzz's bound on any statement (CASE_STATEMENT_TIMEOUT_MS).
    expect(after.body).toBe('1min');
  });
});

describe("a migration's own statement_timeout for an API role (confined to its database, read as PostgREST reads the role-wide one)", () => {
  let tenv: Environment;
  beforeAll(async () => {
    tenv = await sqlEnvironment(
      'forms-own-timeout',
      `alter role authenticated set statement_timeout = '21s';
       alter role anon set statement_timeout = '4s';
       create function public.timeout_now() returns text language sql stable as $$ select current_setting('statement_timeout') $$;
       grant execute on function public.timeout_now() to anon, authenticated;`,
    );
  });
  afterAll(() => tenv?.close());

  it("authenticated runs under the migration's 21s and anon its 4s, not the compatibility layer's 8s and 3s", async () => {
    const request: ApiRequest = { kind: 'rpc', fn: 'timeout_now', args: {} };
    const [asAnon, asUser] = await runCase(tenv, [], [
      { caller: anon, request },
      { caller: alice, request },
    ]);
    expect([asAnon.body, asUser.body]).toEqual(['4s', '21s']);
  });
});

describe('embedded resources (select=*,cards(*))', () => {
  const boards: TableModel = {
    table: 'boards',
    columns: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'title', type: 'text', nullable: false },
    ],
    primaryKey: ['id'],
    grants: { anon: [], authenticated: ['select'] },
    rowSecurity: true,
    rules: { select: () => true },
  };
  const cardsRule = (rule: (r: Record<string, unknown>) => boolean): TableModel => ({
    table: 'cards',
    columns: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'board_id', type: 'integer', nullable: true },
      { name: 'owner', type: 'text', nullable: false },
    ],
    primaryKey: ['id'],
    grants: { anon: [], authenticated: ['select'] },
    rowSecurity: true,
    rules: { select: rule },
    foreignKeys: [{ column: 'board_id', references: 'boards', referencedColumn: 'id' }],
  });
  const cards = cardsRule((r) => r.owner === 'me');
  // The model's world lists the cards in another order than they are written: embeds compare as sets.
  const boardWorld = {
    boards: [{ id: 1, title: 'a' }, { id: 2, title: 'b' }, { id: 3, title: 'c' }],
    cards: [{ id: 13, board_id: 1, owner: 'me' }, { id: 12, board_id: 1, owner: 'you' }, { id: 11, board_id: 1, owner: 'me' }, { id: 21, board_id: 2, owner: 'you' }],
  };
  const BOARD_FIXTURES = [
    { table: 'boards', row: {}, sql: `insert into public.boards values (1, 'a'), (2, 'b'), (3, 'c')` },
    { table: 'cards', row: {}, sql: `insert into public.cards values (11, 1, 'me'), (12, 1, 'you'), (13, 1, 'me'), (21, 2, 'you')` },
  ];
  const oracle = (cardModel: TableModel, maxRows?: number) => ({ model: { tables: { boards, cards: cardModel }, functions: {}, fixtureOrder: ['boards', 'cards'] }, settings: undefined, maxRows });
  const masked = ['cards.', 'boards.'];

  async function embedded(request: Extract<ApiRequest, { kind: 'select' }>, cardModel = cards) {
    const [response] = await runCase(env, BOARD_FIXTURES, [{ caller: alice, request }]);
    const prediction = predict(oracle(cardModel, env.cache.maxRows), boardWorld, alice, request);
    return { response, prediction, disagreement: compareOutcomes(prediction.outcome, observedOutcome(request, response), masked) };
  }

  it('joins each embed as a LATERAL subquery on its foreign key, as v12.2 writes it (QueryBuilder.hs 64-108)', () => {
    const s = buildStatement({ kind: 'select', table: 'boards', columns: '*', filters: [], embeds: [{ table: 'cards', columns: ['id'], inner: true }] }, env.cache);
    expect('query' in s && s.query.marked).toContain(
      `select "boards".*, coalesce( "boards_cards_1"."boards_cards_1", '[]') as "cards" from "public"."boards" inner join lateral ( select json_agg("boards_cards_1")::jsonb as "boards_cards_1" from (select "cards_1"."id" from "public"."cards" as "cards_1" where "cards_1"."board_id" = "public"."boards"."id" ) as "boards_cards_1" ) as "boards_cards_1" on "boards_cards_1" is not null`,
    );
    expect(describeRequest({ kind: 'select', table: 'boards', columns: ['id'], filters: [], embeds: [{ table: 'cards', columns: '*', inner: true }] })).toBe('GET /rest/v1/boards?select=id,cards!inner(*)');
    const toOne = buildStatement({ kind: 'select', table: 'cards', columns: ['id'], filters: [], embeds: [{ table: 'boards', columns: '*' }] }, env.cache);
    expect('query' in toOne && toOne.query.marked).toContain(
      `select "cards"."id", row_to_json("cards_boards_1".*)::jsonb as "boards" from "public"."cards" left join lateral ( select "boards_1".* from "public"."boards" as "boards_1" where "boards_1"."id" = "public"."cards"."board_id" ) as "cards_boards_1" on true`,
    );
  });

  it("reads each embedded table under its own row rules: to-many, !inner and to-one agree with the model", async () => {
    const many = await embedded({ kind: 'select', table: 'boards', columns: '*', filters: [], embeds: [{ table: 'cards', columns: '*' }] });
    expect(many.response.body).toHaveLength(3);
    expect((many.response.body as { id: number; cards: { id: number }[] }[]).find((b) => b.id === 1)!.cards.map((c) => c.id).sort()).toEqual([11, 13]);
    expect(many.disagreement).toBeUndefined();
    const inner = await embedded({ kind: 'select', table: 'boards', columns: ['id'], filters: [], embeds: [{ table: 'cards', columns: ['id'], inner: true }] });
    expect(inner.response.body).toEqual([{ id: 1, cards: expect.any(Array) }]);
    expect(inner.disagreement).toBeUndefined();
    const one = await embedded({ kind: 'select', table: 'cards', columns: ['id'], filters: [], embeds: [{ table: 'boards', columns: ['title'] }] });
    expect(one.response.body).toEqual(expect.arrayContaining([{ id: 11, boards: { title: 'a' } }]));
    expect(one.disagreement).toBeUndefined();
  });

  it('an embed showing a child row the model hides is a disagreement (a child-table leak seen through the parent)', async () => {
    const strict = cardsRule((r) => r.owner === 'me' && r.id !== 13);
    const r = await embedded({ kind: 'select', table: 'boards', columns: '*', filters: [{ column: 'id', op: 'eq', value: 1 }], embeds: [{ table: 'cards', columns: '*' }] }, strict);
    expect(r.disagreement?.reason).toBe('returned rows differ');
  });

  it('an embed across a relationship the model does not know is PGRST200 on both sides', async () => {
    const r = await embedded({ kind: 'select', table: 'boards', columns: '*', filters: [], embeds: [{ table: 'memos', columns: '*' }] });
    expect(r.response.error?.code).toBe('PGRST200');
    expect(r.disagreement).toBeUndefined();
  });

  // Composite keys, one-to-one keys and an embed's order=.
  const intColumns = (names: string[], nullable: string[] = []) => names.map((name) => ({ name, type: 'integer' as const, nullable: nullable.includes(name) }));
  const teams: TableModel = { table: 'teams', columns: [...intColumns(['org', 'id']), { name: 'name', type: 'text' as const, nullable: false }], primaryKey: ['org', 'id'], grants: { anon: [], authenticated: ['select'] }, rowSecurity: false, rules: {} };
  const seats: TableModel = {
    table: 'seats',
    columns: [...intColumns(['id', 'org', 'team'], ['team']), { name: 'owner', type: 'text' as const, nullable: false }, ...intColumns(['rank'], ['rank'])],
    primaryKey: ['id'],
    grants: { anon: [], authenticated: ['select'] },
    rowSecurity: true,
    rules: { select: (r) => r.owner === 'me' },
    foreignKeys: [{ columns: ['org', 'team'], references: 'teams', referencedColumns: ['org', 'id'] }],
  };
  const labelled = (table: string, uniqueKeys?: string[][]): TableModel => ({
    table,
    columns: [...intColumns(['id', 'board_id']), { name: 'label', type: 'text' as const, nullable: false }],
    primaryKey: ['id'],
    ...(uniqueKeys ? { uniqueKeys } : {}),
    grants: { anon: [], authenticated: ['select'] },
    rowSecurity: false,
    rules: {},
    foreignKeys: [{ column: 'board_id', references: 'boards', referencedColumn: 'id' }],
  });
  const keyWorld = {
    ...boardWorld,
    teams: [{ org: 1, id: 1, name: 'x' }, { org: 2, id: 1, name: 'y' }],
    // Seat 4 names team 1 of org 2: it must not pair with team (1, 1) on its id alone.
    seats: [{ id: 1, org: 1, team: 1, owner: 'me', rank: 2 }, { id: 2, org: 1, team: 1, owner: 'me', rank: null }, { id: 3, org: 1, team: 1, owner: 'you', rank: 9 }, { id: 4, org: 2, team: 1, owner: 'me', rank: 5 }, { id: 5, org: 1, team: 1, owner: 'me', rank: 7 }],
    badges: [{ id: 1, board_id: 1, label: 'gold' }],
    stickers: [{ id: 1, board_id: 1, label: 'star' }],
  };
  const KEY_FIXTURES = [
    ...BOARD_FIXTURES,
    { table: 'teams', row: {}, sql: `insert into public.teams values (1, 1, 'x'), (2, 1, 'y')` },
    { table: 'seats', row: {}, sql: `insert into public.seats values (1, 1, 1, 'me', 2), (2, 1, 1, 'me', null), (3, 1, 1, 'you', 9), (4, 2, 1, 'me', 5), (5, 1, 1, 'me', 7)` },
    { table: 'badges', row: {}, sql: `insert into public.badges values (1, 1, 'gold')` },
    { table: 'stickers', row: {}, sql: `insert into public.stickers values (1, 1, 'star')` },
  ];
  const keyTables = (seatModel = seats) => ({ boards, cards, teams, seats: seatModel, badges: labelled('badges', [['board_id']]), stickers: labelled('stickers') });
  async function keyed(request: Extract<ApiRequest, { kind: 'select' }>, seatModel = seats) {
    const [response] = await runCase(env, KEY_FIXTURES, [{ caller: alice, request }]);
    const tables = keyTables(seatModel);
    const prediction = predict({ model: { tables, functions: {}, fixtureOrder: Object.keys(tables) }, settings: undefined, maxRows: env.cache.maxRows }, keyWorld, alice, request);
    const masked = maskedColumns({ model: { tables, functions: {}, fixtureOrder: [] }, settings: undefined } as never, { caller: alice, request });
    return { response, prediction, disagreement: compareOutcomes(prediction.outcome, observedOutcome(request, response), masked) };
  }
  const seatIds = (body: unknown) => (body as { seats: { id: number }[] }[])[0].seats.map((s) => s.id);

  it('joins a composite foreign key on every column pair, in the key order, both ways, as the model pairs them', async () => {
    const s = buildStatement({ kind: 'select', table: 'teams', columns: '*', filters: [], embeds: [{ table: 'seats', columns: ['id'] }] }, env.cache);
    expect('query' in s && s.query.marked).toContain(`where "seats_1"."org" = "public"."teams"."org" and "seats_1"."team" = "public"."teams"."id"`);
    const many = await keyed({ kind: 'select', table: 'teams', columns: '*', filters: [{ column: 'org', op: 'eq', value: 1 }], embeds: [{ table: 'seats', columns: ['id'] }] });
    expect(seatIds(many.response.body).sort()).toEqual([1, 2, 5]);
    expect(many.disagreement).toBeUndefined();
    const one = await keyed({ kind: 'select', table: 'seats', columns: ['id'], filters: [{ column: 'id', op: 'eq', value: 4 }], embeds: [{ table: 'teams', columns: ['name'] }] });
    expect(one.response.body).toEqual([{ id: 4, teams: { name: 'y' } }]);
    expect(one.disagreement).toBeUndefined();
  });

  it('embeds a table one-to-one (an object) when its foreign key is a UNIQUE constraint, to-many when only a unique index (SchemaCache.hs allM2OandO2ORels)', async () => {
    const badge = await keyed({ kind: 'select', table: 'boards', columns: ['id'], filters: [{ column: 'id', op: 'eq', value: 1 }], embeds: [{ table: 'badges', columns: ['label'] }] });
    expect(badge.response.body).toEqual([{ id: 1, badges: { label: 'gold' } }]);
    expect(badge.disagreement).toBeUndefined();
    const sticker = await keyed({ kind: 'select', table: 'boards', columns: ['id'], filters: [{ column: 'id', op: 'eq', value: 1 }], embeds: [{ table: 'stickers', columns: ['label'] }] });
    expect(sticker.response.body).toEqual([{ id: 1, stickers: [{ label: 'star' }] }]);
    expect(sticker.disagreement).toBeUndefined();
  });

  it("reads an embed in its order= (ORDER BY in the embed's subquery), compared in order: the reverse order disagrees", async () => {
    const order = [{ column: 'rank', direction: 'desc' as const, nulls: 'last' as const }];
    const request = { kind: 'select' as const, table: 'teams', columns: '*' as const, filters: [{ column: 'org', op: 'eq' as const, value: 1 }], embeds: [{ table: 'seats', columns: '*' as const, order }] };
    expect(describeRequest(request)).toBe('GET /rest/v1/teams?org=eq.1&select=*,seats(*)&seats.order=rank.desc.nullslast');
    const s = buildStatement(request, env.cache);
    expect('query' in s && s.query.marked).toContain(`"seats_1"."team" = "public"."teams"."id" order by "seats_1"."rank" desc nulls last )`);
    const r = await keyed(request);
    expect(seatIds(r.response.body)).toEqual([5, 1, 2]);
    expect(r.disagreement).toBeUndefined();
    // Postgres' default for DESC is NULLS FIRST; the model sorts the same.
    const nullsFirst = await keyed({ ...request, embeds: [{ table: 'seats', columns: '*', order: [{ column: 'rank', direction: 'desc' }] }] });
    expect(seatIds(nullsFirst.response.body)).toEqual([2, 5, 1]);
    expect(nullsFirst.disagreement).toBeUndefined();
    // Same rows, other order: a disagreement (the model sorting ascending where the database sorts descending).
    const reversed = await runCase(env, KEY_FIXTURES, [{ caller: alice, request }]);
    const ascending = predict({ model: { tables: keyTables(), functions: {}, fixtureOrder: [] }, settings: undefined }, keyWorld, alice, { ...request, embeds: [{ table: 'seats', columns: '*', order: [{ column: 'rank', nulls: 'last' }] }] });
    expect(compareOutcomes(ascending.outcome, observedOutcome(request, reversed[0]), ['seats.', embedOrderMask('seats', ['rank'])])?.reason).toBe('returned rows differ');
    // Without the order mask the same answer is a multiset, and agrees.
    expect(compareOutcomes(ascending.outcome, observedOutcome(request, reversed[0]), ['seats.'])).toBeUndefined();
  });

  it('reads whether text sorts in code point order, a target fact: on its own server (initdb --locale=C) yes; with a column of another collation, no', async () => {
    expect(env.cache.codePointText).toBe(true);
    // Its own connection: the worker's holds the case transaction open.
    const { host, port, user, password, database } = env.workers[0].client as unknown as { host: string; port: number; user: string; password?: string; database: string };
    const client = new pg.Client({ host, port, user, password, database });
    await client.connect();
    try {
      const other = (await client.query<{ name: string }>(`select quote_ident(collname) as name from pg_collation where collname not in ('default', 'C', 'POSIX', 'ucs_basic', 'pg_c_utf8') and collencoding in (-1, 6) order by collname limit 1`)).rows[0]?.name;
      expect(other).toBeDefined();
      await client.query('begin');
      await client.query(`create schema pf_collated; create table pf_collated.notes (title text collate ${other})`);
      expect((await loadSchemaCache(client, ['pf_collated'])).codePointText).toBeUndefined();
    } finally {
      await client.query('rollback').catch(() => {});
      await client.end();
    }
  });

  // Many-to-many, !hint and PGRST201, self-referencing keys, a top-level order= (PostgREST v12.2.3).
  const postTables = (junctionRule: (r: Record<string, unknown>) => boolean = (r) => r.tagger === 'me') => {
    const t = (table: string, columns: TableModel['columns'], primaryKey: string[], foreignKeys: TableModel['foreignKeys'], select?: (r: Record<string, unknown>) => boolean): TableModel => ({
      table,
      columns,
      primaryKey,
      grants: { anon: [], authenticated: ['select'] },
      rowSecurity: select !== undefined,
      rules: select ? { select } : {},
      ...(foreignKeys ? { foreignKeys } : {}),
    });
    const int = (name: string, nullable = false) => ({ name, type: 'integer' as const, nullable });
    const text = (name: string) => ({ name, type: 'text' as const, nullable: false });
    return {
      tags: t('tags', [int('id'), text('name')], ['id'], undefined, (r) => r.name !== 'secret'),
      posts: t('posts', [int('id'), int('parent_id', true), int('cover_tag_id', true), text('title'), int('rank', true)], ['id'], [
        { column: 'parent_id', references: 'posts', referencedColumn: 'id' },
        { column: 'cover_tag_id', references: 'tags', referencedColumn: 'id' },
      ]),
      post_tags: t('post_tags', [int('post_id'), int('tag_id'), text('tagger')], ['post_id', 'tag_id', 'tagger'], [
        { column: 'post_id', references: 'posts', referencedColumn: 'id' },
        { column: 'tag_id', references: 'tags', referencedColumn: 'id' },
      ], junctionRule),
      post_links: t('post_links', [int('id'), int('post_id'), int('tag_id')], ['id'], [
        { column: 'post_id', references: 'posts', referencedColumn: 'id' },
        { column: 'tag_id', references: 'tags', referencedColumn: 'id' },
      ]),
    };
  };
  const postWorld = {
    tags: [{ id: 1, name: 'red' }, { id: 2, name: 'blue' }, { id: 3, name: 'secret' }],
    posts: [{ id: 1, parent_id: null, cover_tag_id: 2, title: 'root', rank: 5 }, { id: 2, parent_id: 1, cover_tag_id: null, title: 'a', rank: null }, { id: 3, parent_id: 1, cover_tag_id: 3, title: 'b', rank: 5 }, { id: 4, parent_id: 2, cover_tag_id: null, title: 'c', rank: 1 }],
    // Red tagged twice on post 1 (by me and by you): the join answers it once per junction row the caller reads.
    post_tags: [{ post_id: 1, tag_id: 1, tagger: 'me' }, { post_id: 1, tag_id: 1, tagger: 'you' }, { post_id: 1, tag_id: 2, tagger: 'you' }, { post_id: 1, tag_id: 3, tagger: 'me' }, { post_id: 3, tag_id: 2, tagger: 'me' }, { post_id: 3, tag_id: 1, tagger: 'me' }],
    post_links: [{ id: 1, post_id: 1, tag_id: 2 }],
  };
  const POST_FIXTURES = [
    { table: 'tags', row: {}, sql: `insert into public.tags values (1, 'red'), (2, 'blue'), (3, 'secret')` },
    { table: 'posts', row: {}, sql: `insert into public.posts values (1, null, 2, 'root', 5), (2, 1, null, 'a', null), (3, 1, 3, 'b', 5), (4, 2, null, 'c', 1)` },
    { table: 'post_tags', row: {}, sql: `insert into public.post_tags values (1, 1, 'me'), (1, 1, 'you'), (1, 2, 'you'), (1, 3, 'me'), (3, 2, 'me'), (3, 1, 'me')` },
    { table: 'post_links', row: {}, sql: `insert into public.post_links values (1, 1, 2)` },
  ];
  async function posted(request: Extract<ApiRequest, { kind: 'select' }>, tables = postTables()) {
    const [response] = await runCase(env, POST_FIXTURES, [{ caller: alice, request }]);
    const oracle = { model: { tables, functions: {}, fixtureOrder: Object.keys(tables) }, settings: undefined, codePointText: true };
    const prediction = predict(oracle, postWorld, alice, request);
    return { response, prediction, disagreement: compareOutcomes(prediction.outcome, observedOutcome(request, response), maskedColumns(oracle as never, { caller: alice, request })) };
  }
  const read = (embeds: Embed[], more: Partial<Extract<ApiRequest, { kind: 'select' }>> = {}) => ({ kind: 'select' as const, table: 'posts', columns: ['id'], filters: [], embeds, ...more });

  it('two relationships between the same tables: PGRST201 (300) with its hint listing each as a !hint (Error.hs 218-222, relHint 381-392), on both sides', async () => {
    const r = await posted(read([{ table: 'tags', columns: ['name'] }]));
    expect(r.response.status).toBe(300);
    expect(r.response.error).toMatchObject({ code: 'PGRST201', message: "Could not embed because more than one relationship was found for 'posts' and 'tags'", hint: "Try changing 'tags' to one of the following: 'tags!posts_cover_tag_id_fkey', 'tags!post_tags'. Find the desired relationship in the 'details' key." });
    expect(r.prediction.outcome).toMatchObject({ kind: 'error', code: 'PGRST201' });
    expect(r.disagreement).toBeUndefined();
    // post_links' keys are not in its primary key: no junction (SchemaCache.hs addM2MRels), so no third relationship, and `!post_links` names none.
    const links = await posted(read([{ table: 'tags', hint: 'post_links', columns: ['name'] }]));
    expect(links.response.error?.code).toBe('PGRST200');
    expect(links.disagreement).toBeUndefined();
  });

  it('many-to-many through the junction (hint: its name): FROM tags, post_tags (QueryBuilder.hs fromF 269-279), the junction under its own row rules, a row per junction row', async () => {
    const request = read([{ table: 'tags', hint: 'post_tags', columns: ['name'] }], { filters: [{ column: 'id', op: 'in', value: [1, 2] }] });
    expect(describeRequest(request)).toBe('GET /rest/v1/posts?id=in.[1,2]&select=id,tags!post_tags(name)');
    const s = buildStatement(request, env.cache);
    expect('query' in s && s.query.marked).toContain(
      `left join lateral ( select json_agg("posts_tags_1")::jsonb as "posts_tags_1" from (select "public"."tags"."name" from "public"."tags", "public"."post_tags" where "public"."tags"."id" = "public"."post_tags"."tag_id" and "public"."post_tags"."post_id" = "public"."posts"."id" ) as "posts_tags_1" ) as "posts_tags_1" on true`,
    );
    const r = await posted(request);
    // My junction rows of post 1 reach red and secret; the tags' own rule hides secret; you tagged red and blue.
    expect(r.response.body).toEqual(expect.arrayContaining([{ id: 1, tags: [{ name: 'red' }] }, { id: 2, tags: [] }]));
    expect(r.disagreement).toBeUndefined();
    // A junction leak: the model hides every junction row, the database shows mine — a disagreement only this form shows.
    const hidden = await posted(request, postTables(() => false));
    expect(hidden.disagreement?.reason).toBe('returned rows differ');
    // Where the junction reads every row, red comes twice (me and you) and blue once.
    const all = predict({ model: { tables: postTables(() => true), functions: {}, fixtureOrder: [] }, settings: undefined }, postWorld, alice, request).outcome;
    expect(all).toMatchObject({ rows: [{ id: 1, tags: [{ name: 'red' }, { name: 'red' }, { name: 'blue' }] }, { id: 2, tags: [] }] });
  });

  it('a hint naming the constraint or a key column (either side) picks the many-to-one, under an alias (Plan.hs findRel 528-606); the tags side reads posts many-to-many', async () => {
    for (const hint of ['posts_cover_tag_id_fkey', 'cover_tag_id', 'id']) {
      const r = await posted(read([{ table: 'tags', hint, alias: 'cover', columns: ['name'] }], { filters: [{ column: 'id', op: 'lt', value: 4 }] }));
      // `id`: the key's column on the tags side (matchFKRefSingleCol). Post 3's cover is secret: hidden by the tags' rule, null.
      expect(r.response.body).toEqual(expect.arrayContaining([{ id: 1, cover: { name: 'blue' } }, { id: 2, cover: null }, { id: 3, cover: null }]));
      expect(r.disagreement, hint).toBeUndefined();
    }
    expect(describeRequest(read([{ table: 'tags', hint: 'cover_tag_id', alias: 'cover', columns: ['name'] }]))).toBe('GET /rest/v1/posts?select=id,cover:tags!cover_tag_id(name)');
    const [response] = await runCase(env, POST_FIXTURES, [{ caller: alice, request: { kind: 'select', table: 'tags', columns: ['id'], filters: [], embeds: [{ table: 'posts', hint: 'post_tags', columns: ['id'] }] } }]);
    expect(response.body).toEqual(expect.arrayContaining([{ id: 1, posts: expect.arrayContaining([{ id: 1 }, { id: 3 }]) }]));
  });

  it('a self-referencing key: `posts(*)` and `posts!parent_id(*)` are the children, `parent_id(*)` the parent, a constraint hint nothing (findRel relIsSelf)', async () => {
    const children = await posted(read([{ table: 'posts', columns: ['id'] }]));
    expect(children.response.body).toEqual(expect.arrayContaining([{ id: 1, posts: expect.arrayContaining([{ id: 2 }, { id: 3 }]) }, { id: 4, posts: [] }]));
    expect(children.disagreement).toBeUndefined();
    const s = buildStatement(read([{ table: 'posts', columns: ['id'] }]), env.cache);
    expect('query' in s && s.query.marked).toContain(`from "public"."posts" as "posts_1" where "posts_1"."parent_id" = "public"."posts"."id"`);
    const hinted = await posted(read([{ table: 'posts', alias: 'replies', hint: 'parent_id', columns: ['id'] }]));
    expect(hinted.response.body).toEqual(expect.arrayContaining([{ id: 2, replies: [{ id: 4 }] }]));
    expect(hinted.disagreement).toBeUndefined();
    const parent = await posted(read([{ table: 'parent_id', alias: 'parent', columns: ['title'] }]));
    expect(parent.response.body).toEqual(expect.arrayContaining([{ id: 1, parent: null }, { id: 4, parent: { title: 'a' } }]));
    expect(parent.disagreement).toBeUndefined();
    // A key to another schema's table is not looked up from this one (findRel: `HM.lookup (origin, schema)`), whatever the target names.
    const crossSchema = { ...env.cache, relationships: [{ table: 'public.posts', columns: ['cover_tag_id'], references: 'archive.tags', referencedColumns: ['id'], name: 'posts_cover_tag_id_fkey' }] };
    expect(buildStatement(read([{ table: 'cover_tag_id', columns: ['id'] }]), crossSchema)).toMatchObject({ refusal: { code: 'PGRST200' } });
    const byConstraint = await posted(read([{ table: 'posts', hint: 'posts_parent_id_fkey', columns: ['id'] }]));
    expect(byConstraint.response.error?.code).toBe('PGRST200');
    expect(byConstraint.disagreement).toBeUndefined();
  });

  it('a top-level order= is the read\'s ORDER BY (orderF; desc puts nulls first unless nullslast), compared in order, ties in any order', async () => {
    const request = read([], { columns: ['id', 'rank'], order: [{ column: 'rank', direction: 'desc' }] });
    expect(describeRequest(request)).toBe('GET /rest/v1/posts?select=id,rank&order=rank.desc');
    const s = buildStatement({ ...request, order: [{ column: 'rank', direction: 'desc', nulls: 'last' }, { column: 'id' }] }, env.cache);
    expect('query' in s && s.query.marked).toContain(`from "public"."posts" order by "public"."posts"."rank" desc nulls last, "public"."posts"."id")`);
    const r = await posted(request);
    expect((r.response.body as { id: number }[]).map((p) => p.id)).toEqual(expect.arrayContaining([2, 1, 3, 4]));
    expect((r.response.body as { id: number }[])[0].id).toBe(2);
    expect(r.disagreement).toBeUndefined();
    // The same rows in another order than the model's: a disagreement.
    const ascending = await posted({ ...request, order: [{ column: 'rank', nulls: 'first' }] });
    expect(compareOutcomes(ascending.prediction.outcome, observedOutcome(request, r.response), maskedColumns({ model: { tables: postTables(), functions: {}, fixtureOrder: [] }, settings: undefined } as never, { caller: alice, request }))?.reason).toBe('returned rows are not in the order= the model expects');
  });

  describe('db-max-rows', () => {
    beforeAll(() => {
      env.cache.maxRows = 1;
    });
    afterAll(() => {
      delete env.cache.maxRows;
    });

    it('limits a read and each embedded array to any n rows (no order: any n agree), a write with representation not at all', async () => {
      const read = await embedded({ kind: 'select', table: 'boards', columns: '*', filters: [], embeds: [{ table: 'cards', columns: '*' }] });
      expect(read.response.body).toHaveLength(1);
      expect(read.prediction.outcome).toMatchObject({ kind: 'allowed', affected: 1, upTo: 1 });
      expect(read.disagreement).toBeUndefined();
      const board1 = await embedded({ kind: 'select', table: 'boards', columns: '*', filters: [{ column: 'id', op: 'eq', value: 1 }], embeds: [{ table: 'cards', columns: '*' }] });
      expect((board1.response.body as { cards: unknown[] }[])[0].cards).toHaveLength(1);
      expect(board1.disagreement).toBeUndefined();
      // A row the model does not expect is still a disagreement under the cap.
      const strict = await embedded({ kind: 'select', table: 'boards', columns: '*', filters: [{ column: 'id', op: 'eq', value: 1 }], embeds: [{ table: 'cards', columns: '*' }] }, cardsRule(() => false));
      expect(strict.disagreement).toBeDefined();
      const request: TableRequest = { kind: 'insert', table: 'drafts', rows: [{ id: 2, owner: 'me' }, { id: 3, owner: 'me' }], returning: 'representation' };
      const [write] = await runCase(env, [], [{ caller: alice, request }]);
      expect(write.body).toHaveLength(2);
      expect(maxRowsCap(request, allowed([{ id: 2 }, { id: 3 }], 2), 1)).toEqual(allowed([{ id: 2 }, { id: 3 }], 2));
    });

    it("an ordered embed under the cap answers its first row in order, as the model's first", async () => {
      const request = { kind: 'select' as const, table: 'teams', columns: '*' as const, filters: [{ column: 'org', op: 'eq' as const, value: 1 }], embeds: [{ table: 'seats', columns: ['id', 'rank'], order: [{ column: 'rank', direction: 'asc' as const }] }] };
      const r = await keyed(request);
      expect(seatIds(r.response.body)).toEqual([1]);
      expect(r.disagreement).toBeUndefined();
      const wrong = predict({ model: { tables: keyTables(), functions: {}, fixtureOrder: [] }, settings: undefined, maxRows: 1 }, keyWorld, alice, { ...request, embeds: [{ ...request.embeds[0], order: [{ column: 'rank', direction: 'desc' }] }] });
      expect(compareOutcomes(wrong.outcome, observedOutcome(request, r.response), ['seats.', embedOrderMask('seats', ['rank'])])).toBeDefined();
    });

    it('a single object counts the rows of the capped page (Query.hs failNotSingular reads page_total): three boards under a cap of 1 are one, not PGRST116', async () => {
      const r = await embedded({ kind: 'select', table: 'boards', columns: '*', filters: [], single: true });
      expect(r.response.status).toBe(200);
      expect(r.prediction.outcome).toMatchObject({ kind: 'allowed', upTo: 1 });
      expect(r.disagreement).toBeUndefined();
    });

    it('puts LIMIT n OFFSET 0 on the outer read and on a set-returning rpc read through its read plan (Plan.hs callReadPlan → readPlan)', () => {
      const s = buildStatement({ kind: 'select', table: 'memos', columns: '*', filters: [] }, env.cache);
      expect('query' in s && s.query.marked).toContain(`from "public"."memos" limit 1 offset 0)`);
      const fn = { schema: 'public', name: 'all_memos', args: [], returns: 'setof-composite' as const, volatility: 'stable' as const };
      const rpc = buildStatement({ kind: 'rpc', fn: 'all_memos', args: {} }, { ...env.cache, functions: new Map([['public.all_memos', [fn]]]) });
      expect('query' in rpc && rpc.query.marked).toContain(`"public"."all_memos"() pgrst_call limit 1 offset 0)`);
    });
  });
});
