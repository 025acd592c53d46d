/**
 * What a run tells its reporters, in order. The run (cli/fuzz/) only emits; the console, the failure
 * store, the report files, the GitHub step summary and `--json` are subscribers (engine/report/reporters/).
 * A reporter may emit follow-up events (the report files announce what they wrote): those are
 * delivered after every reporter has seen the current event, so each reporter sees one order.
 */
import type { FailureRecord } from '../failures/schema.ts';
import type { BaselineCheck } from '../findings/baseline.ts';
import type { SavedFor } from './console.ts';
import type { RunSummary } from './summary.ts';
import type { ReportFiles } from './write.ts';
import type { Environment } from '../runner/environment.ts';
import type { PropertyResult } from '../runner/result.ts';

/** How the run ended, for the console's last line and the exit code. */
export interface RunVerdict {
  passed: number;
  failed: number;
  partial: number;
  notReached: number;
  notApplicable: number;
  /** Properties whose every case was dropped (status `no-verdict`): they fail the exit code. */
  noVerdict?: number;
  notRun: string[];
  /** `N passed, N failed (seed S)`: the line CI reads. */
  line: string;
  exitCode: number;
}

export type RunEvent =
  /** A line for a person; `always` lines are printed under --quiet too (warnings, interrupts). */
  | { type: 'note'; text: string; always?: boolean }
  | { type: 'saved-failure-replayed'; file: string; property: string; stillFails: boolean; digestChange?: string }
  | { type: 'generation-started'; plannedCases: number }
  | { type: 'case-finished'; property: string }
  /** A property's cases are done and its findings are being shrunk (seconds, even minutes, with no case finishing). */
  | { type: 'shrinking-started'; property: string; findings: number }
  | { type: 'generation-finished' }
  /**
   * A property's verdict. `environment` is the database the cases ran on (the failure store builds
   * repros from it); `savedFile` is set when the verdict is a saved failure replayed as it was.
   */
  | { type: 'property-finished'; result: PropertyResult; environment?: Environment; savedFile?: { record: FailureRecord; file: string } }
  | {
      type: 'run-finished';
      results: PropertyResult[];
      summary: RunSummary;
      saved: ReadonlyMap<string, SavedFor>;
      baselineChecks: BaselineCheck[];
      baselineWritten?: { file: string; findings: number };
      maxFailures?: number;
      interruptedBy?: string;
      verdict: RunVerdict;
    }
  /** `error`: the report folder could not be written (what was written before it is in `files`). */
  | { type: 'reports-written'; files: ReportFiles; error?: string };

export type RunEventType = RunEvent['type'];
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/** A subscriber: it handles the events it cares about and ignores the rest. */
export interface RunReporter {
  on(event: RunEvent, bus: RunEvents): void;
}

export class RunEvents {
  private readonly reporters: RunReporter[] = [];
  private readonly queue: RunEvent[] = [];
  private dispatching = false;

  subscribe(...reporters: RunReporter[]): this {
    this.reporters.push(...reporters);
    return this;
  }

  /**
   * Every reporter sees every event, in order, even when one of them throws (a report folder
   * that cannot be written must not hide the verdict line); the first error is thrown once the
   * queue is delivered.
   */
  emit(event: RunEvent): void {
    this.queue.push(event);
    if (this.dispatching) return; // delivered once every reporter has seen the current event
    this.dispatching = true;
    let failure: { error: unknown } | undefined;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        for (const reporter of this.reporters) {
          try {
            reporter.on(next, this);
          } catch (error) {
            failure ??= { error };
          }
        }
      }
    } finally {
      this.dispatching = false;
      this.queue.length = 0;
    }
    if (failure) throw failure.error;
  }
}
