/**
 * The failure folder (default `.policyfuzz/failures/`): one `<id>.json` per distinct failure,
 * with its repro beside it (`<id>.sql` for psql, `<id>.regression.ts` to paste as a vitest test).
 * The id is a digest of the property and the shrunk case, so the same failure found twice is
 * one file. Only failures are written; a passing case never touches the folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Json } from '../model/json.ts';
import { canonicalJson } from '../model/values.ts';
import { UsageError } from '../errors.ts';
import type { PropertyResult } from '../runner/result.ts';
import { DataCaseSchema, FAILURE_FORMAT, FAILURE_FORMAT_VERSION, FailureRecordSchema, type FailureRecord } from './schema.ts';

export { DEFAULT_FAILURES_DIR } from './default-dir.ts';

/** Plain JSON: undefined dropped, non-JSON values (functions, NaN) made null. */
export function plainJson(value: unknown): Json {
  if (value === undefined) return null;
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  return text === undefined ? null : (JSON.parse(text) as Json);
}

export function failureId(property: string, testCase: Json): string {
  return `${property}-${createHash('sha256').update(property).update('\0').update(canonicalJson(testCase)).digest('hex').slice(0, 12)}`;
}

export interface RecordContext {
  policyfuzzVersion: string;
  migrationsDigest: string | null;
  migrations: string | null;
  /** The target as absolute paths (see FailureRecord.target). */
  target?: FailureRecord['target'];
}

/** The record of a failed property result (undefined when it has no counterexample to save). */
export function failureRecordOf(result: PropertyResult, context: RecordContext): FailureRecord | undefined {
  const f = result.failure;
  if (result.status !== 'failed' || !f) return undefined;
  const testCase = plainJson(f.counterexample);
  if (result.area === 'data' && !DataCaseSchema.safeParse(testCase).success) return undefined;
  return FailureRecordSchema.parse({
    format: FAILURE_FORMAT,
    formatVersion: FAILURE_FORMAT_VERSION,
    id: failureId(result.id, testCase),
    property: result.id,
    title: result.title,
    area: result.area,
    seed: f.seed,
    path: f.path,
    message: f.message,
    case: testCase,
    ...(result.area === 'data' && f.unshrunk !== undefined ? { unshrunk: plainJson(f.unshrunk) } : {}),
    step: f.step ?? null,
    expected: plainJson(f.expected),
    actual: plainJson(f.actual),
    ...(f.signature ? { signature: f.signature } : {}),
    ...(result.area === 'data' && f.predictions ? { predictions: f.predictions.map(plainJson) } : {}),
    policyfuzzVersion: context.policyfuzzVersion,
    migrationsDigest: result.area === 'data' ? context.migrationsDigest : null,
    migrations: result.area === 'data' ? context.migrations : null,
    ...(result.area === 'data' && context.target ? { target: context.target } : {}),
    foundAt: new Date().toISOString(),
  });
}

export interface SavedFailure {
  record: FailureRecord;
  json: string;
  sql?: string;
  /** The pgTAP test (`<id>.pgtap.sql`): `supabase test db` / `pg_prove` run it unchanged. */
  pgtap?: string;
  regression?: string;
}

/**
 * Writes the record and its repros; returns the paths written. A write that fails (a full disk, a
 * folder gone) removes what this call wrote, so no empty or cut-off failure file is left to replay.
 */
export function saveFailure(dir: string, found: FailureRecord, repros: { sql?: string; pgtap?: string; regression?: string } = {}): SavedFailure {
  const base = path.join(dir, found.id);
  // Where it is saved, so a replay from a moved or other checkout finds its target (targetOfRecord).
  const record = found.target ? { ...found, target: { ...found.target, savedIn: path.resolve(dir) } } : found;
  const saved: SavedFailure = { record, json: `${base}.json` };
  const written: string[] = [];
  const write = (file: string, text: string) => {
    written.push(file);
    writeFileSync(file, text);
  };
  try {
    mkdirSync(dir, { recursive: true });
    write(saved.json, `${JSON.stringify(record, null, 2)}\n`);
    if (repros.sql !== undefined) write((saved.sql = `${base}.sql`), repros.sql);
    if (repros.pgtap !== undefined) write((saved.pgtap = `${base}.pgtap.sql`), repros.pgtap);
    if (repros.regression !== undefined) write((saved.regression = `${base}.regression.ts`), repros.regression);
  } catch (e) {
    for (const file of written) rmSync(file, { force: true });
    throw e;
  }
  return saved;
}

