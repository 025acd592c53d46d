/**
 * Shrinking keeps the finding (#28.3). With the buyer guard turned into a deny-list (mutant
 * R01-shop-guard-deny-list: discount, added later, is writable by the buyer), a buyer's case that
 * first sets their discount to null (the database's NOT NULL refuses, 23502, where the model's
 * guard refuses, P0001: a side error) and then to 90 (the exploit: stored) used to be judged at its
 * first step, so it shrank to the 23502 difference. Now a side error does not end the judging: the
 * case is the exploit's, shrinks to its one step, and the run reports the exploit first with the
 * unshrunk case next to it; the side error stays a finding of its own, listed after.
 */
import fc from 'fast-check';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrationFolder } from '../db/migrations.ts';
import { applyEdits, loadMutants } from '../mutants/mutant-files.ts';
import { openEnvironment, type Environment } from '../runner/environment.ts';
import { checkCase } from '../runner/check-case.ts';
import { runDataProperty } from '../runner/run-data-property.ts';
import { predict } from '../model/predict.ts';
import { BUNDLED_MIGRATIONS } from '../../cli/paths.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { R04 } from '../../packs/reference/rules/R04-shop-buyer/property.ts';
import { R01 } from '../../packs/reference/rules/R01-owner-guard/property.ts';
import type { DataCase } from '../runner/data-case.ts';
import type { ApiRequest } from '../model/request.ts';
import { minimizeCase } from './minimize.ts';
import { isSideError, signatureOf } from './signature.ts';

const mutant = loadMutants(path.resolve('packs/reference/rules/R01-owner-guard/mutants')).find((m) => m.name === 'R01-shop-guard-deny-list')!;
const EXPLOIT = 'R04 | PATCH shop_orders | signed-in | allowed-not-refused(P0001) | owner guard of shop_orders';
const NOT_NULL = 'R04 | PATCH shop_orders | signed-in | wrong-error(P0001→23502) | owner guard of shop_orders';

/** A buyer (no handler) with their own order in the buyer's window, from R04's own generator: first null, then 90 as their discount. */
function slipThenExploit(): DataCase {
  for (const c of fc.sample(R04.cases(referenceOracle.settings), { seed: 3, numRuns: 300 })) {
    const [s] = c.steps;
    if (s.request.kind !== 'update' || s.request.table !== 'shop_orders') continue;
    if (!(predict(referenceOracle, c.world, s.caller, s.request).branches ?? []).some((b) => b === 'R01.shop_orders.allow-list' || b === 'R01.shop_orders.refused')) continue;
    const id = s.request.filters.find((f) => f.column === 'id')?.value;
    const world = { ...c.world, shop_orders: c.world.shop_orders.map((o) => (o.id === id ? { ...o, status: referenceOracle.settings.shop.buyerEditableStatuses[0], discount: 0 } : o)) };
    const discount = (value: number | null): ApiRequest => ({ ...(s.request as Extract<ApiRequest, { kind: 'update' }>), patch: { discount: value }, returning: 'minimal' });
    return { world, steps: [{ caller: s.caller, request: discount(null) }, { caller: s.caller, request: discount(90) }] };
  }
  throw new Error("no buyer's PATCH of their own order among 300 R04 cases");
}

let env: Environment;
beforeAll(async () => {
  env = await openEnvironment({ server: await sharedServer(), migrations: applyEdits(mutant, loadMigrationFolder(BUNDLED_MIGRATIONS)), workers: 2 });
});
afterAll(() => env?.close());

describe('a side error before the exploit', () => {
  it("the case's disagreement is the exploit's, and it shrinks to the exploit's own step, not to 23502", async () => {
    const unshrunk = slipThenExploit();
    const verdict = await checkCase(env.workers[0].tx, unshrunk, referenceOracle);
    expect(verdict.mismatch?.step).toBe(1);
    expect(signatureOf('R04', verdict.mismatch!)).toBe(EXPLOIT);
    // The first step still disagrees, as a side error: 23502 where the model's guard refuses.
    expect(verdict.history[0].disagreement).toBeDefined();
    expect(signatureOf('R04', { request: unshrunk.steps[0], expected: verdict.history[0].predicted, actual: verdict.history[0].observed })).toBe(NOT_NULL);

    const minimized = await minimizeCase(env.workers[0].tx, referenceOracle, 'R04', EXPLOIT, unshrunk, verdict.mismatch!, verdict.history);
    expect(signatureOf('R04', minimized.mismatch)).toBe(EXPLOIT);
    expect(minimized.testCase.steps).toEqual([unshrunk.steps[1]]);
    expect(minimized.testCase.world.shop_orders).toHaveLength(1);
  });

  it('the side error alone is still a finding (a case with nothing after it keeps it)', async () => {
    const only = slipThenExploit();
    const verdict = await checkCase(env.workers[0].tx, { ...only, steps: only.steps.slice(0, 1) }, referenceOracle);
    expect(isSideError(verdict.mismatch!)).toBe(true);
    expect(signatureOf('R04', verdict.mismatch!)).toBe(NOT_NULL);
  });

  it('a run reports the exploit first, with its unshrunk case; the killing run of a mutant stops on the exploit, not on a side error', async () => {
    // Seed 2 of R04 met a side error (23514) first; seeds 9 and 10 of R01 one refused by the update policy.
    for (const [property, seed] of [[R04, 2], [R01, 9]] as const) {
      const r = await runDataProperty(env, property, { seed, runs: 300, oracle: referenceOracle, stopAtFirst: true });
      expect(r.status).toBe('failed');
      const first = r.failure!;
      expect(first.signature, `${property.id} seed ${seed}`).toMatch(/\| allowed-not-refused\(P0001\) \| owner guard of shop_orders$/);
      expect(first.unshrunk).toBeDefined();
      expect(JSON.stringify(first.unshrunk)).not.toBe(JSON.stringify(first.counterexample));
      expect(r.findings!.slice(1).every((f) => f.signature!.includes('wrong-error('))).toBe(true);
      // Carried as a field (a merge orders by it): the exploit is none, a later wrong error is one.
      expect(first.side).toBeUndefined();
      expect(r.findings!.slice(1).every((f) => f.side === true)).toBe(true);
    }
  });
});
