/**
 * What can end a run early, in one place: a signal (SIGINT/SIGTERM stops generation, what completed
 * is reported), `--max-failures` (the rest are named as not run) and the time budget.
 */
import { InterruptWatch } from '../db/cleanup.ts';
import type { PropertyResult } from '../runner/result.ts';
import type { RunEvents } from '../report/run-events.ts';

export class RunControl {
  /** Properties left out once --max-failures was reached. */
  readonly notRun: string[] = [];
  /** Each property's latest verdict: failing or not (a later verdict of the same property replaces it). */
  private readonly failing = new Map<string, boolean>();
  private readonly interrupt = new InterruptWatch('the cases in flight', (line) => this.events.emit({ type: 'note', text: `\n${line}`, always: true }));
  /** Aborted at the interrupt: for work that waits on it (the SSO half's cases). */
  readonly signal: AbortSignal = this.interrupt.signal;
  private budgetStart: number | undefined;

  constructor(
    private readonly events: RunEvents,
    private readonly maxFailures: number | undefined,
  ) {}

  /** The signal that interrupted the run, if one did. */
  get interruptedBy(): string | undefined {
    return this.interrupt.received;
  }

  readonly interrupted = (): boolean => this.interrupt.stopped();

  /** From now on a signal stops the run after the cases in flight (each half re-arms it). */
  watchInterrupts(): void {
    this.interrupt.arm();
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
    this.interrupt.end();
  }

  /** A verdict, counted for --max-failures when it fails or errs. */
  record(result: Pick<PropertyResult, 'id' | 'status'>): void {
    this.failing.set(result.id, result.status === 'failed' || result.status === 'error' || result.status === 'no-verdict');
  }

  /** Whether --max-failures was given: a property's verdict may then leave out those after it. */
  get limitsFailures(): boolean {
    return this.maxFailures !== undefined;
  }

  maxFailuresReached(): boolean {
    return this.maxFailures !== undefined && [...this.failing.values()].filter(Boolean).length >= this.maxFailures;
  }
}
