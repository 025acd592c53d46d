/**
 * `.rpc(fn, args).single()` (postgrest-js 1.19.4 PostgrestTransformBuilder.ts 191-196: `Accept:
 * application/vnd.pgrst.object+json`) as PostgREST v12.2 answers it: Query.hs actionQuery DbCall
 * runs failNotSingular after the call, so a set-returning function answering 0 or 2+ rows is 406
 * PGRST116 and its writes are rolled back (`SQL.condemn`); one row is that row as an object
 * (SqlFragment.hs asJsonSingleF). A function returning one value counts as one row
 * (Statements.hs prepareCall: page_total 1 for funcReturnsSingle). Against Postgres and the model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import type { Row } from '../model/json.ts';
import type { FunctionModel } from '../model/function-model.ts';
import { predict } from '../model/predict.ts';
import { allowed } from '../model/outcome.ts';
import { compareOutcomes } from '../checker/compare.ts';
import { observedOutcome } from '../checker/observe.ts';
import type { Environment } from '../runner/environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';

const alice: Caller = { kind: 'user', id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' };
const service: Caller = { kind: 'service' };

// find_cards writes a lookup log row before answering: a 406 must take it back.
const SCHEMA = `
create table public.cards (id int primary key, label text not null);
create table public.lookups (id bigint generated always as identity primary key, label text not null);
alter table public.cards enable row level security;
alter table public.lookups enable row level security;
create policy cards_read on public.cards for select to authenticated using (true);
create function public.find_cards(p_label text) returns setof public.cards language plpgsql security definer set search_path = '' as $$
begin
  insert into public.lookups (label) values (p_label);
  return query select c.* from public.cards c where c.label = p_label order by c.id;
end $$;
create function public.card_ids(p_label text) returns setof int language sql stable as $$ select id from public.cards where label = p_label order by id $$;
create function public.card_count(p_label text) returns bigint language sql stable as $$ select count(*) from public.cards where label = p_label $$;
create function public.request_accept() returns text language sql stable as $$ select current_setting('request.headers', true)::json ->> 'accept' $$;
grant select on public.cards, public.lookups to authenticated;
`;
const FIXTURES = [{ table: 'cards', row: {}, sql: `insert into public.cards values (1, 'one'), (2, 'two'), (3, 'two')` }];
const cards: Row[] = [{ id: 1, label: 'one' }, { id: 2, label: 'two' }, { id: 3, label: 'two' }];

let env: Environment;
beforeAll(async () => {
  env = await sqlEnvironment('rpcsingle', SCHEMA);
});
afterAll(() => env?.close());

type Call = Extract<ApiRequest, { kind: 'rpc' }>;

/** The answer, and the lookup log afterwards (read by the server). */
async function run(request: Call) {
  const [response, log] = await runCase(env, FIXTURES, [
    { caller: alice, request },
    { caller: service, request: { kind: 'select', table: 'lookups', columns: ['label'], filters: [] } },
  ]);
  return { response, log: log.body };
}

/** The model of find_cards: the cards of that label, each call logged. */
const findCards: FunctionModel = {
  name: 'find_cards',
  args: ['p_label'],
  executableBy: ['authenticated'],
  predict: (world, _caller, args) => {
    const found = cards.filter((c) => c.label === args.p_label);
    return { outcome: allowed(found, found.length), world: { ...world, lookups: [...(world.lookups ?? []), { label: args.p_label }] } };
  },
};
const oracle = { model: { tables: {}, functions: { find_cards: findCards }, fixtureOrder: [] }, settings: undefined };

function modelDisagreement(request: Call, response: Awaited<ReturnType<typeof run>>['response']) {
  return compareOutcomes(predict(oracle, {}, alice, request).outcome, observedOutcome(request, response));
}

const find = (label: string, single = true): Call => ({ kind: 'rpc', fn: 'find_cards', args: { p_label: label }, ...(single ? { single } : {}) });

describe('.rpc().single() (failNotSingular on a call)', () => {
  it('one row: 200 with that row as an object, the write kept', async () => {
    const { response, log } = await run(find('one'));
    expect(response).toMatchObject({ status: 200, body: { id: 1, label: 'one' } });
    expect(log).toEqual([{ label: 'one' }]);
    expect(modelDisagreement(find('one'), response)).toBeUndefined();
  });

  it('no row or two: 406 PGRST116 with the count, and the function’s write rolled back', async () => {
    for (const [label, n] of [['none', 0], ['two', 2]] as const) {
      const { response, log } = await run(find(label));
      expect(response).toMatchObject({ status: 406, error: { code: 'PGRST116', message: 'JSON object requested, multiple (or no) rows returned', details: `The result contains ${n} rows` } });
      expect(log).toEqual([]);
      expect(modelDisagreement(find(label), response)).toBeUndefined();
    }
    // Without .single() the same call answers its rows and keeps its write.
    const plain = await run(find('two', false));
    expect(plain.response).toMatchObject({ status: 200, body: [{ id: 2, label: 'two' }, { id: 3, label: 'two' }] });
    expect(plain.log).toEqual([{ label: 'two' }]);
  });

  it('a set of values answers its one row as asJsonSingleF writes it; a function of one value is one row whatever it returns', async () => {
    const ids = await run({ kind: 'rpc', fn: 'card_ids', args: { p_label: 'one' }, single: true });
    expect(ids.response).toMatchObject({ status: 200, body: { pgrst_scalar: 1 } });
    const none = await run({ kind: 'rpc', fn: 'card_ids', args: { p_label: 'none' }, single: true });
    expect(none.response).toMatchObject({ status: 406, error: { code: 'PGRST116', details: 'The result contains 0 rows' } });
    const count = await run({ kind: 'rpc', fn: 'card_count', args: { p_label: 'two' }, single: true });
    expect(count.response).toMatchObject({ status: 200, body: 2 });
  });

  it('sends the single-object Accept header a function can read', async () => {
    const { response } = await run({ kind: 'rpc', fn: 'request_accept', args: {}, single: true });
    expect(response).toMatchObject({ status: 200, body: 'application/vnd.pgrst.object+json' });
  });
});
