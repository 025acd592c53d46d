/**
 * Everything a run needs from the database side, started in order and stopped in reverse:
 * a server (provider chain), a template built from the migrations (plus a mutant, if any),
 * one cloned database and connection per worker, and the PostgREST schema cache.
 */
import { tenantOf } from '../target/tenant-world.ts';
import path from 'node:path';
import pg from 'pg';
import { CASE_STATEMENT_TIMEOUT_MS, newClient } from '../db/client.ts';
import { standInNote, standInsInstalled } from '../db/supabase/stand-ins.ts';
import { appSettingsNote, appSettingsReadByPolicies } from '../introspection/app-settings.ts';
import { EnvironmentError } from '../errors.ts';
import { keptTemplateKey, prepareTemplate, settingsNotCopiedNote, type PreparedTemplate } from '../db/databases.ts';
import { describeTemplateSource, templateCacheEnabled } from '../db/template-cache.ts';
import { migrationsDigest, type MigrationFile } from '../db/migrations.ts';
import { startDatabaseServer, type DatabaseServer, type ServerChoice } from '../db/providers/index.ts';
import { CaseTransaction } from '../executor/case-transaction.ts';
import { loadSchemaCache, type SchemaCache } from '../executor/schema-cache.ts';
import { REFERENCE_PLAN, type FixturePlan } from '../target/fixtures.ts';
import { sqlRoutedTables } from '../mapping/mapping.ts';
import { readSeededTables, readTableShapes } from '../introspection/table-shapes.ts';
import { readGrantsUnderRowSecurity } from '../introspection/row-security-grants.ts';
import { readSeededValues } from '../introspection/seeded-values.ts';
import { catalogOutsideSettingsTurn, catalogThroughCache } from '../db/catalog-cache.ts';
import { LOCAL_CACHE_ROOT } from '../db/providers/local-server.ts';

/** Where kept catalog reads live (catalog-cache.ts): beside the kept data directories, cleared with them. */
export const CATALOG_CACHE_DIR = path.join(LOCAL_CACHE_ROOT, 'catalogs');

export const EXPOSED_SCHEMAS = ['public', 'passport'];

export interface Worker {
  client: pg.Client;
  tx: CaseTransaction;
}

export interface Environment {
  server: DatabaseServer;
  template: PreparedTemplate;
  cache: SchemaCache;
  workers: Worker[];
  /** Milliseconds from start until the workers were ready. */
  startupMs: number;
  startup: StartupPhases;
  /** "ready in 210 ms (cached template abc123)": the start-up, and where the template came from. */
  readyNote: string;
  /** Settings of the migrated database this role could not copy onto the run's databases (databases.ts settingsNotCopiedNote): a warning, or undefined. */
  settingsNote?: string;
  close(): Promise<void>;
}

/** Where start-up time went: the server (started, or reached), the template (migrations, or a kept one), the workers' clones, their connections and the schema cache. */
export interface StartupPhases {
  serverMs: number;
  templateMs: number;
  cloneMs: number;
  workersMs: number;
}

export interface EnvironmentOptions extends ServerChoice {
  migrations: MigrationFile[];
  extra?: MigrationFile[];
  workers?: number;
  supabaseCompat?: boolean;
  /** How long one migration statement may run (migrations.ts DEFAULT_MIGRATION_TIMEOUT_MS). */
  migrationTimeoutMs?: number;
  /** Reuse a server someone else owns (tests share one); it is not stopped by close(). */
  server?: DatabaseServer;
  /**
   * A project's own schema: complete fixture rows from its catalog (NOT NULL columns the model
   * does not know), and write users / bypass triggers as its config says. Absent: the reference way.
   */
  fixtures?: Omit<FixturePlan, 'shapes'>;
  /**
   * What PostgREST exposes and its extra search path (a Supabase project's config.toml); default:
   * EXPOSED_SCHEMAS, Supabase's extra search path.
   */
  api?: { exposedSchemas: string[]; extraSearchPath: string[]; accessTokenHook?: string };
  /** Schemas the API does not expose holding tables the fixtures write (mapping.ts writtenSchemas): read for their shapes too. */
  writtenSchemas?: readonly string[];
  /** PostgREST's db-max-rows (SchemaCache.maxRows); absent: none, PostgREST's default. */
  maxRows?: number;
  /** Where a signed-in token's app_metadata comes from (SchemaCache.tokenAppMetadata). */
  tokenAppMetadata?: 'auth.users';
  /** Keep the template built from `migrations` for later runs and start from a kept one; default: on unless POLICYFUZZ_TEMPLATE_CACHE=off (template-cache.ts). */
  cacheTemplate?: boolean;
  /** Of `migrations`, how many the kept template holds (the rest, a mutant's edits, are not kept): TemplateOptions.keptPrefix. */
  keptPrefix?: number;
  /** Without cacheTemplate: start from a kept template of exactly `migrations` when there is one, keeping none (TemplateOptions.reuseKept); off with POLICYFUZZ_TEMPLATE_CACHE=off. */
  reuseKeptTemplate?: boolean;
  /** The longest a statement of a case may run on a worker's connection (default CASE_STATEMENT_TIMEOUT_MS). */
  caseStatementTimeoutMs?: number;
}

