/**
 * Coverage-guided generation (guided.ts). R03's plain cases almost never write a remark whose
 * author is the submitter label with its case changed (branch R03.remark.by-case-only); its guide
 * does, once a lane has drawn its first tranche without taking it. Shown twice: over the model
 * alone (the branch is taken within a lane's 150 draws with guidance, not without, at several
 * seeds), and on the database, where the mutant comparing the author case-insensitively survives
 * 300 plain cases and is killed by the guided run, whose finding replays from its seed and path.
 * R14 draws from several case sources; its PR part brings guides of its own (CasePart.guides):
 * a guest lookup key equal to a stored id only case-insensitively, which only the mutant
 * comparing case-sensitively gets wrong.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { R03 } from '../../packs/reference/rules/R03-vs-submitter-guard/property.ts';
import { R14 } from '../../packs/reference/rules/R14-lookup-equality/property.ts';
import { branchesOfCase, GUIDE_AFTER, GuidedCases, laneArbitrary, ResumedCases, warmedFor } from './guided.ts';
import { runDataProperty } from './run-data-property.ts';
import { openEnvironment, type Environment } from './environment.ts';
import { loadMigrationFolder } from '../db/migrations.ts';
import { applyEdits, loadMutants } from '../mutants/mutant-files.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from '../../cli/paths.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import type { DataCase } from './data-case.ts';

const BRANCH = 'R03.remark.by-case-only';
const SEEDS = [1, 2, 3];
const takes = (cases: DataCase[]) => cases.findIndex((c) => branchesOfCase(c, referenceOracle).includes(BRANCH));

describe('guided generation over the model', () => {
  it(`takes ${BRANCH} within a lane's 150 draws at every seed; plain generation does not`, () => {
    const plain = R03.cases(referenceOracle.settings);
    for (const seed of SEEDS) {
      expect(takes(fc.sample(plain, { seed, numRuns: 150 })), `plain, seed ${seed}`).toBe(-1);
      const guided = laneArbitrary(R03, referenceOracle, plain);
      expect(guided).toBeInstanceOf(GuidedCases);
      const at = takes(fc.sample(guided, { seed, numRuns: 150 }));
      expect(at, `guided, seed ${seed}`).toBeGreaterThanOrEqual(GUIDE_AFTER);
      // Draws before guidance starts are the plain ones, draw for draw.
      expect(fc.sample(laneArbitrary(R03, referenceOracle, plain), { seed, numRuns: GUIDE_AFTER })).toEqual(fc.sample(plain, { seed, numRuns: GUIDE_AFTER }));
    }
  });

  it('is deterministic for a seed, and a replay warmed to run n draws what run n drew', () => {
    const plain = R03.cases(referenceOracle.settings);
    const a = fc.sample(laneArbitrary(R03, referenceOracle, plain), { seed: 9, numRuns: 120 });
    expect(fc.sample(laneArbitrary(R03, referenceOracle, plain), { seed: 9, numRuns: 120 })).toEqual(a);
    for (const n of [0, 45, 100]) {
      const [drawn] = fc.sample(warmedFor(laneArbitrary(R03, referenceOracle, plain), 9, n), { seed: 9, path: String(n), numRuns: 1 });
      expect(drawn).toEqual(a[n]);
    }
  });

  it('a lane resumed with its kept arbitrary (rewound to where it stopped) draws what one run drew, without drawing the runs before again', () => {
    const plain = R03.cases(referenceOracle.settings);
    const a = fc.sample(laneArbitrary(R03, referenceOracle, plain), { seed: 9, numRuns: 150 });
    const kept = laneArbitrary(R03, referenceOracle, plain) as GuidedCases;
    // It drew past where its tranche stopped (the case in hand at a cut), and past the guided branch.
    fc.sample(kept, { seed: 9, numRuns: 150 });
    for (const n of [120, 45]) {
      const resumed = fc.sample(new ResumedCases(kept.rewound(n)!, n), { seed: 9, numRuns: 150 });
      expect(resumed.slice(n)).toEqual(a.slice(n));
    }
    expect(kept.rewound(151)).toBeUndefined();
  });
});

/** The bundled mutant `name`, and an environment with it applied, opened and closed by the calling describe's hooks. */
function withMutant(name: string) {
  const mutant = loadMutants(BUNDLED_MUTANTS).find((m) => m.name === name)!;
  let env: Environment | undefined;
  beforeAll(async () => {
    env = await openEnvironment({ server: await sharedServer(), migrations: applyEdits(mutant, loadMigrationFolder(BUNDLED_MIGRATIONS)), workers: 2 });
  });
  afterAll(() => env?.close());
  return { mutant, env: () => env! };
}

