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
    expect(new Set(signatures).size).toBe(signatures.length);
    // the paid hole: a buyer's PATCH allowed where the model refuses; the amounts hole: the same, on other columns
    console.log(signatures, a.findings!.map((f) => f.sizes));
    expect(a.failure).toBe(a.findings![0]);
    for (const f of a.findings!) {
      // The saved case, replayed as plain data, still disagrees with its own signature.
      const verdict = await checkCase(env.workers[0].tx, f.counterexample as DataCase, referenceOracle);
      expect(verdict.mismatch).toBeDefined();
      expect(signatureOf('R04', verdict.mismatch!)).toBe(f.signature);
      expect(f.sizes!.after.steps).toBeLessThanOrEqual(f.sizes!.before.steps);
    }
    await env.workers[0].tx.flush();
    const b = await run();
    expect(b.findings!.map((f) => f.signature)).toEqual(signatures);
    expect(b.findings!.map((f) => f.counterexample)).toEqual(a.findings!.map((f) => f.counterexample));
  }, 120_000);
});
