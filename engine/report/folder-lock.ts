/**
 * One run at a time per report folder. Two runs writing one folder (two nightly jobs, a developer's
 * run during CI) would each remove and overwrite the other's files, and the folder would end with
 * one run's reports, or a mix, read as the other's. A run holds `policyfuzz.lock` in the folder
 * while it runs (its pid, host and start); a second run refuses, naming the first. A lock whose run
 * is gone (SIGKILL, a lost runner) is taken over.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processAlive } from '../db/process-alive.ts';
import { UsageError } from '../errors.ts';
import type { RunningMark } from './summary.ts';

export const REPORT_LOCK_FILE = 'policyfuzz.lock';

interface LockHolder extends RunningMark {
  host: string;
  /** When the run is surely over (its time budget, plus start-up, shrinking and reports): past it the lock is stale on any host. */
  staleAfter?: string;
}

/** Start-up, shrinking and reports past a run's time budget: a lock older than budget + this is stale. */
const LOCK_GRACE_MS = 60 * 60 * 1000;

/**
 * Takes the report folder for this run, or throws a UsageError naming the live run that holds it.
 * A folder that cannot be written is not this lock's to judge: the run goes on, and writing its
 * reports says what is wrong, in one line (as report/write.ts markReportsRunning).
 */
export function lockReportFolder(dir: string, running: RunningMark, option = '--report-dir', timeBudgetMs?: number): void {
  const file = path.join(dir, REPORT_LOCK_FILE);
  const mine: LockHolder = {
    ...running,
    host: os.hostname(),
    ...(timeBudgetMs ? { staleAfter: new Date(Date.parse(running.startedAt) + timeBudgetMs + LOCK_GRACE_MS).toISOString() } : {}),
  };
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    return;
  }
  // Written whole under a name of its own, then linked into place: the link is atomic and fails if
  // the lock is there, so of two runs starting at once one gets it, and no run reads a half-written lock.
  const written = `${file}.${process.pid}.new`;
  try {
    writeFileSync(written, `${JSON.stringify(mine, null, 2)}\n`);
  } catch {
    return;
  }
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(written, file);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return;
      }
      takeOverStale(file, mine, option, dir);
    }
  } finally {
    rmSync(written, { force: true });
  }
}

/**
 * Moves a stale lock aside, or throws naming the live run that holds it. The move is a rename, so
 * of two runs taking one stale lock over only one moves it; the other moves the winner's fresh lock,
 * sees it live, puts it back and refuses.
 */
function takeOverStale(file: string, mine: LockHolder, option: string, dir: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch {
    return; // gone meanwhile: link again
  }
  const holder = lockHolder(aside);
  if (holder && holdsLive(holder)) {
    try {
      linkSync(aside, file);
    } catch {
      // another run took the folder meanwhile: its lock stands, and this run refuses all the same
    }
    rmSync(aside, { force: true });
    const of = `pid ${holder.pid}${holder.host === mine.host ? '' : ` on ${holder.host}`}, started ${holder.startedAt}${holder.shard ? `, shard ${holder.shard}` : ''}`;
    throw new UsageError(`${option} ${dir} is in use by another policyfuzz run (${of}): wait for it to end, or give this run a folder of its own with ${option} (if no such run is going, delete ${file})`);
  }
  rmSync(aside, { force: true });
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
 * Whether the holder's run may still be going. Past its `staleAfter` (budget and grace), on any host,
 * it is not. On this host: its process is alive and is not this one (a run called again in the same
 * process has ended its earlier run). On another host (a shared folder, a container's own hostname)
 * its process cannot be asked: it counts as live until `staleAfter`, and the message says how to clear it.
 */
function holdsLive(holder: LockHolder): boolean {
  if (holder.staleAfter && Date.parse(holder.staleAfter) < Date.now()) return false;
  if (holder.host !== os.hostname()) return true;
  if (holder.pid === process.pid) return false;
  return processAlive(holder.pid);
}
