/**
 * Whatever policyfuzz starts must stop: on normal exit, on failure, on Ctrl-C and SIGTERM.
 * Each resource registers an async stop as soon as it exists (a server still starting, a
 * scratch database), so a signal at any moment stops what has started.
 *
 * A signal normally runs every stop once and exits 130 (interrupted). While a run has an
 * interrupt handler installed (onInterrupt), the first signal goes to it instead: the run stops
 * generating, reports what completed marked interrupted, and cleans up itself; a second signal,
 * or a handler that takes longer than INTERRUPT_GRACE_MS, stops everything at once.
 */
type Stopper = () => Promise<void>;
const stoppers = new Set<Stopper>();
let signalsInstalled = false;
let stopping: Promise<void> | undefined;

/** The exit code of an interrupted run, whichever signal interrupted it. */
export const INTERRUPTED_EXIT_CODE = 130;
export const INTERRUPT_GRACE_MS = 15_000;

export function onShutdown(stop: Stopper): () => void {
  installSignalHandlers();
  stoppers.add(stop);
  return () => stoppers.delete(stop);
}

export function stopAll(): Promise<void> {
  stopping ??= (async () => {
    // Until none is left: a start-up still under way when the signal came may start more while
    // these stop (the local server's spare copy, begun once its workers were ready): stopped
    // too, or its `cp` outlived the run and its half copy stayed until the next start.
    while (stoppers.size) {
      const all = [...stoppers].reverse();
      stoppers.clear();
      for (const stop of all) {
        try {
          await stop();
        } catch {
          // best effort: one failed stop must not keep the others from running
        }
      }
    }
  })().finally(() => {
    stopping = undefined;
  });
  return stopping;
}

type InterruptHandler = (signal: NodeJS.Signals) => void;
let interruptHandler: InterruptHandler | undefined;
let receivedSignal: NodeJS.Signals | undefined;

/**
 * While installed, the first SIGINT/SIGTERM/SIGHUP calls `handler` (which must end the run soon)
 * instead of stopping everything. Returns the uninstaller.
 */
export function onInterrupt(handler: InterruptHandler): () => void {
  installSignalHandlers();
  interruptHandler = handler;
  if (receivedSignal) handler(receivedSignal);
  return () => {
    if (interruptHandler === handler) interruptHandler = undefined;
  };
}

/**
 * A command's interrupt, the one way fuzz, mutants and sso check take it: while armed, the first
 * SIGINT/SIGTERM/SIGHUP is recorded (`received`), aborts `signal` (for work that waits on it), and
 * is said as `<SIGNAL>: stopping after <what is in flight>; reporting what completed`.
 */
export class InterruptWatch {
  received: NodeJS.Signals | undefined;
  private readonly aborter = new AbortController();
  readonly signal: AbortSignal = this.aborter.signal;
  private disarm = () => {};

  constructor(
    private readonly inFlight: string,
    private readonly say: (line: string) => void,
  ) {}

  readonly stopped = (): boolean => this.received !== undefined;

  /** From now on (again, where another handler took the signal in between) a signal stops the work in flight. */
  arm(): this {
    this.disarm();
    this.disarm = onInterrupt((signal) => {
      this.received = signal;
      this.aborter.abort();
      this.say(`${signal}: stopping after ${this.inFlight}; reporting what completed`);
    });
    return this;
  }

  end(): void {
    this.disarm();
  }
}

/** The signal that interrupted this process, if one did. */
export function interruptSignal(): NodeJS.Signals | undefined {
  return receivedSignal;
}

/** What the process is doing that a signal would cut short ("applying 0042_x.sql"), newest last. */
const activities: string[] = [];
let announced = false;

/** Names what is under way until the returned function is called: an interrupt says it was cut short. */
export function setActivity(what: string): () => void {
  activities.push(what);
  return () => {
    const i = activities.lastIndexOf(what);
    if (i >= 0) activities.splice(i, 1);
  };
}

/**
 * One line saying the run was interrupted and while doing what, printed once: whatever fails
 * afterwards because its server or connection was stopped is a consequence, not news.
 */
export function announceInterrupt(): void {
  if (announced || !receivedSignal) return;
  announced = true;
  const what = activities.at(-1);
  process.stderr.write(`policyfuzz: interrupted by ${receivedSignal}${what ? ` while ${what}` : ''}; stopping\n`);
}

function stopEverythingAndExit(): void {
  announceInterrupt();
  void stopAll().finally(() => process.exit(INTERRUPTED_EXIT_CODE));
}

/** Installed at the start of the CLI, before any server starts; idempotent. */
export function installSignalHandlers(): void {
  if (signalsInstalled) return;
  signalsInstalled = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      const first = receivedSignal === undefined;
      receivedSignal ??= signal;
      const handler = interruptHandler;
      if (first && handler) {
        interruptHandler = undefined;
        setTimeout(stopEverythingAndExit, INTERRUPT_GRACE_MS).unref();
        handler(signal);
        return;
      }
      // Nothing of ours to stop and someone else listens (the SSO emulator's own stop): theirs.
      if (stoppers.size === 0 && process.listenerCount(signal) > 1) return;
      stopEverythingAndExit();
    });
  }
}
