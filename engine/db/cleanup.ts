/**
 * Whatever policyfuzz starts must stop: on normal exit, on failure, on Ctrl-C and SIGTERM.
 * Each resource registers an async stop; signals run them all once, then exit with the
 * conventional code (130 for SIGINT, 143 for SIGTERM).
 */
type Stopper = () => Promise<void>;

const stoppers = new Set<Stopper>();
let signalsInstalled = false;
let stopping: Promise<void> | undefined;

export function onShutdown(stop: Stopper): () => void {
  installSignalHandlers();
  stoppers.add(stop);
  return () => stoppers.delete(stop);
}

export function stopAll(): Promise<void> {
  stopping ??= (async () => {
    const all = [...stoppers].reverse();
    stoppers.clear();
    for (const stop of all) {
      try {
        await stop();
      } catch {
        // best effort: one failed stop must not keep the others from running
      }
    }
  })().finally(() => {
    stopping = undefined;
  });
  return stopping;
}

function installSignalHandlers(): void {
  if (signalsInstalled) return;
  signalsInstalled = true;
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.once(signal, () => {
      void stopAll().finally(() => process.exit(code));
    });
  }
}
