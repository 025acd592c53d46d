/**
 * One run at a time per report folder. Two runs writing one folder (two nightly jobs, a developer's
 * run during CI) would each remove and overwrite the other's files, and the folder would end with
 * one run's reports, or a mix, read as the other's. A run holds `policyfuzz.lock` in the folder
 * while it runs (its pid, host and start); a second run refuses, naming the first. A lock whose run
 * is gone (SIGKILL, a lost runner) is taken over.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../errors.ts';
import type { RunningMark } from './summary.ts';

export const REPORT_LOCK_FILE = 'policyfuzz.lock';

interface LockHolder extends RunningMark {
  host: string;
}

/**
 * Takes the report folder for this run, or throws a UsageError naming the live run that holds it.
 * A folder that cannot be written is not this lock's to judge: the run goes on, and writing its
 * reports says what is wrong, in one line (as report/write.ts markReportsRunning).
 */
export function lockReportFolder(dir: string, running: RunningMark, option = '--report-dir'): void {
  const file = path.join(dir, REPORT_LOCK_FILE);
  const mine: LockHolder = { ...running, host: os.hostname() };
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    return;
  }
  // Twice at most: a stale lock is removed, then created afresh (exclusive create: of two runs
  // starting at once, one gets it).
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${JSON.stringify(mine, null, 2)}\n`, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return;
    }
    const holder = lockHolder(file);
    if (holder && holdsLive(holder)) {
      const of = `pid ${holder.pid}${holder.host === mine.host ? '' : ` on ${holder.host}`}, started ${holder.startedAt}${holder.shard ? `, shard ${holder.shard}` : ''}`;
      throw new UsageError(`${option} ${dir} is in use by another policyfuzz run (${of}): wait for it to end, or give this run a folder of its own with ${option} (if no such run is going, delete ${file})`);
    }
    rmSync(file, { force: true });
  }
}

/** At the run's end, however it ends: its lock goes; another run's stays. */
export function unlockReportFolder(dir: string, pid: number): void {
  const file = path.join(dir, REPORT_LOCK_FILE);
  const holder = lockHolder(file);
  if (holder?.pid === pid && holder.host === os.hostname()) rmSync(file, { force: true });
}

/** The lock's holder; undefined for a file that is no lock (unreadable, half written): taken over. */
function lockHolder(file: string): LockHolder | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    return typeof data.pid === 'number' && typeof data.host === 'string' && typeof data.startedAt === 'string' ? (data as LockHolder) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the holder's run may still be going. On this host: its process is alive and is not this
 * one (a run called again in the same process has ended its earlier run). On another host (a shared
 * folder) its process cannot be asked: it counts as live, and the message says how to clear it.
 */
function holdsLive(holder: LockHolder): boolean {
  if (holder.host !== os.hostname()) return true;
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
