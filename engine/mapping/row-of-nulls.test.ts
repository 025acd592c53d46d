/**
 * A lookup returning one composite, not a set (stranger-app-17's `get_vs_ticket_by_id returns
 * api.vs_ticket_card`), finding nothing: PostgREST v12.2 calls it in FROM (QueryBuilder.hs
 * callPlanToQuery, `select pgrst_call.* from f(…) pgrst_call`), where its NULL is one row of
 * nulls, and shows that row as an object whose every field is null (SqlFragment.hs asJsonF,
 * `json_agg(_postgrest_t)->0`). The model's "no such row" agrees with it, named; a row with a value
 * still differs. Re-created here under other names, on real Postgres. Read where every answer is
 * compared (check-case.ts), mapped or not: testing/row-of-nulls-pack.test.ts runs a pack on its own migrations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import type { ApiResponse } from '../executor/response.ts';
import type { Outcome } from '../model/outcome.ts';
import { compareOutcomes } from '../checker/compare.ts';
import { observedOutcome } from '../checker/observe.ts';
import type { Environment } from '../runner/environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';
import { functionTypesOf } from '../target/catalog-facts.ts';
import { expectedOnTarget, leniencyOf, outcomeToModel, rowOfNullsAsNoRow, type CatalogFacts, type TargetMapping } from './mapping.ts';

const reader: Caller = { kind: 'user', id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb' };

const SCHEMA = `
create table public.labels (code int primary key, caption text not null, shelf_no int not null);
insert into public.labels values (1, 'jam', 4);
create type public.label_card as (code int, caption text, shelf_no int);
-- A composite type made for the answer, and OUT parameters: both one row, never none.
create function public.label_by_code(p_code int) returns public.label_card language sql stable as $$
  select code, caption, shelf_no from public.labels where code = p_code
$$;
create function public.label_caption(p_code int, out caption text, out shelf_no int) language plpgsql stable as $$
begin
  select l.caption, l.shelf_no into caption, shelf_no from public.labels l where l.code = p_code;
end $$;
-- A set: finding nothing is no row.
create function public.labels_by_code(p_code int) returns setof public.label_card language sql stable as $$
  select code, caption, shelf_no from public.labels where code = p_code
$$;
grant select on public.labels to authenticated;
grant execute on all functions in schema public to authenticated;
`;

// The model's names: `title` for the target's caption, shelf_no the target's own (an extra column).
const mapping: TargetMapping = {
  functions: {
    find_label: { name: 'label_by_code', columns: { title: 'caption' }, extraColumns: ['shelf_no'] },
    find_caption: { name: 'label_caption', columns: { title: 'caption' }, extraColumns: ['shelf_no'] },
    find_labels: { name: 'labels_by_code', columns: { title: 'caption' }, extraColumns: ['shelf_no'] },
  },
};

let env: Environment;
let facts: CatalogFacts;
beforeAll(async () => {
  env = await sqlEnvironment('row-of-nulls', SCHEMA);
  const types = functionTypesOf(env.cache.functions);
  facts = { referencedTable: () => undefined, returnType: (fn) => types.get(fn), rowSecurityDecides: () => false };
});
afterAll(() => env?.close());

/** The target's answer to the model's `fn` (sent under the target's name), read back in the model's terms. */
async function answer(fn: string, code: number): Promise<{ body: unknown; response: ApiResponse; observed: Outcome }> {
  const model: ApiRequest = { kind: 'rpc', fn, args: { p_code: code } };
  const sent: ApiRequest = { kind: 'rpc', fn: mapping.functions![fn].name!, args: { p_code: code } };
  const [response] = await runCase(env, [], [{ caller: reader, request: sent }]);
  return { body: response.body, response, observed: outcomeToModel(mapping, model, observedOutcome(sent, response)) };
}

/** The model's answer as checkStep compares it with `to`: on the target (mapping), then read as PostgREST shows a one-composite NULL. */
const expected = (fn: string, rows: Record<string, unknown>[], to: { response: ApiResponse; observed: Outcome }) =>
  rowOfNullsAsNoRow({ kind: 'rpc', fn, args: { p_code: 0 } }, expectedOnTarget(mapping, reader, { kind: 'rpc', fn, args: { p_code: 0 } }, { kind: 'allowed', rows: rows as never, affected: rows.length }, facts), to.response.nullComposite, to.observed);

describe('a one-composite function finding nothing answers an object of nulls, as PostgREST does', () => {
  it('the schema cache keeps its fields (the type’s, or its OUT parameters), a set function none', () => {
    expect(env.cache.functions.get('public.label_by_code')?.[0]).toMatchObject({ returns: 'composite', fields: ['code', 'caption', 'shelf_no'] });
    expect(env.cache.functions.get('public.label_caption')?.[0]).toMatchObject({ returns: 'composite', fields: ['caption', 'shelf_no'] });
    expect(env.cache.functions.get('public.labels_by_code')?.[0].fields).toBeUndefined();
  });

  it("agrees with the model's no row, named as the target's shape; a found row is compared as before", async () => {
    const none = await answer('find_label', 9);
    expect(none.body).toEqual({ code: null, caption: null, shelf_no: null });
    expect(none.response.nullComposite).toBe('public.label_by_code returns one label_card');
    const expectNone = expected('find_label', [], none);
    expect(compareOutcomes(expectNone, none.observed)).toBeUndefined();
    expect(('orElse' in expectNone ? expectNone.orElse ?? [] : []).map(leniencyOf)).toEqual([expect.stringMatching(/^a row of nulls read as no row: public\.label_by_code returns one label_card, not a set/)]);
    const found = await answer('find_label', 1);
    expect(found.response.nullComposite).toBeUndefined();
    expect(compareOutcomes(expected('find_label', [{ code: 1, title: 'jam' }], found), found.observed)).toBeUndefined();
    // The model's no row against a row with values: a finding.
    expect(compareOutcomes(expected('find_label', [], found), found.observed)).toBeDefined();
    // The model's row against the object of nulls: a finding.
    expect(compareOutcomes(expected('find_label', [{ code: 9, title: 'x' }], none), none.observed)).toBeDefined();
  });

  it('an OUT-parameter function alike; a set function finding nothing answers [] and is not widened', async () => {
    const caption = await answer('find_caption', 9);
    expect(caption.body).toEqual({ caption: null, shelf_no: null });
    expect(compareOutcomes(expected('find_caption', [], caption), caption.observed)).toBeUndefined();
    const set = await answer('find_labels', 9);
    expect(set.body).toEqual([]);
    expect(set.response.nullComposite).toBeUndefined();
    const expectSet = expected('find_labels', [], set);
    expect('orElse' in expectSet ? expectSet.orElse : undefined).toBeUndefined();
    expect(compareOutcomes(expectSet, set.observed)).toBeUndefined();
  });
});
