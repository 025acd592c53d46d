/**
 * Where a property's time goes (summary.json `timings`, `fuzz --timings`), measured as it runs:
 * - generation: fast-check drawing cases (the arbitrary's own time);
 * - model: the model's predictions, the fixtures and requests made ready, the clause tallies;
 * - database: the time a lane had a case in the database (written, not yet answered and judged);
 * - shrinking: the wall time of shrinking the findings.
 * Generation, model and database are summed over the workers' lanes, and overlap: a lane's next
 * case is drawn and made ready while the one before it is in the database.
 */
import fc from 'fast-check';

export interface PropertyTimings {
  generationMs: number;
  modelMs: number;
  databaseMs: number;
  shrinkingMs: number;
}

export function noTimings(): PropertyTimings {
  return { generationMs: 0, modelMs: 0, databaseMs: 0, shrinkingMs: 0 };
}

export function addTimings(a: PropertyTimings | undefined, b: PropertyTimings | undefined): PropertyTimings | undefined {
  if (!a || !b) return a ?? b;
  return { generationMs: a.generationMs + b.generationMs, modelMs: a.modelMs + b.modelMs, databaseMs: a.databaseMs + b.databaseMs, shrinkingMs: a.shrinkingMs + b.shrinkingMs };
}

/** Whole milliseconds, as reported. */
export function roundTimings(t: PropertyTimings): PropertyTimings {
  return { generationMs: Math.round(t.generationMs), modelMs: Math.round(t.modelMs), databaseMs: Math.round(t.databaseMs), shrinkingMs: Math.round(t.shrinkingMs) };
}

/** Adds the time `work` takes to `into[key]`. */
export function timed<T>(into: PropertyTimings, key: keyof PropertyTimings, work: () => T): T {
  const started = performance.now();
  try {
    return work();
  } finally {
    into[key] += performance.now() - started;
  }
}

/**
 * The same arbitrary, its drawing timed into `into.generationMs`: it draws exactly the values
 * (and shrinks exactly as) `inner` does.
 */
export class TimedArbitrary<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly inner: fc.Arbitrary<T>,
    private readonly into: PropertyTimings,
  ) {
    super();
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return timed(this.into, 'generationMs', () => this.inner.generate(mrng, biasFactor));
  }
  canShrinkWithoutContext(value: unknown): value is T {
    return this.inner.canShrinkWithoutContext(value);
  }
  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.inner.shrink(value, context);
  }
}

/**
 * The time a lane has at least one case in the database: `enter` when a case is written, `leave`
 * when it is answered and judged (two cases of a lane may be in the database at once).
 */
export class BusyClock {
  private inFlight = 0;
  private since = 0;
  constructor(
    private readonly into: PropertyTimings,
    private readonly key: keyof PropertyTimings = 'databaseMs',
  ) {}
  enter(): void {
    if (this.inFlight++ === 0) this.since = performance.now();
  }
  leave(): void {
    if (--this.inFlight === 0) this.into[this.key] += performance.now() - this.since;
  }
}
