/**
 * A role sweep (packs/reference/generators/role-sweep.ts) appends a case's steps again as anon and
 * as the server. On a project's target an appended step can be one it cannot hold: here the
 * server's insert of the order the buyer just inserted, under a unique key the model does not know
 * (`buyer_note`), or refused by a trigger of the project's own. The case is cut before that step
 * and judged up to it (counted as cut, not dropped), where it was dropped whole, its own steps
 * never judged (a re-creation of the case, not a stranger's migrations).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { withRoleSweep, ROLE_SWEEP_DRAWS } from '../../packs/reference/generators/role-sweep.ts';
import { referenceEnvironment } from '../../testing/reference.ts';
import type { DataCase } from './data-case.ts';
import type { DataProperty } from './data-property.ts';
import type { Environment } from './environment.ts';
import { runDataProperty } from './run-data-property.ts';
import { cutCaseLines } from '../report/console.ts';

/** The project's own: a unique buyer note, and a trigger refusing the server's orders shipped to one name. */
const SQL = `
create unique index shop_orders_buyer_note_key on public.shop_orders (buyer_note);
create function public.refuse_server_orders() returns trigger language plpgsql as $$
begin
  if current_user = 'service_role' and new.shipping_name = 'not by the server' then
    raise exception 'server orders to this name are refused' using errcode = '23514';
  end if;
  return new;
end $$;
create trigger shop_orders_refuse_server before insert on public.shop_orders for each row execute function public.refuse_server_orders();
`;

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment({ workers: 1, extra: [{ name: '9990_swept_cut.sql', path: '9990_swept_cut.sql', sql: SQL }], fixtures: { users: 'direct', bypassTriggers: false } });
});
afterAll(() => env?.close());

/** A buyer inserting an order (`order`: its columns but the buyer), then reading the orders; every draw role-swept. */
function ordering(order: Record<string, string | null>): DataProperty {
  return withRoleSweep({
    id: 'T09',
    rule: 4,
    title: 'a buyer orders',
    tables: ['shop_orders'],
    cases: () =>
      fc.uuid({ version: 4 }).map((id): DataCase => ({
        world: { 'auth.users': [{ id, email: `${id}@x.test` }], users: [{ id, email: `${id}@x.test`, display_name: 'u', role: 'user', permissions: [], managed_permissions: [] }] },
        steps: [
          { caller: { kind: 'user', id }, request: { kind: 'insert', table: 'shop_orders', rows: [{ buyer_id: id, ...order }], returning: 'minimal' } },
          { caller: { kind: 'user', id }, request: { kind: 'select', table: 'shop_orders', columns: ['buyer_id', 'buyer_note'], filters: [] } },
        ],
      })),
  });
}

const UNIQUE_NOTE = ordering({ buyer_note: 'leave at the door', shipping_name: 'Sam' });
const TRIGGER_REFUSED = ordering({ buyer_note: null, shipping_name: 'not by the server' });
const cutTotal = (cut: Record<string, number> | undefined) => Object.values(cut ?? {}).reduce((n, k) => n + k, 0);

describe('a role-swept case on a target that cannot hold an appended step', () => {
  it('is cut before the server\'s insert under a unique key the model does not know (seen before writing), judged up to it, counted as cut and not dropped', async () => {
    const result = await runDataProperty(env, UNIQUE_NOTE, { seed: 3, runs: ROLE_SWEEP_DRAWS, oracle: referenceOracle });
    expect(result).toMatchObject({ status: 'passed', cases: ROLE_SWEEP_DRAWS });
    expect(result.dropped).toBeUndefined();
    expect(Object.keys(result.cut!)).toEqual([expect.stringMatching(/unique index shop_orders_buyer_note_key/)]);
    expect(cutTotal(result.cut)).toBe(ROLE_SWEEP_DRAWS);
    // What the unjudged steps would have reached is kept, as a drop's: a coverage gap only they fill is "not checked on this target".
    expect(Object.values(result.droppedReach ?? {}).some((n) => n > 0)).toBe(true);
    // Judged: the buyer's insert and read, anon's insert and read: 4 steps a case.
    expect(Object.values(result.counts).reduce((n, k) => n + k, 0)).toBe(4 * ROLE_SWEEP_DRAWS);
    expect(cutCaseLines([result])).toEqual([expect.stringMatching(/^cut cases/), `  T09  ${ROLE_SWEEP_DRAWS} cases cut, mostly: ${Object.keys(result.cut!)[0]}`]);
    // The same seed cuts the same cases alike.
    const again = await runDataProperty(env, UNIQUE_NOTE, { seed: 3, runs: ROLE_SWEEP_DRAWS, oracle: referenceOracle });
    expect([again.cut, again.counts, again.cases]).toEqual([result.cut, result.counts, result.cases]);
  });

  it("is cut before the server's insert a trigger of the project's refuses (seen only in its answer), judged up to it", async () => {
    const result = await runDataProperty(env, TRIGGER_REFUSED, { seed: 3, runs: ROLE_SWEEP_DRAWS, oracle: referenceOracle });
    expect(result).toMatchObject({ status: 'passed', cases: ROLE_SWEEP_DRAWS });
    expect(result.dropped).toBeUndefined();
    expect(result.cut).toEqual({ 'a CHECK refused a value the model writes (a CHECK the model does not have)': ROLE_SWEEP_DRAWS });
    expect(Object.values(result.droppedReach ?? {}).some((n) => n > 0)).toBe(true);
  });

  it("its own steps are judged: a disagreement on one is found and saved cut before the appended step the target cannot hold", async () => {
    const objecting = { ...referenceOracle, model: { ...referenceOracle.model, invariants: [{ name: 'objects to a read', check: (entry: { request: { kind: string } }) => (entry.request.kind === 'select' ? 'objected' : undefined) }] } };
    const result = await runDataProperty(env, UNIQUE_NOTE, { seed: 3, runs: 3, oracle: objecting as typeof referenceOracle, shrink: false });
    expect(result.status).toBe('failed');
    expect(result.failure!.message).toMatch(/^step 2: invariant "objects to a read": objected/);
    expect((result.failure!.counterexample as DataCase).steps).toHaveLength(4);
  });
});