function issueText(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>, prefix: string[] = []): string {
  return issues
    .slice(0, 5)
    .map((i) => `${[...prefix, ...i.path.map(String)].join('.') || '(top level)'}: ${i.message}`)
    .join('; ');
}

/**
 * The target a failure file records, its paths found from where the file is now: one that is not
 * where it was (the project moved, or another checkout of it) is taken where it lies relative to
 * the file, as it lay relative to the folder the file was saved in; one found neither way is kept
 * as recorded (recordedChoice refuses a missing config).
 */
export function targetOfRecord(record: FailureRecord, file: string): FailureRecord['target'] {
  const target = record.target;
  if (!target?.savedIn) return target;
  const savedIn = target.savedIn;
  const here = path.dirname(path.resolve(file));
  const located = (recorded: string) => {
    if (existsSync(recorded)) return recorded;
    const moved = path.resolve(here, path.relative(savedIn, recorded));
    return existsSync(moved) ? moved : recorded;
  };
  const migrations = target.migrations === null ? null : typeof target.migrations === 'string' ? located(target.migrations) : target.migrations.map(located);
  return { ...target, config: target.config === null ? null : located(target.config), migrations, ...(target.pack ? { pack: located(target.pack) } : {}) };
}

/** Reads and validates a failure file; anything else is a UsageError saying what is wrong. */
export function loadFailure(file: string): FailureRecord {
  if (!existsSync(file)) throw new UsageError(`failure file not found: ${file}`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`${file} is not a policyfuzz failure file: invalid JSON (${(e as Error).message})`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data) || (data as { format?: unknown }).format !== FAILURE_FORMAT) {
    throw new UsageError(`${file} is not a policyfuzz failure file (expected "format": "${FAILURE_FORMAT}")`);
  }
  const version = (data as { formatVersion?: unknown }).formatVersion;
  if (version !== FAILURE_FORMAT_VERSION) {
    throw new UsageError(`${file}: failure format version ${JSON.stringify(version)} is not supported (this policyfuzz reads version ${FAILURE_FORMAT_VERSION})`);
  }
  const parsed = FailureRecordSchema.safeParse(data);
  if (!parsed.success) throw new UsageError(`${file} is a malformed policyfuzz failure file: ${issueText(parsed.error.issues)}`);
  // The id is `<property>-<hash>` of the property it was saved for: a record relabelled to another
  // property would be replayed against a rule it was never about.
  const { id, property } = parsed.data;
  if (!id.startsWith(`${property}-`)) {
    throw new UsageError(`${file} was saved for another property than its "property" ${property} (its id is ${id}): set "property" back to ${id.replace(/-[^-]*$/, '')}, or replay the file as it was saved`);
  }
  if (parsed.data.area === 'data') {
    const c = DataCaseSchema.safeParse(parsed.data.case);
    if (!c.success) throw new UsageError(`${file} is a malformed policyfuzz failure file: ${issueText(c.error.issues, ['case'])}`);
  }
  return parsed.data;
}

export interface FailureListing {
  failures: Array<{ file: string; record: FailureRecord }>;
  /** Files in the folder that could not be read, with why (the run warns and goes on). */
  unreadable: Array<{ file: string; reason: string }>;
}

export function listFailures(dir: string): FailureListing {
  const listing: FailureListing = { failures: [], unreadable: [] };
  if (!existsSync(dir)) return listing;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const file = path.join(dir, name);
    try {
      listing.failures.push({ file, record: loadFailure(file) });
    } catch (e) {
      listing.unreadable.push({ file, reason: (e as Error).message });
    }
  }
  return listing;
}
