/**
 * Issue 27, start-up paid once: the catalog reads a run makes before its first case (the schema
 * cache, the tables' shapes, seeded rows, ... : runner/environment.ts) depend only on the
 * template's database, the reads' own inputs (schemas, bypass triggers) and the code reading
 * them. A kept template (template-cache.ts) is that database, named by the digest of what built
 * it, so the reads are kept beside it under a key of that digest, the inputs and a digest of the
 * engine's code: a second run on an unchanged project reads a file instead of the catalog. A
 * changed migration changes the digest, so a stale catalog is never read; the server's identity
 * (serverIdentity) is in the key too, since one server's reads must never answer another's run.
 *
 * Kept as files under the local cache (`policyfuzz cache clear` removes them with the rest). Each
 * engine change adds one per template: a template's files beyond the KEPT_CATALOGS most recently
 * used are removed when one is kept, as the local server keeps its templates (local-server.ts),
 * and the folder's beyond KEPT_CATALOGS_IN_ALL.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { ROLES_A_REQUEST_USES, SETTINGS_TURN_TAKEN } from './role-settings.ts';

/** Bumped when what is kept changes shape in a way the engine's code digest would not show. */
const CATALOG_CACHE_FORMAT = 1;

/** Catalog files kept per template (its digest), the most recently used first: as many as the local server keeps templates. */
export const KEPT_CATALOGS = 3;
/**
 * Catalog files kept in all, the most recently used first: each mutant of `policyfuzz mutants` is a
 * digest of its own (a kept template and the files on top), so a nightly mutants run adds hundreds
 * (about 60 KB each); without a bound they piled up until `cache clear`.
 */
export const KEPT_CATALOGS_IN_ALL = 400;

/** Maps and Sets survive JSON under these tags (a catalog's facts hold both). */
const MAP_TAG = '\u0000map';
const SET_TAG = '\u0000set';

function encode(_key: string, value: unknown): unknown {
  if (value instanceof Map) return { [MAP_TAG]: [...value] };
  if (value instanceof Set) return { [SET_TAG]: [...value] };
  return value;
}

function decode(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    if (MAP_TAG in value) return new Map((value as Record<string, [unknown, unknown][]>)[MAP_TAG]);
    if (SET_TAG in value) return new Set((value as Record<string, unknown[]>)[SET_TAG]);
  }
  return value;
}

export function encodeCatalog(value: unknown): string {
  return JSON.stringify(value, encode);
}

export function decodeCatalog<T>(text: string): T {
  return JSON.parse(text, decode) as T;
}

let engineDigest: string | undefined;

/** The engine's digest the build wrote beside the compiled engine (scripts/build.mjs): read, not hashed again at every start. */
export const BUILT_ENGINE_DIGEST = 'code-digest.txt';

/**
 * The engine's code as this process runs it (engine/, compiled or not): a reader changed by an
 * upgrade or an edit must not be answered by what the old one read. The built package's is
 * computed once by the build (hashing its ~300 files took ~58 ms of every start); from the
 * sources it is hashed here.
 */
export function engineCodeDigest(engineDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')): string {
  return (engineDigest ??= codeDigestOf(engineDir));
}

/** The digest the build wrote in `engineDir`, else the files hashed. */
export function codeDigestOf(engineDir: string): string {
  try {
    const built = readFileSync(path.join(engineDir, BUILT_ENGINE_DIGEST), 'utf8').trim();
    if (built) return built;
  } catch {
    // Not built: the sources.
  }
  return hashEngineCode(engineDir);
}

/** Every file of the engine's code (.ts or .js, and the SQL and JSON it reads), by path and content. */
export function hashEngineCode(engineDir: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.(ts|js|sql|json)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) hash.update(path.relative(engineDir, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  };
  walk(engineDir);
  return hash.digest('hex').slice(0, 16);
}

/** The file the catalog reads of `templateDigest`'s database, made with `inputs`, are kept in. */
export function catalogCacheFile(dir: string, templateDigest: string, inputs: unknown, code = engineCodeDigest()): string {
  const key = createHash('sha256').update(JSON.stringify([CATALOG_CACHE_FORMAT, templateDigest, code, inputs])).digest('hex').slice(0, 24);
  return path.join(dir, `${templateDigest}-${key}.json`);
}

/** The kept reads, or undefined when none (or unreadable: then they are read again). */
export function readKeptCatalog<T>(file: string): T | undefined {
  try {
    const kept = decodeCatalog<T>(readFileSync(file, 'utf8'));
    markUsed(file);
    return kept;
  } catch {
    return undefined;
  }
}

/** Used now: pruning (pruneCatalogs) keeps the most recently used. A cache this user may read but not touch (another owner's, read-only) keeps its reads all the same. */
function markUsed(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // Pruning may then take it first: a read again later, never a lost read now.
  }
}

/** Keeps the reads (written aside and renamed: a run reading it meanwhile sees the whole file or none). A failure to keep costs the next run a read, nothing else. */
export function keepCatalog(file: string, value: unknown): void {
  const aside = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(aside, encodeCatalog(value));
    renameSync(aside, file);
    pruneCatalogs(path.dirname(file), path.basename(file).split('-')[0]);
  } catch {
    rmSync(aside, { force: true });
  }
}

