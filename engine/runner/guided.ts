/**
 * Coverage-guided generation (like AFL, over the model): a property names generator variants
 * known to reach branches of the model (DataProperty.guides); while a lane's cases have not yet
 * taken such a branch, after a first tranche of plain draws, one draw in GUIDE_ONE_IN comes from
 * the variant of a branch still untaken. Once taken, it is left alone and generation is plain.
 *
 * Deterministic: which branches a case takes is the model's answer to it (pure), read when the
 * case is generated, so the arbitrary's state after n draws depends only on the lane's seed and
 * n. A replay by path (fast-check does not generate the runs a path skips) first draws the runs
 * before it (`warmedFor`), so it meets the state the run had; each lane has its own arbitrary.
 *
 * A property's sweep (DataProperty.sweep) is drawn first: a lane's draws i < its length are the
 * sweep's cases, each once, in the lane's order (sweepOrder: lane l of L starts at items l, l+L, …,
 * so L lanes meet every item within their first ceil(n/L) draws). Each run draws from a Random of
 * its own, so the draws after the sweep are
 * the ones the lane would have drawn there without it, for a property without guides (the sweep's
 * cases mark the branches they take, which steers a guided property's later guides).
 */
import fc from 'fast-check';
import type { Oracle } from '../pack.ts';
import { predictSteps } from './case-predictions.ts';
import { modelRunOf, type DataCase } from './data-case.ts';
import type { DataProperty } from './data-property.ts';
import { ONLY_LANE, type LanePlace } from './replay-path.ts';

/** Plain draws of a lane before guidance may start. */
export const GUIDE_AFTER = 40;
/** Once guiding, one draw in this many comes from a variant of an untaken branch. */
export const GUIDE_ONE_IN = 3;

interface Source {
  /** -1: the property's own cases; else the index of the guide, or of the sweep's case when `swept`. */
  source: number;
  swept?: true;
  inner: unknown;
}

/** The branches the model takes on a case's steps, in turn (a model run's steps are not known ahead: none). */
export function branchesOfCase(testCase: DataCase, oracle: Oracle): string[] {
  // A model run's steps are drawn by fast-check as it runs them: none to read yet.
  if (modelRunOf(testCase)) return [];
  // Up to the first step the model cannot answer: the case fails when checked, and what it took so far counts.
  return predictSteps(oracle, testCase).flatMap((s) => ('prediction' in s ? (s.prediction.branches ?? []) : []));
}

/**
 * The order lane `lane` of `lanes` draws a sweep of `n` items in: every item once, starting with
 * its own items lane, lane+L, … and going on through the next lanes' (cyclically). So L lanes cover
 * the sweep within their first ceil(n/L) draws each (a small --runs over several lanes reaches its
 * last items), and every lane still meets every item. One lane: 0, 1, …, n-1.
 */
export function sweepOrder(n: number, { lane, lanes }: LanePlace): number[] {
  const byResidue: number[] = [];
  for (let r = 0; r < Math.min(lanes, n); r++) for (let i = r; i < n; i += lanes) byResidue.push(i);
  const start = byResidue.findIndex((i) => i % lanes === lane);
  return start <= 0 ? byResidue : [...byResidue.slice(start), ...byResidue.slice(0, start)];
}

export class GuidedCases extends fc.Arbitrary<DataCase> {
  /** Each branch taken so far, with the draw that first took it (what `rewound` undoes). */
  private readonly taken = new Map<string, number>();
  private drawn = 0;

  constructor(
    private readonly base: fc.Arbitrary<DataCase>,
    private readonly guides: readonly { branch: string; arbitrary: fc.Arbitrary<DataCase> }[],
    private readonly oracle: Oracle,
    /** Drawn first, one each in turn (DataProperty.sweep). */
    private readonly sweep: readonly fc.Arbitrary<DataCase>[] = [],
    /** Which lane of the run draws: where in the sweep it starts (sweepOrder). */
    place: LanePlace = ONLY_LANE,
  ) {
    super();
    this.sweepOrder = sweepOrder(sweep.length, place);
  }