describe('guided generation on the database', () => {
  const { mutant, env: environment } = withMutant('R03-vs-remark-author-case-insensitive');

  it('the case-insensitive author mutant survives 300 plain cases and is killed by the guided run, replayably', async () => {
    const env = environment();
    expect(path.basename(mutant.file.path)).toBe('R03-vs-remark-author-case-insensitive.sql');
    const plain = await runDataProperty(env, { ...R03, guides: undefined }, { seed: 1, runs: 300, oracle: referenceOracle });
    expect(plain.status).toBe('passed');
    expect(plain.branches?.find((b) => b.id === BRANCH)?.taken).toBe(0);

    const guided = await runDataProperty(env, R03, { seed: 1, runs: 300, oracle: referenceOracle });
    expect(guided.status).toBe('failed');
    // The exploit itself: a remark by a case-flipped author stored where the model refuses it.
    const finding = guided.findings!.find((f) => /^R03 \| PATCH vs_tickets \| signed-in \| (allowed|silent)-not-refused\(P0001\) \| vs_tickets: a submitter's remark must be/.test(f.signature!))!;
    expect(finding, guided.findings!.map((f) => f.signature).join('\n')).toBeDefined();
    expect(guided.branches?.find((b) => b.id === BRANCH)?.taken).toBeGreaterThan(0);
    // The printed seed and path replay it: the replay draws the lane's earlier runs first.
    const replay = await runDataProperty(env, R03, { seed: finding.seed, runs: 1, oracle: referenceOracle, path: finding.path });
    expect(replay.status).toBe('failed');
    expect(replay.failure?.signature).toBe(finding.signature);
  });
});

describe('guided generation for a property of several parts (R14)', () => {
  const CASE_ONLY = 'R14.pr.case-only';
  const takesCaseOnly = (cases: DataCase[]) => cases.findIndex((c) => branchesOfCase(c, referenceOracle).includes(CASE_ONLY));

  it(`the PR part's guide takes ${CASE_ONLY} within 75 draws of a lane at seeds 1-10; plain generation misses it in 150 at 4 of them or more`, () => {
    expect(R14.guides?.map((g) => g.branch)).toEqual(['R14.pr.case-only', 'R14.pr.trim-spaces']);
    const plain = R14.cases(referenceOracle.settings);
    let plainMissed = 0;
    for (let seed = 1; seed <= 10; seed++) {
      if (takesCaseOnly(fc.sample(plain, { seed, numRuns: 150 })) < 0) plainMissed++;
      const at = takesCaseOnly(fc.sample(laneArbitrary(R14, referenceOracle, plain), { seed, numRuns: 75 }));
      expect(at, `guided, seed ${seed}`).toBeGreaterThanOrEqual(0);
    }
    // 5 of 10 until session 12, when R14's PR soft deletes began drawing near misses (a draw more a step).
    expect(plainMissed).toBeGreaterThanOrEqual(4);
    // Narrowed to the VS parts, the PR part's guides go with it.
    expect(R14.narrow!((name) => !name.startsWith('pr_') && !name.includes('pr_ticket'))?.guides).toBeUndefined();
  });

  const { env: environment } = withMutant('R14-guest-lookup-case-sensitive');

  it('the case-sensitive guest lookup survives 150 plain cases at seed 5 and is killed guided', async () => {
    const env = environment();
    const plain = await runDataProperty(env, { ...R14, guides: undefined }, { seed: 5, runs: 150, oracle: referenceOracle, shrink: false });
    expect(plain.status).toBe('passed');
    expect(plain.branches?.find((b) => b.id === CASE_ONLY)?.taken).toBe(0);
    const guided = await runDataProperty(env, R14, { seed: 5, runs: 150, oracle: referenceOracle, shrink: false });
    expect(guided.status).toBe('failed');
    expect(guided.failure?.signature).toMatch(/get_pr_ticket_by_id/);
  });
});
