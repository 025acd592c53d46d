/**
 * Writes sent for one object (supabase-js `.update(…).eq(…).select().single()`: `Accept:
 * application/vnd.pgrst.object+json`), as PostgREST v12.2 answers them: Query.hs actionQuery
 * calls failNotSingular after the insert, update and delete statements, which condemns the
 * transaction (`SQL.condemn`: rolled back) and answers 406 PGRST116 when page_total is not 1.
 * Also `Prefer: handling=strict, max-affected=n` on a PATCH or DELETE (v12.2 Preferences.hs has
 * it; Query.hs failExceedsMaxAffectedPref: 400 PGRST124 and rolled back beyond n rows).
 * Against Postgres and the model: the answer, and that a refused write left nothing behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import type { TableModel } from '../model/table-model.ts';
import { predictTableRequest } from '../model/engine.ts';
import { compareOutcomes } from '../checker/compare.ts';
import { observedOutcome } from '../checker/observe.ts';
import type { Environment } from '../runner/environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';

const alice: Caller = { kind: 'user', id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' };
const service: Caller = { kind: 'service' };

const SCHEMA = `
create table public.items (id int primary key, owner text not null, v text);
alter table public.items enable row level security;
create policy items_all on public.items for all to authenticated using (owner = 'me') with check (owner = 'me');
revoke all on public.items from anon, authenticated;
grant select, insert, update, delete on public.items to authenticated;
`;
const items: TableModel = {
  table: 'items',
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'owner', type: 'text', nullable: false },
    { name: 'v', type: 'text', nullable: true },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select', 'insert', 'update', 'delete'] },
  rowSecurity: true,
  rules: { select: (r) => r.owner === 'me', insertCheck: (r) => r.owner === 'me', updateUsing: (r) => r.owner === 'me', updateCheck: (r) => r.owner === 'me', deleteUsing: (r) => r.owner === 'me' },
};
const world = { items: [{ id: 1, owner: 'me', v: 'a' }, { id: 2, owner: 'me', v: 'a' }, { id: 3, owner: 'other', v: 'a' }] };
const FIXTURES = [{ table: 'items', row: {}, sql: `insert into public.items values (1, 'me', 'a'), (2, 'me', 'a'), (3, 'other', 'a')` }];

let env: Environment;
beforeAll(async () => {
  env = await sqlEnvironment('single', SCHEMA);
});
afterAll(() => env?.close());

type Write = Extract<ApiRequest, { returning: unknown }>;

/** The answer, the table afterwards (read as the server), and whether the model agrees on both. */
async function run(request: Write) {
  const [response, after] = await runCase(env, FIXTURES, [
    { caller: alice, request },
    { caller: service, request: { kind: 'select', table: 'items', columns: '*', filters: [{ column: 'id', op: 'gt', value: 0 }] } },
  ]);
  // Alone in a case run as the fuzz runs it (runPlanned): no savepoint, the count read from its statement all the same.
  const tx = env.workers[0].tx;
  try {
    expect(await tx.runPlanned(FIXTURES, () => FIXTURES, [{ caller: alice, request }])).toEqual([response]);
  } finally {
    await tx.flush();
  }
  const prediction = predictTableRequest(items, world, alice, request, undefined);
  return { response, after: after.body, predictedAfter: prediction.world.items, prediction, disagreement: compareOutcomes(prediction.outcome, observedOutcome(request, response)) };
}

const id = (n: number) => [{ column: 'id', op: 'eq' as const, value: n }];
const mine = [{ column: 'owner', op: 'eq' as const, value: 'me' }];

