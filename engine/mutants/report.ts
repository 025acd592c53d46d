/**
 * `policyfuzz mutants --json`: every variant with its verdict, the counts and the exit code they
 * give, for a nightly to read. The console's lines and the exit code come from the same verdicts.
 */
import { INTERRUPTED_EXIT_CODE } from '../db/cleanup.ts';
import type { KillResult } from './kill.ts';

/**
 * killed: a property disagreed on it; survived: run and no property did; equivalent: cannot change
 * an answer, not run; not-covered: no property's SQL reaches it, not run; not-run (--auto): the only
 * properties covering it already fail on the unmutated target, so it was not run (no verdict, not a
 * survivor); no-verdict: run, but no property judged it (each one's every case dropped, a harness
 * error, or none could run on the target: `reason` says which), so neither killed nor a survivor;
 * unreachable: a hand-written mutant its header says no REST request reaches, not run.
 */
export type MutantVerdict = 'killed' | 'survived' | 'equivalent' | 'not-covered' | 'not-run' | 'no-verdict' | 'unreachable';

export interface MutantEntry {
  name: string;
  bug: string;
  verdict: MutantVerdict;
  killedBy: string[];
  /** Each property run on it: killed, survived, or error. */
  properties: KillResult['verdicts'];
  timeToKillMs?: number;
  /** Why it survived, was not run, or has no verdict. */
  reason?: string;
  /** --auto: the kind of variant and the object it changes. */
  kind?: string;
  object?: string;
  notes: string[];
}

export interface MutantCounts {
  total: number;
  killed: number;
  survived: number;
  equivalent: number;
  notCovered: number;
  notRun: number;
  noVerdict: number;
  unreachable: number;
}

export interface MutantsReport {
  command: 'mutants';
  mode: 'auto' | 'hand-written';
  target: string;
  seed: number;
  runs: number;
  /** Whether variants not covered by any property fail the run (--fail-on-uncovered). */
  failOnUncovered: boolean;
  variants: MutantEntry[];
  counts: MutantCounts;
  /** The signal that stopped the run: `variants` holds those judged before it, the rest were not run (exit 130). */
  interrupted?: string;
  exitCode: 0 | 1 | typeof INTERRUPTED_EXIT_CODE;
}

export function mutantEntry(result: KillResult, verdict: MutantVerdict, extra: Pick<MutantEntry, 'reason' | 'kind' | 'object'> = {}): MutantEntry {
  return {
    name: result.mutant,
    bug: result.bug,
    verdict,
    killedBy: result.killedBy,
    properties: result.verdicts,
    ...(result.timeToKillMs === undefined ? {} : { timeToKillMs: result.timeToKillMs }),
    ...Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)),
    notes: result.notes,
  };
}

export function mutantCounts(entries: readonly MutantEntry[]): MutantCounts {
  const count = (verdict: MutantVerdict) => entries.filter((e) => e.verdict === verdict).length;
  return { total: entries.length, killed: count('killed'), survived: count('survived'), equivalent: count('equivalent'), notCovered: count('not-covered'), notRun: count('not-run'), noVerdict: count('no-verdict'), unreachable: count('unreachable') };
}

/**
 * A survivor fails the run; so does a variant not run because its covering properties already fail
 * on the unmutated target (that failure is a finding, as in fuzz, and the variant's score is unknown:
 * a run of only such variants must not pass), and one no property judged (as fuzz's NO VERDICT: a
 * mutant nothing checked must not pass unnoticed); a variant no property covers only with
 * --fail-on-uncovered (as a PARTIAL property only with fuzz --fail-on-partial).
 */
export function mutantsExitCode(counts: MutantCounts, failOnUncovered: boolean): 0 | 1 {
  return counts.survived > 0 || counts.notRun > 0 || counts.noVerdict > 0 || (failOnUncovered && counts.notCovered > 0) ? 1 : 0;
}

export type MutantsHead = Pick<MutantsReport, 'mode' | 'target' | 'seed' | 'runs' | 'failOnUncovered'>;

export function mutantsReport(head: MutantsHead, variants: MutantEntry[], interruptedBy?: string): MutantsReport {
  const counts = mutantCounts(variants);
  if (interruptedBy) return { command: 'mutants', ...head, variants, counts, interrupted: interruptedBy, exitCode: INTERRUPTED_EXIT_CODE };
  return { command: 'mutants', ...head, variants, counts, exitCode: mutantsExitCode(counts, head.failOnUncovered) };
}

/** What a run has made so far: its head once the target is resolved, each variant's verdict as it is made. */
export interface MutantsMade {
  head?: MutantsHead;
  variants: MutantEntry[];
}

/** A run that ended on a harness error (exit 2): the error, and the verdicts made before it (never discarded). */
export interface MutantsErrorReport extends Partial<MutantsHead> {
  command: 'mutants';
  error: string;
  variants: MutantEntry[];
  counts: MutantCounts;
  exitCode: 2;
}

export function mutantsErrorReport(made: MutantsMade, error: string): MutantsErrorReport {
  return { command: 'mutants', ...made.head, error, variants: made.variants, counts: mutantCounts(made.variants), exitCode: 2 };
}