  /** The sweep's items in the order this lane draws them. */
  private readonly sweepOrder: readonly number[];

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<DataCase> {
    let from: Source = { source: -1, inner: undefined };
    if (this.drawn < this.sweep.length) from = { source: this.sweepOrder[this.drawn], swept: true, inner: undefined };
    else if (this.drawn >= GUIDE_AFTER) {
      const open = this.guides.flatMap((g, i) => (this.taken.has(g.branch) ? [] : [i]));
      if (open.length && mrng.nextInt(1, GUIDE_ONE_IN) === 1) from = { source: open[mrng.nextInt(0, open.length - 1)], inner: undefined };
    }
    const value = this.arbitraryOf(from).generate(mrng, biasFactor);
    // Once every guided branch is taken, guidance is over for the lane: nothing more to read.
    if (this.guides.some((g) => !this.taken.has(g.branch))) for (const id of branchesOfCase(value.value_, this.oracle)) if (!this.taken.has(id)) this.taken.set(id, this.drawn);
    this.drawn++;
    return new fc.Value(value.value_, { ...from, inner: value.context } satisfies Source, () => value.value);
  }

  /** The arbitrary a draw came from: the sweep's, a guide's, or the property's own. */
  private arbitraryOf({ source, swept }: Source): fc.Arbitrary<DataCase> {
    return swept ? this.sweep[source] : source < 0 ? this.base : this.guides[source].arbitrary;
  }

  canShrinkWithoutContext(_value: unknown): _value is DataCase {
    return false;
  }

  /**
   * Back to its state after its first `draws` draws (it has drawn at least that many), or undefined
   * when it has not drawn that far: a later tranche goes on from there without drawing them again.
   */
  rewound(draws: number): this | undefined {
    if (draws > this.drawn) return undefined;
    for (const [branch, at] of this.taken) if (at >= draws) this.taken.delete(branch);
    this.drawn = draws;
    return this;
  }

  shrink(value: DataCase, context: unknown): fc.Stream<fc.Value<DataCase>> {
    if (context === undefined) return fc.Stream.nil();
    const from = context as Source;
    return this.arbitraryOf(from).shrink(value, from.inner).map((v) => new fc.Value(v.value_, { ...from, inner: v.context } satisfies Source, () => v.value));
  }
}

/**
 * A lane's arbitrary of the property's cases: its sweep first, and guided when the property has
 * guides whose branches the pack's model declares; with neither, the plain one (`plain`, made
 * once and shared).
 */
export function laneArbitrary(property: DataProperty, oracle: Oracle, plain: fc.Arbitrary<DataCase>, place: LanePlace = ONLY_LANE): fc.Arbitrary<DataCase> {
  const guides = (property.guides ?? []).filter((g) => oracle.model.branches?.[g.branch] !== undefined);
  const sweep = (property.sweep ?? []).map((cases) => cases(oracle.settings, oracle));
  if (!guides.length && !sweep.length) return plain;
  const base = guides.length ? property.cases(oracle.settings, oracle) : plain;
  return new GuidedCases(base, guides.map((g) => ({ branch: g.branch, arbitrary: g.cases(oracle.settings, oracle) })), oracle, sweep, place);
}

/**
 * The arbitrary as it was when fast-check drew run `index` of the lane seeded `seed`: a guided
 * one has drawn the runs before it (fast-check's replay by path does not), the plain one is as it is.
 */
export function warmedFor(arbitrary: fc.Arbitrary<DataCase>, seed: number, index: number): fc.Arbitrary<DataCase> {
  if (arbitrary instanceof GuidedCases && index > 0) fc.sample(arbitrary, { seed, numRuns: index });
  return arbitrary;
}

/**
 * The arbitrary of a lane resumed after `skipped` draws of an earlier tranche (`inner` is in its
 * state after them): fast-check draws those runs again from the start, but their cases are not
 * used (run-data-property.ts replays their decisions), so they are not generated. Each run gets a
 * Random of its own from fast-check's seeded sequence, so leaving a run out draws every later one
 * exactly as before.
 */
export class ResumedCases extends fc.Arbitrary<DataCase> {
  private passed = 0;

  constructor(
    private readonly inner: fc.Arbitrary<DataCase>,
    private readonly skipped: number,
  ) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<DataCase> {
    if (this.passed < this.skipped) {
      this.passed++;
      return new fc.Value(NOT_DRAWN, undefined);
    }
    return this.inner.generate(mrng, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is DataCase {
    return this.inner.canShrinkWithoutContext(value);
  }

  shrink(value: DataCase, context: unknown): fc.Stream<fc.Value<DataCase>> {
    return value === NOT_DRAWN ? fc.Stream.nil() : this.inner.shrink(value, context);
  }
}

/** What a run drawn by an earlier tranche receives in place of its case (never read). */
export const NOT_DRAWN: DataCase = Object.freeze({ steps: [] }) as unknown as DataCase;
