/**
 * Which function PostgREST v12.2 calls for `POST /rpc/fn` and how, on Postgres
 * (src/PostgREST/Plan.hs findProc, lines 211-256, and callPlan, 958-975, at v12.2.12):
 * - the overload whose parameters the body's keys match; with none, for a POST, the overload of
 *   a single json or jsonb parameter, called with the whole body (`handle(jsonb)`: OnePosParam,
 *   `fn($1::jsonb)`); a GET has no such fallback;
 * - two overloads matching alike: 300 PGRST203 (Error.hs AmbiguousRpc), neither runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import type { FunctionModel } from '../model/function-model.ts';
import { allowed } from '../model/outcome.ts';
import { predict } from '../model/predict.ts';
import { compareOutcomes } from '../checker/compare.ts';
import { observedOutcome } from '../checker/observe.ts';
import type { Environment } from '../runner/environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';
import { buildStatement } from './statement.ts';

const alice: Caller = { kind: 'user', id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' };

const SCHEMA = `
create table public.notes (id int primary key, owner uuid not null default auth.uid(), body text);
alter table public.notes enable row level security;
create policy notes_own on public.notes for all to authenticated using (owner = auth.uid()) with check (owner = auth.uid());
grant select, insert on public.notes to authenticated;

-- One unnamed jsonb parameter: PostgREST passes it the whole body. The insert runs as the caller, under notes' policy.
create function public.save_note(jsonb) returns jsonb language plpgsql as $$
begin
  insert into public.notes (id, body) values (($1 ->> 'id')::int, $1 ->> 'body');
  return jsonb_build_object('saved', $1 ->> 'id', 'by', auth.uid());
end $$;
-- One named jsonb parameter the body does not name: PostgREST falls back to it, calls it with no argument.
create function public.log_event(payload jsonb) returns void language sql as $$ select null $$;
-- Overloads a body matches alike.
create function public.find_note(p_id int) returns text language sql stable as $$ select 'int' $$;
create function public.find_note(p_id text) returns text language sql stable as $$ select 'text' $$;
create function public.ping() returns int language sql stable as $$ select 0 $$;
create function public.ping(p_n int default 1) returns int language sql stable as $$ select p_n $$;
-- A parameter without a name (SchemaCache.hs allFunctions \`callable\`): PostgREST keeps neither function in its cache.
create function public.bump(int default 1) returns int language sql stable as $$ select $1 $$;
create function public.tag_note(int, jsonb) returns int language sql stable as $$ select $1 $$;
create function public.bump() returns text language sql stable as $$ select 'named' $$;
-- One named parameter beside an unnamed one: pg_proc stores '' for the unnamed, which PostgREST counts as named (it keeps it).
create function public.note_count(p_id int, int default 0) returns int language sql stable as $$ select p_id + $2 $$;
-- OUT, INOUT or TABLE parameters make an answer of rows (SchemaCache.hs \`rettype_is_composite\`), even a single one.
create function public.note_ids() returns table (id int) language sql stable as $$ select 1 union all select 2 $$;
create function public.doubled(inout n int) language sql stable as $$ select n * 2 $$;
create function public.halved(p int, out half int) language sql stable as $$ select p / 2 $$;
grant execute on all functions in schema public to authenticated;
`;

const saveNote: FunctionModel = {
  name: 'save_note',
  args: ['id', 'body'],
  executableBy: ['authenticated', 'service_role'],
  predict: (w, c, args) => ({
    outcome: allowed([{ saved: String(args.id), by: c.kind === 'user' ? c.id : null }], 1),
    world: { ...w, notes: [...(w.notes ?? []), { id: args.id, owner: c.kind === 'user' ? c.id : null, body: args.body }] },
  }),
};
const oracle = { model: { tables: {}, functions: { save_note: saveNote }, fixtureOrder: [] }, settings: undefined };

let env: Environment;
beforeAll(async () => {
  env = await sqlEnvironment('rpc-resolution', SCHEMA);
});
afterAll(() => env?.close());

async function send(...requests: ApiRequest[]) {
  return runCase(env, [], requests.map((request) => ({ caller: alice, request })));
}

describe('a function of one unnamed json/jsonb parameter (Plan.hs findProc fallback, callPlan OnePosParam)', () => {
  const call: Extract<ApiRequest, { kind: 'rpc' }> = { kind: 'rpc', fn: 'save_note', args: { id: 7, body: 'hi' } };

  it('is called with the whole body, positionally, as the model predicts; the row it writes is under the caller\'s policy', async () => {
    const s = buildStatement(call, env.cache);
    expect('query' in s && s.query.marked).toMatch(/"public"\."save_note"\(\u00011\u0001::jsonb\)/);
    const [response, read] = await send(call, { kind: 'select', table: 'notes', columns: '*', filters: [] });
    expect(response).toMatchObject({ status: 200, body: { saved: '7', by: alice.kind === 'user' ? alice.id : '' } });
    expect(compareOutcomes(predict(oracle, {}, alice, call).outcome, observedOutcome(call, response))).toBeUndefined();
    expect(read.body).toEqual([{ id: 7, owner: alice.kind === 'user' ? alice.id : '', body: 'hi' }]);
  });

  it('is not a fallback for GET (404 PGRST202), and a named jsonb parameter the body does not name is called with none (42883)', async () => {
    const [get, named] = await send({ ...call, get: true }, { kind: 'rpc', fn: 'log_event', args: { kind: 'x' } });
    expect(get).toMatchObject({ status: 404, error: { code: 'PGRST202' } });
    expect(named).toMatchObject({ status: 404, error: { code: '42883', message: 'function public.log_event() does not exist' } });
  });
});

describe('overloads a body matches alike (Error.hs AmbiguousRpc)', () => {
  it('answers 300 PGRST203 and runs neither: same parameter names, or one with every parameter defaulted', async () => {
    const [byName, byDefault, chosen] = await send(
      { kind: 'rpc', fn: 'find_note', args: { p_id: 1 } },
      { kind: 'rpc', fn: 'ping', args: {} },
      { kind: 'rpc', fn: 'ping', args: { p_n: 5 } },
    );
    expect(byName).toMatchObject({ status: 300, error: { code: 'PGRST203', hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved' } });
    expect(byName.error?.message).toMatch(/^Could not choose the best candidate function between: public\.find_note\(p_id => (integer|text)\), public\.find_note\(p_id => (integer|text)\)$/);
    expect(byDefault).toMatchObject({ status: 300, error: { code: 'PGRST203' } });
    // A key only one overload takes picks it.
    expect(chosen).toMatchObject({ status: 200, body: 5 });
  });

  it('is as secure as the model where its answer shows the caller nothing (a named reading), and a finding where it shows rows', () => {
    const call: Extract<ApiRequest, { kind: 'rpc' }> = { kind: 'rpc', fn: 'find_note', args: { p_id: 1 } };
    const answering = (rows: Record<string, string>[]): FunctionModel => ({ name: 'find_note', args: ['p_id'], executableBy: ['authenticated'], predict: (w) => ({ outcome: allowed(rows, rows.length), world: w }) });
    const expectedOf = (fn: FunctionModel, caller: Caller = alice) => predict({ model: { tables: {}, functions: { find_note: fn }, fixtureOrder: [] }, settings: undefined }, {}, caller, call).outcome;
    const ambiguous = observedOutcome(call, { status: 300, body: null, error: { code: 'PGRST203', message: 'Could not choose the best candidate function', details: null, hint: null } } as never);
    expect(compareOutcomes(expectedOf(answering([])), ambiguous)).toBeUndefined();
    // Refused by the grant in the model (anon holds no EXECUTE): nothing runs either way.
    expect(compareOutcomes(expectedOf(answering([{ note: 'x' }]), { kind: 'anon' }), ambiguous)).toBeUndefined();
    expect(compareOutcomes(expectedOf(answering([{ note: 'x' }])), ambiguous)?.reason).toMatch(/PGRST203/);
    // The server alike: nothing shown, nothing changed, the ambiguity is no finding.
    expect(compareOutcomes(expectedOf(answering([]), { kind: 'service' }), ambiguous)).toBeUndefined();
  });
});

describe('a function with a parameter no call can name (SchemaCache.hs allFunctions `callable`)', () => {
  it('is not in the schema cache: a call PGRST202 whatever it sends, and an overload beside it is called alone (Postgres then finds both: 42725)', async () => {
    const [positional, twoParameters, overload] = await send(
      { kind: 'rpc', fn: 'tag_note', args: { $1: 1, $2: {} } },
      { kind: 'rpc', fn: 'tag_note', args: {} },
      { kind: 'rpc', fn: 'bump', args: {} },
    );
    expect(positional).toMatchObject({ status: 404, error: { code: 'PGRST202' } });
    expect(twoParameters).toMatchObject({ status: 404, error: { code: 'PGRST202' } });
    // bump(int default 1) is left out: PostgREST calls bump() as the one function (no PGRST203), and
    // Postgres, which has both, finds the call ambiguous.
    expect(overload).toMatchObject({ error: { code: '42725', message: 'function public.bump() is not unique' } });
  });

  it('beside a named parameter an unnamed one is kept: the function is called by the named one', async () => {
    const [mixed] = await send({ kind: 'rpc', fn: 'note_count', args: { p_id: 4 } });
    expect(mixed).toMatchObject({ status: 200, body: 4 });
  });
});

describe('a single OUT, INOUT or RETURNS TABLE column (SchemaCache.hs allFunctions `rettype_is_composite`: `proargmodes && {t,b,o}`)', () => {
  it('answers rows keyed by its name, not bare values', async () => {
    const [table, inout, out] = await send({ kind: 'rpc', fn: 'note_ids', args: {} }, { kind: 'rpc', fn: 'doubled', args: { n: 3 } }, { kind: 'rpc', fn: 'halved', args: { p: 8 } });
    expect(table).toMatchObject({ status: 200, body: [{ id: 1 }, { id: 2 }] });
    expect(inout).toMatchObject({ status: 200, body: { n: 6 } });
    expect(out).toMatchObject({ status: 200, body: { half: 4 } });
    expect(env.cache.functions.get('public.note_ids')?.[0].returns).toBe('setof-composite');
    expect(env.cache.functions.get('public.doubled')?.[0].returns).toBe('composite');
  });
});
