/**
 * What can end a run early, in one place: a signal (SIGINT/SIGTERM stops generation, what completed
 * is reported), `--max-failures` (the rest are named as not run) and the time budget.
 */
import { onInterrupt } from '../db/cleanup.ts';
import type { PropertyResult } from '../runner/result.ts';
import type { RunEvents } from '../report/run-events.ts';

export class RunControl {
  interruptedBy: string | undefined;
  /** Properties left out once --max-failures was reached. */
  readonly notRun: string[] = [];
  /** Each property's latest verdict: failing or not (a later verdict of the same property replaces it). */
  private readonly failing = new Map<string, boolean>();
  private stopWatching = () => {};
  private readonly aborter = new AbortController();
  /** Aborted at the interrupt: for work that waits on it (the SSO half's cases). */
  readonly signal: AbortSignal = this.aborter.signal;
  private budgetStart: number | undefined;

  constructor(
    private readonly events: RunEvents,
    private readonly maxFailures: number | undefined,
  ) {}

  readonly interrupted = (): boolean => this.interruptedBy !== undefined;

  /** From now on a signal stops the run after the cases in flight (each half re-arms it). */
  watchInterrupts(): void {
    this.stopWatching();
    this.stopWatching = onInterrupt((signal) => {
      this.interruptedBy = signal;
      this.aborter.abort();
      this.events.emit({ type: 'note', text: `\n${signal}: stopping after the cases in flight; reporting what completed`, always: true });
    });
  }

  /**
   * When a time budget of `ms` ends: counted from the first half that asks (the data half's
   * generation, or the SSO half's when it runs alone), so both halves share one budget.
   */
  budgetEndsAt(ms: number | undefined): number | undefined {
    if (!ms) return undefined;
    this.budgetStart ??= Date.now();
    return this.budgetStart + ms;
  }

  stopWatchingInterrupts(): void {
    this.stopWatching();
  }

  /** A verdict, counted for --max-failures when it fails or errs. */
  record(result: Pick<PropertyResult, 'id' | 'status'>): void {
    this.failing.set(result.id, result.status === 'failed' || result.status === 'error' || result.status === 'no-verdict');
  }

  maxFailuresReached(): boolean {
    return this.maxFailures !== undefined && [...this.failing.values()].filter(Boolean).length >= this.maxFailures;
  }
}
