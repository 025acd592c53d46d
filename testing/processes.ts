/** Processes whose command line names this path (postgres, cp, initdb of a run under it): what a run must not leave behind. */
import { readdirSync, readFileSync } from 'node:fs';

export function processesUsing(dir: string): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir);
      } catch {
        return false;
      }
    })
    .map(Number);
}