/** The workers' sessions' statement_timeout, kept beside the connections (db/client.ts). */
export { CASE_STATEMENT_TIMEOUT_MS } from '../db/client.ts';

export async function openEnvironment(options: EnvironmentOptions): Promise<Environment> {
  const started = Date.now();
  const cacheTemplate = (options.cacheTemplate ?? true) && templateCacheEnabled();
  const supabaseCompat = options.supabaseCompat ?? true;
  const key = cacheTemplate && !options.server ? keptTemplateKey(options.migrations.slice(0, options.keptPrefix ?? options.migrations.length), supabaseCompat) : undefined;
  const phases: StartupPhases = { serverMs: 0, templateMs: 0, cloneMs: 0, workersMs: 0 };
  let mark = started;
  const lap = (phase: keyof StartupPhases) => {
    const now = Date.now();
    phases[phase] = now - mark;
    mark = now;
  };
  const server = options.server ?? (await startDatabaseServer({ ...options, template: key }));
  lap('serverMs');
  const ownServer = !options.server;
  let template: PreparedTemplate | undefined;
  const workers: Worker[] = [];
  try {
    template = await prepareTemplate(server, { migrations: options.migrations, extra: options.extra, supabaseCompat, cache: cacheTemplate, keptPrefix: options.keptPrefix, reuseKept: options.reuseKeptTemplate === true && templateCacheEnabled(), serverOfThisRun: ownServer && server.ownsServer, apply: { timeoutMs: options.migrationTimeoutMs, progress: options.log } });
    lap('templateMs');
    const urls = await template.cloneForWorkers(options.workers ?? 1);
    lap('cloneMs');
    let cache: SchemaCache | undefined;
    let plan: FixturePlan | undefined;
    let standIns: string | undefined;
    let catalogSource: 'read' | 'kept' | undefined;
    const templateDigest = template.source.kind !== 'uncached' ? template.source.digest : undefined;
    const keptDigest = templateDigest && builtDigest(templateDigest, options.migrations.slice(options.keptPrefix ?? options.migrations.length), options.extra ?? []);
    for (const url of urls) {
      // Pipelined: a case's messages, and the lane's next case, are written without waiting for answers (batch-query.ts).
      const client = newClient({ connectionString: url, pipeline: true, statement_timeout: options.caseStatementTimeoutMs ?? CASE_STATEMENT_TIMEOUT_MS });
      try {
        await client.connect();
      } catch (e) {
        throw new EnvironmentError(`cannot connect a worker: ${(e as Error).message}`);
      }
      if (!cache || !plan) {
        const inputs = catalogInputs(options);
        const read = () => readCatalogFacts(client, inputs);
        const { facts: readOrKept, source } = keptDigest ? await catalogThroughCache(client, CATALOG_CACHE_DIR, keptDigest, inputs, read) : await catalogOutsideSettingsTurn(client, read);
        // Rows the files on top write (a mutant's insert of a random id) differ between starts, and the schema they are read by does not: read again, a few ms.
        const facts = source === 'kept' && keptDigest !== templateDigest ? { ...readOrKept, ...(await readSeededFacts(client, readOrKept.shapes)) } : readOrKept;
        catalogSource = source;
        standIns = facts.standIns;
        cache = { ...facts.schemaCache, ...(options.maxRows !== undefined ? { maxRows: options.maxRows } : {}), ...(options.api?.accessTokenHook ? { accessTokenHook: options.api.accessTokenHook } : {}), ...(options.tokenAppMetadata ? { tokenAppMetadata: options.tokenAppMetadata } : {}) };
        if (facts.missingBypassTriggers?.length) options.log?.(`bypassTriggers: ${facts.missingBypassTriggers.join(', ')} not in this database (not created yet at this migration state?): skipped`);
        const { shapes, seededTables, seededValues } = facts;
        const tenantColumn = options.fixtures?.tenantColumn;
        if (tenantColumn && !tenantOf(shapes, tenantColumn)) options.log?.(`fixtures.tenantColumn: no table has a ${tenantColumn} referencing another table (misspelled, or not created yet at this migration state?): each case's rows are written as without it`);
        const fixtures = options.fixtures && (facts.missingBypassTriggers?.length ? { ...options.fixtures, bypassTriggers: (options.fixtures.bypassTriggers as readonly string[]).filter((t) => !facts.missingBypassTriggers!.includes(t)) } : options.fixtures);
        plan = fixtures ? { ...fixtures, shapes, seededTables, seededValues, functions: cache.functions, grantsUnderRowSecurity: facts.grantsUnderRowSecurity } : seededValues.length ? { ...REFERENCE_PLAN, seededValues } : REFERENCE_PLAN;
      }
      workers.push({ client, tx: new CaseTransaction(client, cache, plan) });
    }
    lap('workersMs');
    server.ready?.();
    const tpl = template;
    const startupMs = Date.now() - started;
    const source = describeTemplateSource(tpl.source);
    const settingsNote = [settingsNotCopiedNote(tpl.settingsNotCopied), ...tpl.settingsConfined.map((s) => `migrations: ${s}`)].filter(Boolean).join('; ');
    return {
      server,
      template: tpl,
      cache: cache!,
      workers,
      startupMs,
      startup: phases,
      readyNote: `ready in ${startupMs} ms${source ? ` (${source}${catalogSource === 'kept' ? ', its catalog read from the cache' : ''})` : ''}${standIns ? `; ${standIns}` : ''}`,
      ...(settingsNote ? { settingsNote } : {}),
      async close() {
        for (const w of workers) await w.client.end().catch(() => {});
        await tpl.drop({ serverGoing: ownServer && server.ownsServer });
        if (ownServer) await server.stop();
      },
    };
  } catch (e) {
    for (const w of workers) await w.client.end().catch(() => {});
    await template?.drop();
    if (ownServer) await server.stop();
    throw e;
  }
}

