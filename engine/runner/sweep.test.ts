/**
 * A property's sweep (DataProperty.sweep, drawn by guided.ts GuidedCases): each lane's first
 * draws are the sweep's cases in turn, the draws after them the property's own exactly as without
 * it. Over the model: R16's and R15's sweeps send their whole grant matrix (table × command × API
 * role, function × API role) in a lane's first 25 draws, the first tranche of pr's two lanes,
 * where plain draws leave cells to case 300 and early stop reads each as new ground. On the
 * database: R08's sweep (a null role holding every permission) kills the null-role faults within
 * a lane's first draws; plain draws met them past case 150.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { R08 } from '../../packs/reference/rules/R08-unresolvable-denied/property.ts';
import { R15 } from '../../packs/reference/rules/R15-function-grants/property.ts';
import { R16 } from '../../packs/reference/rules/R16-table-grants/property.ts';
import { requestKind, requestKindKey } from '../model/access.ts';
import { GuidedCases, laneArbitrary, warmedFor } from './guided.ts';
import type { DataCase } from './data-case.ts';
import type { DataProperty } from './data-property.ts';
import { runDataProperty } from './run-data-property.ts';
import { openEnvironment, type Environment } from './environment.ts';
import { loadMigrationFolder } from '../db/migrations.ts';
import { applyEdits, loadMutants } from '../mutants/mutant-files.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from '../../cli/paths.ts';
import { sharedServer } from '../../testing/shared-server.ts';

const kindsOf = (cases: DataCase[]) => new Set(cases.flatMap((c) => c.steps.map((s) => requestKindKey(requestKind(s.caller, s.request)))));
const sample = (arbitrary: fc.Arbitrary<DataCase>, seed: number, numRuns: number) => fc.sample(arbitrary, { seed, numRuns });

describe('a sweep over the model', () => {
  it('is drawn first, one case each in turn; the draws after it are the plain ones, draw for draw; a replay warmed to run n draws what run n drew', () => {
    const plain = R16.cases(referenceOracle.settings);
    const lane = laneArbitrary(R16, referenceOracle, plain);
    expect(lane).toBeInstanceOf(GuidedCases);
    const swept = R16.sweep!.length;
    const drawn = sample(lane, 4, 40);
    // The sweep's cases: one a table, in the sweep's order, every step on that table.
    const tables = drawn.slice(0, swept).map((c) => [...new Set(c.steps.map((s) => requestKind(s.caller, s.request).target))]);
    expect(tables.every((t) => t.length === 1)).toBe(true);
    expect(new Set(tables.flat()).size).toBe(swept);
    expect(drawn.slice(swept)).toEqual(sample(plain, 4, 40).slice(swept));
    for (const n of [0, swept - 1, swept, 30]) {
      const [replayed] = fc.sample(warmedFor(laneArbitrary(R16, referenceOracle, plain), 4, n), { seed: 4, path: String(n), numRuns: 1 });
      expect(replayed, `run ${n}`).toEqual(drawn[n]);
    }
  });

  const matrixOf = (property: DataProperty) => (seed: number, draws: number, arbitrary: fc.Arbitrary<DataCase>) => kindsOf(sample(arbitrary, seed, draws));

  for (const property of [R16, R15]) {
    it(`${property.id}: a lane's first 25 draws send every kind of request its 200 draws send; 25 plain draws do not`, () => {
      const plain = property.cases(referenceOracle.settings);
      const kinds = matrixOf(property);
      for (const seed of [1, 2]) {
        const all = kinds(seed, 200, laneArbitrary(property, referenceOracle, plain));
        const first = kinds(seed, 25, laneArbitrary(property, referenceOracle, plain));
        expect([...all].filter((k) => !first.has(k)), `${property.id} seed ${seed}`).toEqual([]);
        const plainFirst = kinds(seed, 25, plain);
        expect([...kinds(seed, 200, plain)].filter((k) => !plainFirst.has(k)).length, `${property.id} plain, seed ${seed}`).toBeGreaterThan(0);
      }
    });
  }

  it("R08's sweep sends each PR and shop request as a null role holding every permission (rule 8's boundary), the orders the caller's own and open to a buyer", () => {
    const settings = referenceOracle.settings;
    const cases = sample(laneArbitrary(R08, referenceOracle, R08.cases(settings)), 1, R08.sweep!.length);
    const requests = cases.map((c) => {
      const [step] = c.steps;
      expect(step.caller.kind).toBe('user');
      const id = step.caller.kind === 'user' ? step.caller.id : '';
      const profile = (c.world.users ?? []).find((u) => u.id === id);
      expect(profile?.role, 'a null role').toBeNull();
      expect(profile?.permissions).toEqual(settings.permissions);
      for (const order of c.world.shop_orders ?? []) {
        expect(order.buyer_id).toBe(id);
        expect(settings.shop.buyerEditableStatuses).toContain(order.status);
      }
      return requestKindKey(requestKind(step.caller, step.request));
    });
    expect(requests).toEqual(['rpc soft_delete_pr_ticket|execute|authenticated', 'shop_orders|update|authenticated', 'pr_tickets|update|authenticated', 'pr_tickets|select|authenticated', 'shop_orders|select|authenticated']);
  });
});

/** The bundled mutant `name` applied, its environment opened and closed by the calling describe's hooks. */
function withMutant(name: string) {
  const mutant = loadMutants(BUNDLED_MUTANTS).find((m) => m.name === name)!;
  let env: Environment | undefined;
  beforeAll(async () => {
    env = await openEnvironment({ server: await sharedServer(), migrations: applyEdits(mutant, loadMigrationFolder(BUNDLED_MIGRATIONS)), workers: 2 });
  });
  afterAll(() => env?.close());
  return () => env!;
}

describe("R08's sweep on the database", () => {
  // 10 cases: each lane's first 5 draws, the sweep's.
  const first = { seed: 1, runs: 300, tranche: 10, oracle: referenceOracle, stopAtFirst: true, shrink: false };
  for (const [name, signature] of [
    ['R08-soft-delete-null-role-fails-open', /soft_delete_pr_ticket/],
    ['R08-shop-guard-null-role-exempt', /PATCH shop_orders/],
  ] as const) {
    describe(name, () => {
      const env = withMutant(name);
      it('is killed within the first cases of a lane; plain draws pass them', async () => {
        const swept = await runDataProperty(env(), R08, first);
        expect(swept.status).toBe('failed');
        expect(swept.findings?.map((f) => f.signature).join('\n')).toMatch(signature);
        const plain = await runDataProperty(env(), { ...R08, sweep: undefined }, first);
        expect(plain.status).toBe('passed');
      });
    });
  }
});
