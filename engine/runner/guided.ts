/**
 * Coverage-guided generation (like AFL, over the model), two ways:
 *
 * - New ground: early stop (budget.ts earlyStopReason) stops a property at its minimum only when
 *   the tranche before it reached all the ground the property reaches by then: every kind of
 *   request (a table or function × command × API role, engine/model/access.ts requestKind),
 *   every outcome class, every branch of the model it owns (groundOfCase). So in a lane's first
 *   GROUND_DRAWS draws, while it still reaches new ground, each plain draw is the first of up to
 *   GROUND_CANDIDATES candidates that reaches ground the lane has not (in its half first:
 *   groundHalf), else the first candidate: ground covered in the first cases lets a property stop
 *   at its minimum, and a fault there is found sooner. A lane stops looking after
 *   GROUND_PATIENCE draws in a row that found nothing new.
 * - Model branches: a property names generator variants known to reach branches of the model
 *   (DataProperty.guides); while a lane's cases have not yet taken such a branch, after its first
 *   GUIDE_AFTER plain draws, one draw in GUIDE_ONE_IN comes from the variant of a branch still
 *   untaken. Once taken, it is left alone.
 *
 * Deterministic: the kinds a case asks are read off its steps, its outcome classes and branches
 * are the model's answers to it (pure, kept with the case for the check), all read when the case
 * is drawn, so the arbitrary's state after n draws depends only on the lane's seed and n. A replay
 * by path (fast-check does not generate the runs a path skips) first draws the runs before it
 * (`warmedFor`), so it meets the state the run had; each lane has its own arbitrary.
 */
import fc from 'fast-check';
import type { Oracle } from '../pack.ts';
import { predictSteps } from './case-predictions.ts';
import { modelRunOf, type DataCase } from './data-case.ts';
import type { DataProperty } from './data-property.ts';
import { requestKind, requestKindKey } from '../model/access.ts';
import { asPropertyBranch } from '../model/branches.ts';
import { outcomeClass } from '../model/outcome.ts';

/** Plain draws of a lane before branch guidance may start. */
export const GUIDE_AFTER = 10;
/** Once guiding, one draw in this many comes from a variant of an untaken branch. */
export const GUIDE_ONE_IN = 3;
/** Candidates a plain draw looks at for ground the lane has not reached. */
export const GROUND_CANDIDATES = 16;
/** Draws in a row that reached no new ground (with all their candidates) before a lane stops looking. */
export const GROUND_PATIENCE = 4;
/**
 * The draws of a lane that look for new ground: a lane's share of the first tranche (budget.ts
 * FIRST_TRANCHE) with pr's two workers. Early stop asks that the tranche after it reach nothing
 * new: ground found past it would only keep a property from stopping (measured:
 * bench/early-stop-kills.ts), and looking costs generation.
 */
export const GROUND_DRAWS = 25;

interface Source {
  /** -1: the property's own cases; else the index of the guide. */
  source: number;
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
 * What a case reaches of the ground early stop watches (budget.ts earlyStopReason), as keys: the
 * kinds of request its steps ask (`kind:users|update|anon`), the outcome classes the model
 * answers them with (`class:errored`), and the branches of property `propertyId` it takes
 * (`branch:R03.remark.by-case-only`). A model run's steps are not known ahead: none.
 */
export function groundOfCase(testCase: DataCase, oracle: Oracle, propertyId: string): string[] {
  if (modelRunOf(testCase)) return [];
  const kinds = testCase.steps.map((s) => `kind:${requestKindKey(requestKind(s.caller, s.request))}`);
  // Up to the first step the model cannot answer, as branchesOfCase.
  const answered = predictSteps(oracle, testCase).flatMap((s) => ('prediction' in s ? [s.prediction] : []));
  const classes = answered.map((p) => `class:${outcomeClass(p.outcome)}`);
  const branches = answered.flatMap((p) => (p.branches ?? []).flatMap((id) => asPropertyBranch(oracle.model.branches, propertyId, id) ?? []));
  return [...kinds, ...classes, ...branches.map((id) => `branch:${id}`)];
}

/**
 * Which half of the ground a key is in (0 or 1, a hash of it). A lane looks first for new ground
 * in the half its seed's parity names: the two lanes of a run (consecutive seeds) split it
 * instead of both covering the same, and a replay knows its half from its seed alone.
 */
export function groundHalf(key: string): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
  return h & 1;
}

