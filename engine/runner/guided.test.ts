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
import { branchesOfCase, GUIDE_AFTER, GuidedCases, laneArbitrary, ResumedCases, sweepOrder, warmedFor } from './guided.ts';
import { oneFindingPerSignature } from '../findings/cap.ts';
import { ONLY_LANE, pathWithPlace, placeOfPath, runOfPath } from './replay-path.ts';
import { R08 } from '../../packs/reference/rules/R08-unresolvable-denied/property.ts';
import { R15 } from '../../packs/reference/rules/R15-function-grants/property.ts';
import { R16 } from '../../packs/reference/rules/R16-table-grants/property.ts';
import { parseAccessKey, requestKind, requestKindKey } from '../model/access.ts';
import type { DataProperty } from './data-property.ts';
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

/**
 * Sweeps. A property's sweep (DataProperty.sweep, drawn by guided.ts GuidedCases): each lane's first
 * draws are the sweep's cases in turn, the draws after them the property's own exactly as without
 * it. Over the model: R16's and R15's sweeps send their whole grant matrix (table × command × API
 * role, function × API role) in a lane's first 25 draws, the first tranche of pr's two lanes,
 * where plain draws leave cells to case 300 and early stop reads each as new ground. On the
 * database: R08's sweep (a null role holding every permission) kills the null-role faults within
 * a lane's first draws; plain draws met them past case 150.
 */
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

describe("R08's sweep on the database", () => {
  // 10 cases: each lane's first 5 draws, the sweep's.
  const first = { seed: 1, runs: 300, tranche: 10, oracle: referenceOracle, stopAtFirst: true, shrink: false };
  for (const [name, signature] of [
    ['R08-soft-delete-null-role-fails-open', /soft_delete_pr_ticket/],
    ['R08-shop-guard-null-role-exempt', /PATCH shop_orders/],
  ] as const) {
    describe(name, () => {
      const { env } = withMutant(name);
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

/**
 * A sweep spread over the lanes (guided.ts sweepOrder): lane l of L starts at its own items l,
 * l+L, …, so a --runs as small as the sweep reaches every item; each lane still draws every item
 * once. Before, every lane started at item 0 and a small --runs over several lanes never reached
 * the last ones. A finding's path names its lane's place, so it replays alone, and a shard taking
 * that lane finds it as one machine does.
 */
describe('a sweep over several lanes', () => {
  it('every lane draws every item once; L lanes reach every item within their first ceil(n/L) draws', () => {
    for (const n of [1, 4, 5, 7, 12]) {
      for (const lanes of [1, 2, 3, 4, 8]) {
        const firstDraws = new Set<number>();
        for (let lane = 0; lane < lanes; lane++) {
          const order = sweepOrder(n, { lane, lanes });
          expect([...order].sort((a, b) => a - b), `n ${n}, lane ${lane} of ${lanes}`).toEqual([...Array(n).keys()]);
          for (const item of order.slice(0, Math.ceil(n / lanes))) firstDraws.add(item);
        }
        expect(firstDraws.size, `n ${n} over ${lanes} lanes`).toBe(n);
      }
    }
    expect(sweepOrder(5, ONLY_LANE)).toEqual([0, 1, 2, 3, 4]);
  });

  it("R08's two lanes send every request of its sweep within their first 3 draws each", () => {
    const w = Math.ceil(R08.sweep!.length / 2);
    const sent = new Set<string>();
    for (const lane of [0, 1]) for (const k of kindsOf(sample(laneArbitrary(R08, referenceOracle, R08.cases(referenceOracle.settings), { lane, lanes: 2 }), 1 + lane, w))) sent.add(k);
    expect([...sent].sort()).toEqual([...kindsOf(sample(laneArbitrary(R08, referenceOracle, R08.cases(referenceOracle.settings)), 1, R08.sweep!.length))].sort());
  });

  it('a replay path names its lane only where the place decides the draws, and malformed ones are refused', () => {
    expect(pathWithPlace('3:0', { lane: 1, lanes: 2 }, R08)).toBe('1/2/3:0');
    expect(pathWithPlace('3:0', { lane: 1, lanes: 2 }, R03)).toBe('3:0');
    expect(pathWithPlace('3:0', ONLY_LANE, R08)).toBe('3:0');
    expect(placeOfPath('1/2/3:0')).toEqual({ place: { lane: 1, lanes: 2 }, path: '3:0' });
    expect(placeOfPath('3:0')).toEqual({ place: ONLY_LANE, path: '3:0' });
    for (const bad of ['', 'x', '2/2/3', '1/2/', '3::0']) expect(placeOfPath(bad), bad).toBeUndefined();
    // Findings are ordered by their run (engine/findings/cap.ts): the lane's prefix is not it.
    expect(runOfPath('1/2/3:0')).toBe(3);
    expect(runOfPath('7:1')).toBe(7);
    const sightings = [{ seed: 3, path: '1/2/9:0', signature: 's' }, { seed: 3, path: '1/2/3:1', signature: 's' }];
    expect(oneFindingPerSignature(sightings).map((f) => f.path)).toEqual(['1/2/3:1']);
  });

  describe('on the database', () => {
    const { env } = withMutant('R08-shop-guard-null-role-exempt');
    const runs = R08.sweep!.length;

    it('--runs = the sweep length over 2 lanes sends every sweep request, finds the fault, replays it by its path, and its shard finds it alike', async () => {
      const run = await runDataProperty(env(), R08, { seed: 2, runs, oracle: referenceOracle, shrink: false });
      const sent = new Set(Object.keys(run.access ?? {}).map((key) => requestKindKey(parseAccessKey(key))));
      expect([...sent].sort()).toEqual(['pr_tickets|select|authenticated', 'pr_tickets|update|authenticated', 'rpc soft_delete_pr_ticket|execute|authenticated', 'shop_orders|select|authenticated', 'shop_orders|update|authenticated']);
      expect(run.status).toBe('failed');
      const finding = run.findings!.find((f) => /PATCH shop_orders/.test(f.signature!))!;
      // Lane 1 drew it first (its own item 1): its path names the lane.
      expect(finding.path).toMatch(/^1\/2\//);
      const replay = await runDataProperty(env(), R08, { seed: finding.seed, runs: 1, oracle: referenceOracle, path: finding.path, shrink: false });
      expect(replay.failure?.signature).toBe(finding.signature);
      const shard = await runDataProperty(env(), R08, { seed: 2, runs, oracle: referenceOracle, shrink: false, lanes: { first: 1, total: 2 } });
      expect(shard.findings?.find((f) => f.signature === finding.signature)).toMatchObject({ seed: finding.seed, path: finding.path });
    });
  });
});