/**
 * The digest naming the database the catalog is read from, under which its reads are kept
 * (catalog-cache.ts): a kept template's own, or, with files applied on a copy of it (a mutant's
 * edited migrations and extra SQL), the template's and theirs hashed together. Those files are
 * applied the same way on every start, so their database's catalog is known by them as a
 * template's is by its migrations: each of `policyfuzz mutants`' (and the suite's) mutants reads
 * its catalog once, and an edited mutant is another digest, never its old reads.
 */
export function builtDigest(templateDigest: string, migrationsOnTop: readonly MigrationFile[], extra: readonly MigrationFile[]): string {
  // How many are migrations is hashed too: they are applied as migrations (a failing statement skipped where the layer allows), the extra files as they are.
  return migrationsOnTop.length || extra.length ? migrationsDigest([{ name: `template ${templateDigest}, ${migrationsOnTop.length} migrations on top`, path: '', sql: '' }, ...migrationsOnTop, ...extra]) : templateDigest;
}

/** What the reads before the first case depend on besides the database: a kept catalog is keyed by them too (catalog-cache.ts). */
interface CatalogInputs {
  exposedSchemas: string[];
  extraSearchPath?: string[];
  /** Schemas whose tables' shapes are read: the exposed ones, auth, those of tables sent as SQL or written by the fixtures. */
  shapeSchemas: string[];
  /** The fixture plan's bypass triggers, looked up (a project's own schema); absent: the reference way. */
  bypassTriggers?: readonly string[];
  projectFixtures: boolean;
}