export class GuidedCases extends fc.Arbitrary<DataCase> {
  /** Each key of ground (groundOfCase) reached so far, with the draw that first reached it (what `rewound` undoes). */
  private readonly reached = new Map<string, number>();
  private drawn = 0;

  constructor(
    private readonly base: fc.Arbitrary<DataCase>,
    private readonly guides: readonly { branch: string; arbitrary: fc.Arbitrary<DataCase> }[],
    private readonly oracle: Oracle,
    private readonly propertyId: string,
    /** The half of the ground this lane looks in first (groundHalf): its seed's parity. */
    private readonly half: number,
  ) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<DataCase> {
    let source = -1;
    if (this.drawn >= GUIDE_AFTER) {
      const open = this.guides.flatMap((g, i) => (this.reached.has(`branch:${g.branch}`) ? [] : [i]));
      if (open.length && mrng.nextInt(1, GUIDE_ONE_IN) === 1) source = open[mrng.nextInt(0, open.length - 1)];
    }
    const value = source < 0 ? this.plainDraw(mrng, biasFactor) : this.guides[source].arbitrary.generate(mrng, biasFactor);
    // The model's answers are kept with the case (case-predictions.ts): the check reads them, not made again.
    for (const key of this.ground(value.value_)) if (!this.reached.has(key)) this.reached.set(key, this.drawn);
    this.drawn++;
    return new fc.Value(value.value_, { source, inner: value.context } satisfies Source, () => value.value);
  }

  private ground(testCase: DataCase): string[] {
    return groundOfCase(testCase, this.oracle, this.propertyId);
  }

  /**
   * A draw of the property's own cases: while the lane still reaches new ground, the first of
   * GROUND_CANDIDATES candidates reaching new ground in its half, else the first reaching any, else the first.
   */
  private plainDraw(mrng: fc.Random, biasFactor: number | undefined): fc.Value<DataCase> {
    const first = this.base.generate(mrng, biasFactor);
    if (this.drawn >= GROUND_DRAWS) return first;
    // Read off what was reached alone, so a rewound lane looks exactly as it did: the last draw that reached new ground.
    const lastNew = Math.max(-1, ...this.reached.values());
    if (this.drawn - lastNew > GROUND_PATIENCE) return first;
    let other: fc.Value<DataCase> | undefined;
    for (let candidate = first, n = 1; ; candidate = this.base.generate(mrng, biasFactor), n++) {
      const fresh = this.ground(candidate.value_).filter((k) => !this.reached.has(k));
      if (fresh.some((k) => groundHalf(k) === this.half)) return candidate;
      if (fresh.length) other ??= candidate;
      if (n === GROUND_CANDIDATES) return other ?? first;
    }
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
    for (const [key, at] of this.reached) if (at >= draws) this.reached.delete(key);
    this.drawn = draws;
    return this;
  }

  shrink(value: DataCase, context: unknown): fc.Stream<fc.Value<DataCase>> {
    if (context === undefined) return fc.Stream.nil();
    const { source, inner } = context as Source;
    const arbitrary = source < 0 ? this.base : this.guides[source].arbitrary;
    return arbitrary.shrink(value, inner).map((v) => new fc.Value(v.value_, { source, inner: v.context } satisfies Source, () => v.value));
  }
}

/**
 * A lane's arbitrary of the property's cases (`plain`, made once and shared, drawn from through
 * it), guided toward new kinds of request and toward the branches of the property's guides that
 * the pack's model declares.
 */
export function laneArbitrary(property: DataProperty, oracle: Oracle, plain: fc.Arbitrary<DataCase>, laneSeed: number): GuidedCases {
  const guides = (property.guides ?? []).filter((g) => oracle.model.branches?.[g.branch] !== undefined);
  return new GuidedCases(plain, guides.map((g) => ({ branch: g.branch, arbitrary: g.cases(oracle.settings, oracle) })), oracle, property.id, laneSeed & 1);
}

/**
 * The arbitrary as it was when fast-check drew run `index` of the lane seeded `seed`: a guided
 * one has drawn the runs before it (fast-check's replay by path does not).
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
