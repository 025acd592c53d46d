/**
 * CPU read from Linux's /proc, for the benches: on a shared machine wall time follows the load,
 * CPU (user + sys) follows the work.
 */
import { readFileSync } from 'node:fs';

/** Linux's clock tick (USER_HZ), the unit of /proc/<pid>/stat times: 100 on every mainstream kernel. */
const CLOCK_TICKS = 100;

/** A /proc/<pid>/stat's fields after the command's closing parenthesis: field 3 (state) is index 0. */
function statFields(pid: number | 'self'): string[] {
  return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
}

/** CPU (ms, user + sys) of this process's waited-for children and theirs: a finished CLI run, its server and the server's backends. */
export function childrenCpuMs(): number {
  // cutime (field 16) index 13, cstime (17) index 14.
  const fields = statFields('self');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
}

/** CPU the processes have used so far (ms, user + sys); undefined where it cannot be read (another machine, not Linux). */
export function processesCpuMs(pids: readonly number[]): number | undefined {
  let total = 0;
  for (const pid of pids) {
    try {
      // utime (14) index 11, stime (15) index 12.
      const fields = statFields(pid);
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      return undefined;
    }
  }
  return total;
}