function catalogInputs(options: EnvironmentOptions): CatalogInputs {
  const exposedSchemas = options.api?.exposedSchemas ?? EXPOSED_SCHEMAS;
  // Tables sent as SQL, and others the fixtures write, may live outside the exposed schemas: their fixtures are completed from the catalog too.
  const sqlSchemas = [...sqlRoutedTables(options.fixtures?.mapping)].map((t) => t.split('.')[0]);
  const bypass = options.fixtures?.bypassTriggers;
  return {
    exposedSchemas,
    ...(options.api?.extraSearchPath ? { extraSearchPath: options.api.extraSearchPath } : {}),
    shapeSchemas: [...new Set([...exposedSchemas, 'auth', ...sqlSchemas, ...(options.writtenSchemas ?? [])])],
    ...(Array.isArray(bypass) && bypass.length ? { bypassTriggers: bypass as readonly string[] } : {}),
    projectFixtures: options.fixtures !== undefined,
  };
}

/** The catalog reads a run makes before its first case: plain data, kept with a kept template (catalog-cache.ts). */
interface CatalogFacts {
  standIns?: string;
  schemaCache: SchemaCache;
  shapes: NonNullable<FixturePlan['shapes']>;
  seededTables: string[];
  seededValues: string[];
  /** Of the plan's bypass triggers, those this database lacks (skipped with a note). */
  missingBypassTriggers?: string[];
  grantsUnderRowSecurity?: Set<string>;
}

async function readCatalogFacts(client: pg.Client, inputs: CatalogInputs): Promise<CatalogFacts> {
  const standIns = [standInNote(await standInsInstalled(client)), appSettingsNote(await appSettingsReadByPolicies(client))].filter(Boolean).join('; ') || undefined;
  const schemaCache = await loadSchemaCache(client, inputs.exposedSchemas, inputs.extraSearchPath);
  const shapes = await readTableShapes(client, inputs.shapeSchemas);
  const { seededTables, seededValues } = await readSeededFacts(client, shapes);
  const missing = inputs.bypassTriggers ? await missingBypassTriggers(client, inputs.bypassTriggers) : [];
  return {
    ...(standIns ? { standIns } : {}),
    schemaCache,
    shapes,
    seededTables,
    seededValues,
    ...(missing.length ? { missingBypassTriggers: missing } : {}),
    ...(inputs.projectFixtures ? { grantsUnderRowSecurity: await readGrantsUnderRowSecurity(client, schemaCache.exposedSchemas) } : {}),
  };
}

/** The tables the migrations seeded rows in, and those rows' values: read from the rows, not the schema. */
async function readSeededFacts(client: pg.Client, shapes: CatalogFacts['shapes']): Promise<Pick<CatalogFacts, 'seededTables' | 'seededValues'>> {
  const seededTables = await readSeededTables(client, shapes);
  // Seeded rows' values are masked in failures on any target, with or without a fixture plan.
  const seededValues = await readSeededValues(client, shapes, seededTables);
  return { seededTables: [...seededTables], seededValues: [...seededValues] };
}

/**
 * Of the fixture plan's bypass triggers, those this database does not have: one that does not exist
 * yet (an older migration state, a diff's base) is skipped with a note, not an error of every case.
 */
async function missingBypassTriggers(client: pg.Client, listed: readonly string[]): Promise<string[]> {
  const found = await client.query<{ name: string }>(
    `select x.name from unnest($1::text[]) as x(name)
      where exists (select 1 from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace s on s.oid = c.relnamespace
                     where not t.tgisinternal and t.tgname = split_part(x.name, '.', -1) and c.relname = split_part(x.name, '.', -2)
                       and s.nspname = case when x.name like '%.%.%' then split_part(x.name, '.', 1) else 'public' end)`,
    [listed],
  );
  const existing = new Set(found.rows.map((r) => r.name));
  return listed.filter((t) => !existing.has(t));
}