describe('single-object writes (failNotSingular)', () => {
  it('one row affected: 200/201 with that row as an object, kept', async () => {
    const r = await run({ kind: 'update', table: 'items', patch: { v: 'b' }, filters: id(1), returning: 'representation', single: true });
    expect(r.response).toMatchObject({ status: 200, body: { id: 1, owner: 'me', v: 'b' } });
    expect(r.after).toContainEqual({ id: 1, owner: 'me', v: 'b' });
    expect(r.disagreement).toBeUndefined();
    const i = await run({ kind: 'insert', table: 'items', rows: [{ id: 9, owner: 'me' }], returning: 'representation', single: true });
    expect(i.response).toMatchObject({ status: 201, body: { id: 9, owner: 'me', v: null } });
    expect(i.disagreement).toBeUndefined();
  });

  it('no row (filtered by row security) or two rows: 406 PGRST116, and the write is rolled back, as the model predicts', async () => {
    const cases: Write[] = [
      { kind: 'update', table: 'items', patch: { v: 'b' }, filters: id(3), returning: 'representation', single: true },
      { kind: 'update', table: 'items', patch: { v: 'b' }, filters: mine, returning: 'representation', single: true },
      { kind: 'update', table: 'items', patch: { v: 'b' }, filters: mine, returning: 'minimal', single: true },
      { kind: 'delete', table: 'items', filters: mine, returning: 'representation', single: true },
      { kind: 'insert', table: 'items', rows: [{ id: 8, owner: 'me' }, { id: 9, owner: 'me' }], returning: 'representation', single: true },
      { kind: 'insert', table: 'items', rows: [{ id: 1, owner: 'me' }], returning: 'representation', single: true, upsert: { resolution: 'ignore-duplicates' } },
    ];
    for (const request of cases) {
      const r = await run(request);
      expect(r.response, JSON.stringify(request)).toMatchObject({ status: 406, error: { code: 'PGRST116' } });
      expect(r.after, JSON.stringify(request)).toEqual(world.items);
      expect(r.prediction.outcome).toMatchObject({ kind: 'error', code: 'PGRST116' });
      expect(r.predictedAfter).toEqual(world.items);
      expect(r.disagreement, JSON.stringify(request)).toBeUndefined();
    }
  });

  it('the request after a refused single write runs on the state before it', async () => {
    const [refused, next] = await runCase(env, FIXTURES, [
      { caller: alice, request: { kind: 'delete', table: 'items', filters: mine, returning: 'minimal', single: true } },
      { caller: alice, request: { kind: 'select', table: 'items', columns: ['id'], filters: mine } },
    ]);
    expect(refused.status).toBe(406);
    expect(next.body).toEqual([{ id: 1 }, { id: 2 }]);
  });
});

describe('Prefer: handling=strict, max-affected=n (failExceedsMaxAffectedPref)', () => {
  it('beyond n rows: 400 PGRST124 and rolled back; within: kept; as the model predicts', async () => {
    for (const request of [
      { kind: 'update', table: 'items', patch: { v: 'b' }, filters: mine, returning: 'minimal', maxAffected: 1 },
      { kind: 'delete', table: 'items', filters: mine, returning: 'representation', maxAffected: 1 },
    ] as Write[]) {
      const r = await run(request);
      expect(r.response, JSON.stringify(request)).toMatchObject({ status: 400, error: { code: 'PGRST124', details: 'The query affects 2 rows' } });
      expect(r.after).toEqual(world.items);
      expect(r.disagreement).toBeUndefined();
    }
    const within = await run({ kind: 'delete', table: 'items', filters: mine, returning: 'minimal', maxAffected: 2 });
    expect(within.response.status).toBe(204);
    expect(within.after).toEqual([world.items[2]]);
    expect(within.disagreement).toBeUndefined();
  });

  it('the limit counts the rows the row rules let the write change, not the rows the filter names, as the model does', async () => {
    const all = [{ column: 'id', op: 'in' as const, value: [1, 2, 3] }];
    const within = await run({ kind: 'update', table: 'items', patch: { v: 'b' }, filters: all, returning: 'minimal', maxAffected: 2 });
    expect(within.response.status).toBe(204);
    expect(within.after).toEqual([{ id: 1, owner: 'me', v: 'b' }, { id: 2, owner: 'me', v: 'b' }, world.items[2]]);
    expect(within.predictedAfter).toEqual(within.after);
    expect(within.disagreement).toBeUndefined();
    const over = await run({ kind: 'delete', table: 'items', filters: all, returning: 'minimal', maxAffected: 1 });
    expect(over.response).toMatchObject({ status: 400, error: { code: 'PGRST124', details: 'The query affects 2 rows' } });
    expect(over.disagreement).toBeUndefined();
  });
});