/** Removes the files of `templateDigest` (catalogCacheFile) beyond the KEPT_CATALOGS most recently used, and any beyond the KEPT_CATALOGS_IN_ALL most recently used of the folder. */
export function pruneCatalogs(dir: string, templateDigest: string): void {
  const files = readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .flatMap((n) => {
      try {
        return [{ name: n, file: path.join(dir, n), used: statSync(path.join(dir, n)).mtimeMs }];
      } catch {
        return []; // removed meanwhile by another run
      }
    })
    .sort((a, b) => b.used - a.used);
  const ofTemplate = files.filter((f) => f.name.startsWith(`${templateDigest}-`));
  for (const old of [...ofTemplate.slice(KEPT_CATALOGS), ...files.slice(KEPT_CATALOGS_IN_ALL)]) rmSync(old.file, { force: true });
}

/**
 * The role-wide settings the catalog reads (schema-cache.ts): the API roles' own (PostgREST's
 * role settings) and the authenticator's (its pre-request hook). Another role's (a test's, an
 * admin's `alter role postgres set …`) is no input of the reads.
 */
const ROLES_THE_CATALOG_READS = ROLES_A_REQUEST_USES;

/** How long a start waits for another run's build to confine the settings its migrations made outside their database (role-settings.ts). */
export const SETTINGS_TURN_WAIT_MS = 120_000;
const SETTINGS_TURN_POLL_MS = 100;

/**
 * What the kept reads depend on beyond the migrations: the server's version, the database's
 * collation (whether text order is compared), the role settings the catalog reads (this
 * database's, and the role-wide ones of ROLES_THE_CATALOG_READS, made outside the migrations on a
 * --database-url server: cluster-wide), and who reads. Kept templates are shared by every server
 * policyfuzz uses on a host, and a C-collated local server's reads must never answer a run on an
 * en_US one with the same migrations. Read once no build holds the server's turn to change
 * settings (waiting at most SETTINGS_TURN_WAIT_MS): another run's migrations may have set one
 * role-wide that it has not yet moved into its own database, which is no setting of this server's.
 */
export async function serverIdentity(client: pg.Client, waitMs = SETTINGS_TURN_WAIT_MS): Promise<string> {
  const until = Date.now() + waitMs;
  for (;;) {
    const { identity, turnTaken } = await settingsState(client);
    if (!turnTaken || Date.now() >= until) return identity;
    await new Promise((resolve) => setTimeout(resolve, SETTINGS_TURN_POLL_MS));
  }
}

/** The server's identity now (serverIdentity), and whether a build holds the settings turn now. */
async function settingsState(client: pg.Client): Promise<{ identity: string; turnTaken: boolean }> {
  const { rows } = await client.query<{ identity: string; turn_taken: boolean }>(
    `select concat_ws('|', version(), d.datcollate, d.datctype, current_user,
            (select coalesce(string_agg(coalesce(r.rolname, '') || ':' || (s.setdatabase = 0)::text || ':' || array_to_string(s.setconfig, ','), ';'
                                        order by coalesce(r.rolname, ''), s.setdatabase = 0, array_to_string(s.setconfig, ',')), '')
               from pg_db_role_setting s left join pg_roles r on r.oid = s.setrole
              where s.setdatabase = d.oid or (s.setdatabase = 0 and r.rolname = any($1)))) as identity,
            ${SETTINGS_TURN_TAKEN} as turn_taken
       from pg_database d where d.datname = current_database()`,
    [ROLES_THE_CATALOG_READS],
  );
  return { identity: rows[0]!.identity, turnTaken: rows[0]!.turn_taken };
}

/**
 * The catalog reads of `templateDigest`'s database (`read`): the kept ones when a file holds them,
 * else read and kept. The reads start once no build holds the server's settings turn (serverIdentity),
 * but one may take it while they run, its migrations setting a role-wide hook they then see: no
 * setting of this server's. So they are kept only when, after them, no build holds the turn and the
 * identity is the one they started with; else read again once the turn is free (this run must not
 * use them either), and after SETTINGS_TURN_WAIT_MS used as read, not kept.
 */
export async function catalogThroughCache<T>(client: pg.Client, dir: string, templateDigest: string, inputs: unknown, read: () => Promise<T>, waitMs = SETTINGS_TURN_WAIT_MS): Promise<{ facts: T; source: 'kept' | 'read' }> {
  const fileOf = (server: string) => catalogCacheFile(dir, templateDigest, { inputs, server });
  return catalogOutsideSettingsTurn(client, read, waitMs, { kept: (server) => readKeptCatalog<T>(fileOf(server)), keep: (server, facts) => keepCatalog(fileOf(server), facts) });
}

/**
 * The catalog reads (`read`), started once no build holds the settings turn, and read again when
 * one took it meanwhile (or the identity changed), until SETTINGS_TURN_WAIT_MS, then used as read.
 * With `cache`: the kept reads for the server's identity when there are, and clean reads kept
 * (catalogThroughCache). Without (no kept template: a test's own database), read at once, another
 * build's role-wide hook set for a moment (its migrations', not yet confined) was taken for this
 * database's, and every request called a function it lacks (42883: the suite's
 * foreign-key-actions flake, beside catalog-cache.test's stand-in build).
 */
export async function catalogOutsideSettingsTurn<T>(
  client: pg.Client,
  read: () => Promise<T>,
  waitMs = SETTINGS_TURN_WAIT_MS,
  cache?: { kept: (server: string) => T | undefined; keep: (server: string, facts: T) => void },
): Promise<{ facts: T; source: 'kept' | 'read' }> {
  const until = Date.now() + waitMs;
  for (;;) {
    const server = await serverIdentity(client, Math.max(0, until - Date.now()));
    const kept = cache?.kept(server);
    if (kept) return { facts: kept, source: 'kept' };
    const facts = await read();
    const after = await settingsState(client);
    if (!after.turnTaken && after.identity === server) {
      cache?.keep(server, facts);
      return { facts, source: 'read' };
    }
    if (Date.now() >= until) return { facts, source: 'read' };
  }
}
