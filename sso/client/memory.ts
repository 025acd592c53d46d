import { readdirSync, readFileSync } from 'node:fs';

/**
 * Memory of this process and all its descendants (chromium's processes included), read from
 * /proc: the proportional set size (shared pages divided among the processes that share them,
 * so chromium's shared libraries are not counted once per process), or the resident size where
 * PSS cannot be read. On systems without /proc, this process's resident size alone.
 */
export function treeRssBytes(root = process.pid): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return process.memoryUsage().rss;
  }
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const d of entries) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(fields[1]));
      rss.set(Number(d), Number(fields[21]) * 4096);
    } catch {
      // the process ended while we looked
    }
  }
  let total = 0;
  for (const [pid, bytes] of rss) {
    for (let p: number | undefined = pid; p !== undefined && p > 0; p = parent.get(p)) {
      if (p === root) {
        total += pssBytes(pid) ?? bytes;
        break;
      }
    }
  }
  return total || process.memoryUsage().rss;
}

/** Samples treeRssBytes every `everyMs` until stopped; returns the peak. */
export function samplePeakMemory(everyMs = 1000): { stop(): number } {
  let peak = treeRssBytes();
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRssBytes());
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, treeRssBytes());
    },
  };
}

function pssBytes(pid: number): number | null {
  try {
    const kb = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}
