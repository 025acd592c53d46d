/** `--json`: summary.json on stdout for scripts, once the run is over (everything else went to stderr). */
import type { RunReporter } from '../run-events.ts';

export function jsonStdoutReporter(write: (text: string) => void = (t) => void process.stdout.write(t)): RunReporter {
  return {
    on(event) {
      if (event.type === 'run-finished') write(`${JSON.stringify(event.summary, null, 2)}\n`);
    },
  };
}
