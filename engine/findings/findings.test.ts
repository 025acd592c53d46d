/**
 * Every finding, not the first: with two unrelated holes in one rule (R04: a buyer may mark their
 * own order paid; a buyer may lower its amounts), one run reports both as distinct findings, each
 * shrunk to a small case that keeps its signature; the same seed gives the same set.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrationFolder } from '../db/migrations.ts';
import { applyEdits, loadMutants } from '../mutants/mutant-files.ts';
import { openEnvironment, type Environment } from '../runner/environment.ts';
import { runDataProperty } from '../runner/run-data-property.ts';
import { checkCase } from '../runner/check-case.ts';
import { BUNDLED_MIGRATIONS } from '../../cli/paths.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { R04 } from '../../packs/reference/rules/R04-shop-buyer/property.ts';
import type { DataCase } from '../runner/data-case.ts';
import { signatureOf } from './signature.ts';

const mutants = loadMutants(path.resolve('packs/reference/rules/R04-shop-buyer/mutants'));
const paid = mutants.find((m) => m.name === 'R04-buyer-window-only-on-old-row')!;
const amounts = mutants.find((m) => m.name === 'R04-guard-allow-list-has-amounts')!;

let env: Environment;
beforeAll(async () => {
  env = await openEnvironment({ server: await sharedServer(), migrations: applyEdits(amounts, applyEdits(paid, loadMigrationFolder(BUNDLED_MIGRATIONS))), workers: 2 });
});
afterAll(() => env?.close());

describe('distinct findings', () => {
  it('two holes in one rule: both reported, each shrunk with its own signature, the same set for the same seed', async () => {
    const run = () => runDataProperty(env, R04, { seed: 7, runs: 300, oracle: referenceOracle });
    const a = await run();
    expect(a.status).toBe('failed');
    const signatures = a.findings!.map((f) => f.signature);
    // The amounts hole (the owner guard lets a buyer change them) is found first; the paid hole (the update policy's WITH CHECK) too.
    expect(signatures).toEqual(
      expect.arrayContaining([
        'R04 | PATCH shop_orders | signed-in | allowed-not-refused(P0001) | owner guard of shop_orders',
        'R04 | PATCH shop_orders | signed-in | allowed-not-refused(42501/policy) | update check on shop_orders',
      ]),
    );
    // Every finding belongs to one of the two holes: a broken guard may also show as a constraint
    // error where the guard should have refused first (another kind, so another finding).
    expect(new Set(signatures.map((s) => s!.split(' | ').at(-1)))).toEqual(new Set(['owner guard of shop_orders', 'update check on shop_orders']));
    expect(a.failure).toBe(a.findings![0]);
    for (const f of a.findings!) {
      // The saved case, replayed as plain data, still disagrees with its own signature.
      const verdict = await checkCase(env.workers[0].tx, f.counterexample as DataCase, referenceOracle);
      expect(verdict.mismatch).toBeDefined();
      expect(signatureOf('R04', verdict.mismatch!)).toBe(f.signature);
      // Minimal: the buyer, their order, the one PATCH.
      expect(f.sizes!.after.steps).toBe(1);
      expect(f.sizes!.after.users).toBeLessThanOrEqual(1);
      expect(f.sizes!.after.rows).toBeLessThanOrEqual(1);
    }
    await env.workers[0].tx.flush();
    const b = await run();
    expect(b.findings!.map((f) => f.signature)).toEqual(signatures);
    expect(b.findings!.map((f) => f.counterexample)).toEqual(a.findings!.map((f) => f.counterexample));
  }, 120_000);
});
