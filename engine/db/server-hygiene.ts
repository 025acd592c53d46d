/**
 * What policyfuzz leaves on a server it is pointed at (--database-url): nothing of its own.
 * Scratch databases are named `pf_<host>_<pid>_<start>_<n>_<role>`, so the next run can tell
 * the ones of a dead run (same host, process gone, nobody connected) and drop them; its own are
 * dropped on every end, signals included (databases.ts registers each drop for shutdown).
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import type pg from 'pg';
import { newClient } from './client.ts';
import { processAlive } from './process-alive.ts';

/** Six hex characters naming this machine. */
export const HOST_TAG = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 6);
/** Same for every scratch database of this process: the unit a stale check reasons about. */
const RUN_PREFIX = `pf_${HOST_TAG}_${process.pid}_${Date.now().toString(36)}_`;
let counter = 0;

export function scratchName(role: string): string {
  return `${RUN_PREFIX}${(counter++).toString(36)}_${role}`;
}

/** A run older than this whose databases nobody uses is stale even when made on another machine, unless it holds its presence lock. */
const FOREIGN_STALE_MS = 6 * 3600_000;

/**
 * A run's presence on a server (markRunPresent): a session advisory lock (this class, a key of its
 * run prefix) held by a connection of its own for the process's life, seen in pg_locks from any
 * database. A run on another machine cannot be asked whether its process lives; between its
 * connections (a template built, its copies not yet made) its databases have none, and a long
 * sharded run past FOREIGN_STALE_MS had them dropped under it.
 */
export const PRESENCE_LOCK_CLASS = 0x70667072;

/** A run prefix's presence lock key: 31 bits of its hash (pg_locks shows the int4 as an unsigned oid). */
export function presenceKey(run: string): number {
  return createHash('sha256').update(run).digest().readUInt32BE(0) >>> 1;
}

/** The servers (admin URLs) this process holds its presence on. */
const presentOn = new Set<string>();

/**
 * Holds this run's presence lock on the server until the process ends (the socket does not keep it
 * alive; the server releases the lock when the connection closes). Not awaited: its first
 * FOREIGN_STALE_MS a run is live by its age alone. A server that refuses it leaves the age alone.
 */
export function markRunPresent(adminUrl: string): void {
  if (presentOn.has(adminUrl)) return;
  presentOn.add(adminUrl);
  const client = newClient({ connectionString: adminUrl, keepAlive: true, application_name: 'policyfuzz presence' });
  void client
    .connect()
    .then(() => {
      (client as unknown as { connection: { stream: { unref(): void } } }).connection.stream.unref();
      return client.query('select pg_advisory_lock($1, $2)', [PRESENCE_LOCK_CLASS, presenceKey(RUN_PREFIX)]);
    })
    .catch(() => presentOn.delete(adminUrl));
}

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

/** Whether a scratch database belongs to a run that is over, given which runs have connections and which hold their presence (presenceKey). */
export function isStale(name: string, busyRuns: Set<string>, now = Date.now(), presentKeys: ReadonlySet<number> = new Set()): boolean {
  const parsed = parseScratchName(name);
  if (!parsed || busyRuns.has(parsed.run) || presentKeys.has(presenceKey(parsed.run)) || name.startsWith(RUN_PREFIX)) return false;
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
  const present = await admin.query<{ key: string }>(`select objid::text as key from pg_locks where locktype = 'advisory' and classid = $1 and objsubid = 2 and granted`, [PRESENCE_LOCK_CLASS]);
  const presentKeys = new Set(present.rows.map((r) => Number(r.key)));
  const dropped: string[] = [];
  for (const { datname } of rows) {
    if (!isStale(datname, busyRuns, Date.now(), presentKeys)) continue;
    // Another machine's run connecting since it was read refuses the drop (no force): its process may live.
    const host = parseScratchName(datname)?.host;
    const force = host === undefined || host === HOST_TAG ? ' with (force)' : '';
    try {
      await admin.query(`drop database if exists "${datname.replace(/"/g, '""')}"${force}`);
      dropped.push(datname);
    } catch {
      // not ours to drop (another owner): leave it
    }
  }
  return dropped;
}
