/**
 * What policyfuzz leaves on a server it is pointed at (--database-url): nothing of its own.
 * Scratch databases are named `pf_<host>_<pid>_<start>_<n>_<role>`, so the next run can tell
 * the ones of a dead run (same host, process gone, nobody connected) and drop them; its own are
 * dropped on every end, signals included (databases.ts registers each drop for shutdown).
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import type pg from 'pg';
import { processAlive } from './process-alive.ts';

/** Six hex characters naming this machine. */
export const HOST_TAG = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 6);
/** Same for every scratch database of this process: the unit a stale check reasons about. */
const RUN_PREFIX = `pf_${HOST_TAG}_${process.pid}_${Date.now().toString(36)}_`;
let counter = 0;

export function scratchName(role: string): string {
  return `${RUN_PREFIX}${(counter++).toString(36)}_${role}`;
}

/** A run older than this whose databases nobody uses is stale even when made on another machine. */
const FOREIGN_STALE_MS = 6 * 3600_000;

interface ScratchName {
  host?: string;
  pid: number;
  started?: number;
  run: string;
}

/** `pf_<host>_<pid>_<start36>_…`, or the older `pf_<pid>_<time36>_…` (no host). */
export function parseScratchName(name: string): ScratchName | undefined {
  const tagged = /^(pf_([0-9a-f]{6})_(\d+)_([0-9a-z]+)_)/.exec(name);
  if (tagged) return { host: tagged[2], pid: Number(tagged[3]), started: parseInt(tagged[4], 36), run: tagged[1] };
  const old = /^(pf_(\d+)_)([0-9a-z]+)_/.exec(name);
  return old ? { pid: Number(old[2]), run: old[1] } : undefined;
}

/** Whether a scratch database belongs to a run that is over, given which runs have connections. */
export function isStale(name: string, busyRuns: Set<string>, now = Date.now()): boolean {
  const parsed = parseScratchName(name);
  if (!parsed || busyRuns.has(parsed.run) || name.startsWith(RUN_PREFIX)) return false;
  if (parsed.host === undefined || parsed.host === HOST_TAG) return parsed.pid !== process.pid && !processAlive(parsed.pid);
  return parsed.started !== undefined && now - parsed.started > FOREIGN_STALE_MS;
}

/** Drops the scratch databases of dead runs; returns their names. Databases it may not drop are left. */
export async function dropStaleScratchDatabases(admin: pg.Client): Promise<string[]> {
  const { rows } = await admin.query<{ datname: string; busy: boolean }>(
    `select d.datname, exists (select 1 from pg_stat_activity a where a.datname = d.datname) as busy
       from pg_database d where d.datname like 'pf\\_%' and not d.datistemplate`,
  );
  const busyRuns = new Set(rows.filter((r) => r.busy).map((r) => parseScratchName(r.datname)?.run).filter((r): r is string => r !== undefined));
  const dropped: string[] = [];
  for (const { datname } of rows) {
    if (!isStale(datname, busyRuns)) continue;
    try {
      await admin.query(`drop database if exists "${datname.replace(/"/g, '""')}" with (force)`);
      dropped.push(datname);
    } catch {
      // not ours to drop (another owner): leave it
    }
  }
  return dropped;
}
