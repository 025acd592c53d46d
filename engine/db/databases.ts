/**
 * Scratch databases on a server: one template per run (Supabase compatibility layer, then the
 * migrations, then any extra files such as a mutant), and one clone of it per worker.
 * Everything policyfuzz creates carries a `pf_` prefix and is dropped by `drop()`.
 */
import { installSafeUpdate, SAFEUPDATE_SCHEMA } from './supabase/safeupdate.ts';
import { literal } from '../executor/sql-text.ts';
import { bestBase, cachedTemplateName, CACHED_TEMPLATE_PREFIX, keyComment, keyFromComment, templateKey, type TemplateKey, type TemplateSource } from './template-cache.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { newClient } from './client.ts';
import { EnvironmentError } from '../errors.ts';
import { applyMigration, migrationsDigest, type ApplyOptions, type MigrationFile } from './migrations.ts';
import type { DatabaseServer } from './providers/server.ts';
import { onShutdown } from './cleanup.ts';
import { dropStaleScratchDatabases, markRunPresent, scratchName } from './server-hygiene.ts';
import { KEPT_TEMPLATE_LIKE } from './kept-template-name.ts';
import { confineSettingsMadeOutside, settingsOutside, SETTINGS_TURN_LOCK, withApiRoleTimeouts } from './role-settings.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const compatRolesSql = withApiRoleTimeouts(readFileSync(path.join(here, 'supabase/roles.sql'), 'utf8'));
const compatSchemaSql = readFileSync(path.join(here, 'supabase/schema.sql'), 'utf8');

export interface TemplateOptions {
  migrations: MigrationFile[];
  /** Applied after the migrations, e.g. a mutant; same error reporting. */
  extra?: MigrationFile[];
  supabaseCompat?: boolean;
  /** Keep the template built from `migrations` for later runs, and start from a kept one (template-cache.ts). */
  cache?: boolean;
  /**
   * With `cache`, how many of `migrations` are kept (default all): the rest (a mutant's edited
   * migrations and those after them) go, with `extra`, on a scratch copy of the kept template of
   * the unchanged prefix, so each mutant applies only what it changed.
   */
  keptPrefix?: number;
  /**
   * Without `cache`: start from a kept template of exactly these migrations when the server has
   * one, keeping nothing new (a diff's base, most often the state a run on the main branch kept).
   */
  reuseKept?: boolean;
  /** The statement timeout and where a long apply says how far it is. */
  apply?: Pick<ApplyOptions, 'timeoutMs' | 'progress'>;
  /** The server was started for this run alone, so a kept template in it is this run's to use up (cloneForWorkers). */
  serverOfThisRun?: boolean;
}

export interface PreparedTemplate {
  name: string;
  digest: string;
  url: string;
  /** Where the template came from (a kept one, or built). */
  source: TemplateSource;
  /** Of preparing it, the time spent applying SQL: the compatibility layer, the migrations, a mutant's extra files, safeupdate (0 for a kept template used as it is). */
  migrationsMs: number;
  /**
   * A database per worker, every one starting identical: clones of the template, the last worker
   * taking the template itself when no one else can clone it (it is this run's own), which saves
   * a clone and the checkpoint it costs. No template can be cloned from afterwards.
   */
  cloneForWorkers(count: number): Promise<string[]>;
  /** Settings of the template a copy could not take (this role may not make them): filled as copies are made. */
  settingsNotCopied: readonly SettingNotCopied[];
  /** Settings the migrations made outside the migrated database, moved into it and put back outside (role-settings.ts confineSettingsMadeOutside), one line each. */
  settingsConfined: readonly string[];
  /** Drops the run's databases; `serverGoing`: the server goes next with its data (one this run started), so there is nothing to drop. */
  drop(options?: { serverGoing?: boolean }): Promise<void>;
}

export function databaseUrl(adminUrl: string, database: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

async function connectTo(url: string): Promise<pg.Client> {
  const client = newClient({ connectionString: url });
  try {
    await client.connect();
  } catch (e) {
    throw new EnvironmentError(`cannot connect to ${new URL(url).pathname.slice(1) || 'the server'}: ${(e as Error).message}`);
  }
  return client;
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = await connectTo(url);
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A connection to the server's admin database, opened on first use, shared by the steps that run until end(). */
interface AdminConnection {
  use<T>(fn: (c: pg.Client) => Promise<T>): Promise<T>;
  end(): Promise<void>;
}

/**
 * A template's set-up steps (roles, the kept templates, each copy) take turns on one connection:
 * a new connection costs its backend 15-30 ms of CPU (a fork), and a mutant's set-up opened six.
 */
function adminConnection(adminUrl: string): AdminConnection {
  let client: Promise<pg.Client> | undefined;
  // Held while the connection is open: a kept template this build listed is not dropped under it (keptTemplate).
  const holdingKeptTemplates = async (c: pg.Client) => {
    await c.query('select pg_advisory_lock_shared($1, $2)', [...KEPT_TEMPLATES_IN_USE_LOCK]);
    return c;
  };
  return {
    use: (fn) => (client ??= connectTo(adminUrl).then(holdingKeptTemplates)).then(fn),
    async end() {
      const open = client;
      client = undefined;
      await open?.then((c) => c.end()).catch(() => {});
    },
  };
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function ensureCompatRoles(c: pg.Client): Promise<void> {
  // Roles are cluster-wide; two runs creating them at once race, so retry once on a duplicate.
  for (let attempt = 0; ; attempt++) {
    try {
      await c.query(compatRolesSql);
      return;
    } catch (e) {
      const code = (e as pg.DatabaseError).code;
      if (attempt < 3 && (code === '42710' || code === '23505' || code === 'XX000')) continue;
      throw new EnvironmentError(`cannot create Supabase roles: ${(e as Error).message}`);
    }
  }
}

/**
 * Runs `fn` holding the server's turn to change settings (SETTINGS_TURN_LOCK), waiting for another
 * run's build to end its turn. `holding` is given the connection that waits and holds, so a run
 * stopped meanwhile can end it (ending it gives the turn back).
 */
export async function withSettingsTurn<T>(adminUrl: string, holding: (client: pg.Client | undefined) => void, fn: () => Promise<T>): Promise<T> {
  return withClient(adminUrl, async (c) => {
    holding(c);
    try {
      await c.query('select pg_advisory_lock($1, $2)', [...SETTINGS_TURN_LOCK]);
      try {
        return await fn();
      } finally {
        await c.query('select pg_advisory_unlock($1, $2)', [...SETTINGS_TURN_LOCK]).catch(() => {});
      }
    } finally {
      holding(undefined);
    }
  });
}

/** Text that may change a role's or a database's settings (`alter role … set`, in a DO block's `execute` too, `alter database … set`). */
const ALTERS_SETTINGS = /\balter\s+(?:role|user|database)\b/i;

/** The key of the template kept for these migrations (template-cache.ts). */
export function keptTemplateKey(migrations: MigrationFile[], supabaseCompat = true): TemplateKey {
  return templateKey(migrations, supabaseCompat ? { sql: [compatRolesSql, compatSchemaSql] } : undefined);
}

/**
 * On a server policyfuzz started, databases are copied file by file: the default (WAL_LOG) writes
 * every page of the template into the WAL, which took seconds for a 160-migration template where
 * copying its files takes a tenth of that (bench/cached-start.ts); the checkpoint it needs is cheap
 * with fsync off. A lent server keeps its default: a forced checkpoint there could be slow.
 */
function copyStrategy(server: DatabaseServer): string {
  return server.ownsServer ? 'strategy file_copy' : '';
}

/**
 * `create database … template` copies the template's files but not its settings (ALTER DATABASE
 * … SET, ALTER ROLE … IN DATABASE … SET): the compatibility layer's search_path ("$user", public,
 * extensions, as Supabase's database has it) and a migration's own would be lost on every copy,
 * so a worker's sessions would run with another path than the migrations did. Each setting is
 * copied through set_config … FROM CURRENT, which reads a value as SET does (a list stays a list).
 * A setting this role may not make (a lent server's non-superuser) is left out and reported as a
 * notice (SETTING_NOT_COPIED), so the run can say so instead of running silently without it.
 */
const SETTING_NOT_COPIED = 'policyfuzz: setting not copied ';

function copySettingsSql(from: string, to: string): string {
  return `do $pf$ declare s record; begin
  for s in select r.rolname, split_part(c, '=', 1) as name, substr(c, strpos(c, '=') + 1) as value
             from pg_db_role_setting d cross join unnest(d.setconfig) c left join pg_roles r on r.oid = d.setrole
            where d.setdatabase = (select oid from pg_database where datname = ${literal(from)}) loop
    begin
      perform set_config(s.name, s.value, true);
      if s.rolname is null then execute format('alter database %I set %I from current', ${literal(to)}, s.name);
      else execute format('alter role %I in database %I set %I from current', s.rolname, ${literal(to)}, s.name);
      end if;
    exception when others then
      raise notice '${SETTING_NOT_COPIED}%', json_build_object('setting', s.name, 'role', s.rolname, 'error', sqlerrm);
    end;
  end loop;
end $pf$`;
}

/** A setting of a template its copy could not take (this role may not make it), and the server's reason. */
export interface SettingNotCopied {
  setting: string;
  /** The role it is set for (ALTER ROLE … IN DATABASE); null: for every role (ALTER DATABASE). */
  role: string | null;
  error: string;
}

/** Copies the settings of database `from` onto `to` (see copySettingsSql); returns those it could not. */
export async function copyDatabaseSettings(c: pg.Client, from: string, to: string): Promise<SettingNotCopied[]> {
  const missed: SettingNotCopied[] = [];
  const onNotice = (n: { message?: string }) => {
    if (n.message?.startsWith(SETTING_NOT_COPIED)) missed.push(JSON.parse(n.message.slice(SETTING_NOT_COPIED.length)) as SettingNotCopied);
  };
  c.on('notice', onNotice);
  try {
    await c.query(`begin; ${copySettingsSql(from, to)}; commit`);
  } finally {
    c.off('notice', onNotice);
  }
  return missed;
}

/**
 * The run's note for settings its databases lack (one line, each setting once), or undefined.
 * search_path decides which schema an unqualified name in a policy or function reaches, so without
 * it the workers' sessions may resolve names other than the migrations did.
 */
export function settingsNotCopiedNote(missed: readonly SettingNotCopied[]): string | undefined {
  if (!missed.length) return undefined;
  const named = [...new Set(missed.map((m) => `${m.setting}${m.role ? ` for role ${m.role}` : ''} (${m.error})`))];
  const searchPath = missed.some((m) => m.setting === 'search_path') ? ': search_path decides which schema an unqualified name reaches, so the sessions may resolve names other than the migrations did' : '';
  return `settings of the migrated database this role may not copy onto the run's databases, which run without them: ${named.join('; ')}${searchPath}; run as the database owner or a superuser to keep them`;
}

/** A copy of `template` named `name`, its settings with it; returns the settings it could not copy. */
async function cloneDatabase(c: pg.Client, server: DatabaseServer, name: string, template: string, encoding = ''): Promise<SettingNotCopied[]> {
  await c.query(`create database ${quoteIdent(name)} template ${quoteIdent(template)}${encoding} ${copyStrategy(server)}`);
  return copyDatabaseSettings(c, template, name);
}

/** Stale scratch databases are looked for once per process, before its first template. */
let staleChecked = false;

/**
 * On a server others use, the kept templates beyond the newest few are dropped once they are old,
 * and only while no other run's set-up has listed them: a run copies the one it listed (a base, or
 * its exact template for its workers) moments later, and however old the template, a drop in
 * between failed that run's start ("template database … does not exist").
 * Every set-up's admin connection holds KEPT_TEMPLATES_IN_USE_LOCK shared from before it lists
 * them until its copies are made; the drops are made only when it can be taken exclusively
 * (advisory locks are per database: every run connects to the admin database).
 */
const KEPT_TEMPLATES = 3;
const DROPPABLE_AFTER_MS = 3600_000;
export const KEPT_TEMPLATES_IN_USE_LOCK = [0x7066, 0x6b74] as const;

export async function prepareTemplate(server: DatabaseServer, options: TemplateOptions): Promise<PreparedTemplate> {
  const compat = options.supabaseCompat ?? true;
  // The whole folder: a failing file's message names the other file that explains it (migration-neighbours.ts).
  const apply: ApplyOptions = { ...options.apply, folder: options.migrations };
  // Ended once the workers' copies are made (cloneForWorkers), or by drop().
  const admin = adminConnection(server.adminUrl);
  const scratch: string[] = [];
  // A server others may share: this run's databases are known live there however old (server-hygiene.ts).
  if (options.serverOfThisRun !== true) markRunPresent(server.adminUrl);
  // Registered before the database exists: a signal from here on drops whatever was created.
  const unregister = onShutdown(() => drop());
  /** The connection holding the server's turn to change settings (withSettingsTurn), while a build holds it. */
  let settingsTurn: pg.Client | undefined;
  const drop = async (how: { serverGoing?: boolean } = {}) => {
    unregister();
    // A signal while waiting for the turn (or holding it): the wait ends with the run.
    await settingsTurn?.end().catch(() => {});
    await admin.end();
    // A DROP DATABASE costs a checkpoint: nothing to pay for on a server whose data goes next.
    if (how.serverGoing) return;
    await withClient(server.adminUrl, async (c) => {
      for (const db of [...scratch].reverse()) await c.query(`drop database if exists ${quoteIdent(db)} with (force)`);
    }).catch(() => {});
  };
  let migrationsMs = 0;
  /** Settings a copy could not take (settingsNotCopiedNote). */
  const notCopied: SettingNotCopied[] = [];
  const confined: string[] = [];
  const mayAlterSettings = [...options.migrations, ...(options.extra ?? [])].some((f) => ALTERS_SETTINGS.test(f.sql));
  /**
   * A scratch database from `template`, filled by `fill` (its time counted as the migrations'); dropped at the end of the run.
   * `takeOver`: nothing needs `template` afterwards, so it is renamed instead of copied (a copy of a
   * 150-migration template, and the drop of the template after, each cost a checkpoint); copied
   * all the same when it cannot be renamed (someone is connected to it). `confined`: where the
   * settings this build moved into its database are listed (the run's own list by default).
   */
  const createScratch = async (role: string, template: string, fill: (c: pg.Client) => Promise<void>, how: { takeOver?: boolean; confined?: string[] } = {}): Promise<string> => {
    const confinedHere = how.confined ?? confined;
    const name = scratchName(role);
    const takenOver = how.takeOver === true && (await admin.use((c) => c.query(`alter database ${quoteIdent(template)} rename to ${quoteIdent(name)}`).then(() => true, () => false)));
    if (!takenOver) notCopied.push(...(await admin.use((c) => cloneDatabase(c, server, name, template, ` encoding 'UTF8'`))));
    scratch.push(name);
    // Migrations may run for minutes: the admin connection is not left idle meanwhile (a lent server's idle timeout, or a NAT, could drop it).
    await admin.end();
    const migrate = () =>
      withClient(databaseUrl(server.adminUrl, name), async (c) => {
        const started = Date.now();
        try {
          // Read before and after: a setting the migrations made outside this database (role-settings.ts) is confined to it.
          // Only where their text may make one: another build on the same server meanwhile (shards,
          // npm test's workers) would otherwise have its own settings read as these migrations'.
          const outside = mayAlterSettings ? await settingsOutside(c) : undefined;
          await fill(c);
          if (outside) confinedHere.push(...(await confineSettingsMadeOutside(c, outside)));
        } finally {
          migrationsMs += Date.now() - started;
        }
      });
    // Two such builds at once would each read the other's settings as its own migrations' (and put
    // them back, or move them into its own database): they take turns on the server.
    if (mayAlterSettings) await withSettingsTurn(server.adminUrl, (client) => (settingsTurn = client), migrate);
    else await migrate();
    return name;
  };
  let name: string;
  /** A kept template of exactly these migrations (reuseKept), when the server has one. */
  let reused: { name: string; digest: string; settingsConfined: readonly string[] } | undefined;
  let source: TemplateSource = { kind: 'uncached' };
  let ownTemplate = true;
  try {
    if (compat) await admin.use(ensureCompatRoles);
    if (!server.ownsServer && !staleChecked) {
      staleChecked = true;
      await admin.use((c) => dropStaleScratchDatabases(c));
    }
    // A kept template is shared by name between the roles that use the server: only a superuser
    // may clone one another role made, so other roles build their own each run, as before.
    if (options.cache && (await admin.use(mayCloneAnyDatabase))) {
      const keptCount = options.keptPrefix ?? options.migrations.length;
      const kept = await keptTemplate(server, admin, options.migrations.slice(0, keptCount), compat, createScratch, apply);
      source = kept.source;
      confined.push(...kept.settingsConfined);
      const rest = options.migrations.slice(keptCount);
      name = rest.length || options.extra?.length ? await createScratch('tpl', kept.name, (c) => applyExtra(c, options.extra ?? [], compat, apply, rest)) : kept.name;
      // Another run on the same server may clone the kept template at any time.
      ownTemplate = name !== kept.name || options.serverOfThisRun === true;
    } else if (options.reuseKept && (await admin.use(mayCloneAnyDatabase)) && (reused = await keptTemplateOf(admin, options.migrations, compat))) {
      // As a kept template is used above: cloned, never this run's own to hand to a worker.
      source = { kind: 'cached', digest: reused.digest };
      confined.push(...reused.settingsConfined);
      name = options.extra?.length ? await createScratch('tpl', reused.name, (c) => applyExtra(c, options.extra ?? [], compat, apply)) : reused.name;
      ownTemplate = name !== reused.name;
    } else {
      name = await createScratch('tpl', 'template0', async (c) => {
        if (compat) await applyCompatLayer(c);
        for (const file of options.migrations) await applyMigration(c, file, { ...apply, skippable: true, supabaseCompat: compat });
        await applyExtra(c, options.extra ?? [], compat, apply);
      });
    }
  } catch (e) {
    await drop();
    throw e;
  }
  return {
    name,
    url: databaseUrl(server.adminUrl, name),
    digest: migrationsDigest([...options.migrations, ...(options.extra ?? [])]),
    source,
    migrationsMs,
    settingsNotCopied: notCopied,
    settingsConfined: confined,
    async cloneForWorkers(count) {
      const urls: string[] = [];
      const clones = ownTemplate ? count - 1 : count;
      try {
        for (let i = 0; i < clones; i++) {
          const clone = scratchName(`w${i}`);
          notCopied.push(...(await admin.use((c) => cloneDatabase(c, server, clone, name))));
          scratch.push(clone);
          urls.push(databaseUrl(server.adminUrl, clone));
        }
      } finally {
        // The run holds its workers' connections alone from here on.
        await admin.end();
      }
      if (clones < count) urls.push(databaseUrl(server.adminUrl, name));
      return urls;
    },
    drop,
  };
}

async function applyCompatLayer(c: pg.Client): Promise<void> {
  const has = await c.query(`select to_regprocedure('auth.uid()') is not null as present`);
  if (!has.rows[0].present) await applyMigration(c, { name: 'supabase-compat', path: '(policyfuzz Supabase compatibility layer)', sql: compatSchemaSql });
}

/**
 * The migrations not yet applied (`migrations`: those after a kept prefix), the files after them
 * (a mutant), then safeupdate, which reads every function they left (so it goes first when already installed).
 */
async function applyExtra(c: pg.Client, extra: MigrationFile[], compat: boolean, apply: TemplateOptions['apply'] = {}, migrations: MigrationFile[] = []): Promise<void> {
  if ((extra.length || migrations.length) && compat) await c.query(`drop schema if exists ${SAFEUPDATE_SCHEMA} cascade`);
  for (const file of migrations) await applyMigration(c, file, { ...apply, skippable: true, supabaseCompat: compat });
  for (const file of extra) await applyMigration(c, file, apply);
  // Supabase's pg-safeupdate also refuses unfiltered writes inside functions (safeupdate.ts).
  if (compat) await installSafeUpdate(c);
}

/** The kept template of exactly these migrations on the server, if there is one (nothing is built or kept). */
async function keptTemplateOf(admin: AdminConnection, migrations: MigrationFile[], compat: boolean): Promise<{ name: string; digest: string; settingsConfined: readonly string[] } | undefined> {
  const key = keptTemplateKey(migrations, compat);
  const name = cachedTemplateName(key);
  const kept = (await admin.use(keptTemplates)).find((k) => k.name === name);
  return kept ? { name, digest: key.digest, settingsConfined: kept.settingsConfined } : undefined;
}

/**
 * The kept template for these migrations (template-cache.ts): the one of the same key, else one
 * built on the kept template holding the longest prefix of them (or from nothing), then kept.
 */
async function keptTemplate(
  server: DatabaseServer,
  admin: AdminConnection,
  migrations: MigrationFile[],
  compat: boolean,
  createScratch: (role: string, template: string, fill: (c: pg.Client) => Promise<void>, how?: { takeOver?: boolean; confined?: string[] }) => Promise<string>,
  apply: TemplateOptions['apply'] = {},
): Promise<{ name: string; source: TemplateSource; settingsConfined: readonly string[] }> {
  const key = keptTemplateKey(migrations, compat);
  const target = cachedTemplateName(key);
  const kept = await admin.use(keptTemplates);
  const base = bestBase(kept, key);
  if (base?.name === target) return { name: target, source: { kind: 'cached', digest: key.digest }, settingsConfined: base.settingsConfined };
  const from = base?.key.files.length ?? 0;
  const confined: string[] = [];
  // A server that keeps its template alone (the local one, this run's own copy of a kept data
  // directory) drops the base once the new template is kept: the new one is built in its place.
  const takeOver = Boolean(base && server.keepTemplate);
  const built = await createScratch(
    'tpl',
    base?.name ?? 'template0',
    async (c) => {
      if (base) {
        if (compat) await c.query(`drop schema if exists ${SAFEUPDATE_SCHEMA} cascade`);
      } else if (compat) await applyCompatLayer(c);
      for (const file of migrations.slice(from)) await applyMigration(c, file, { ...apply, skippable: true, supabaseCompat: compat });
      await applyExtra(c, [], compat, apply);
    },
    { takeOver, confined },
  );
  // The base's settings moved, then this build's: a run reusing it says what the builds said.
  const settingsConfined = [...(base?.settingsConfined ?? []), ...confined];
  await admin.use(async (c) => {
    await c.query(`comment on database ${quoteIdent(built)} is ${literal(keyComment(key, Date.now(), settingsConfined))}`);
    try {
      await c.query(`alter database ${quoteIdent(built)} rename to ${quoteIdent(target)}`);
    } catch (e) {
      // Another run kept the same template meanwhile: use theirs.
      if (!['42P04', '23505'].includes((e as pg.DatabaseError).code ?? '')) throw e;
      await c.query(`drop database if exists ${quoteIdent(built)} with (force)`);
    }
    // A server that keeps its whole state (the local one, started for this run) keeps this template alone.
    const others = kept.filter((k) => k.name !== target);
    const dropped = server.keepTemplate ? others : others.slice(0, Math.max(0, others.length + 1 - KEPT_TEMPLATES)).filter((k) => Date.now() - k.built > DROPPABLE_AFTER_MS);
    // Another run between listing the kept templates and copying one: they all stay until a later run.
    const noneListing = dropped.length > 0 && (await c.query<{ free: boolean }>('select pg_try_advisory_lock($1, $2) as free', [...KEPT_TEMPLATES_IN_USE_LOCK])).rows[0]?.free === true;
    if (noneListing) {
      for (const old of dropped) {
        // One a run is connected to cannot be dropped now: it stays until a later run.
        await c.query(`drop database if exists ${quoteIdent(old.name)}`).catch(() => {});
      }
      await c.query('select pg_advisory_unlock($1, $2)', [...KEPT_TEMPLATES_IN_USE_LOCK]);
    }
  });
  // Keeping it may restart the server (the local one copies its data directory): the admin connection would be cut.
  if (server.keepTemplate) {
    await admin.end();
    await server.keepTemplate(key);
  }
  return { name: target, source: base ? { kind: 'extended', digest: key.digest, base: base.key.digest, applied: migrations.length - from } : { kind: 'built', digest: key.digest }, settingsConfined };
}

/** Drops the kept templates on a server (`policyfuzz cache clear --database-url`); returns their names. One in use is left, and said so. */
export async function dropKeptTemplates(adminUrl: string): Promise<{ dropped: string[]; inUse: string[] }> {
  return withClient(adminUrl, async (c) => {
    const dropped: string[] = [];
    const inUse: string[] = [];
    for (const { name } of await keptTemplates(c)) {
      try {
        await c.query(`drop database if exists ${quoteIdent(name)}`);
        dropped.push(name);
      } catch {
        inUse.push(name);
      }
    }
    return { dropped, inUse };
  });
}

/** Whether the connecting role may clone databases other roles own (a superuser). */
async function mayCloneAnyDatabase(c: pg.Client): Promise<boolean> {
  const { rows } = await c.query<{ rolsuper: boolean }>(`select rolsuper from pg_roles where rolname = current_user`);
  return rows[0]?.rolsuper === true;
}

/** The kept templates on a server, oldest first. */
export async function keptTemplates(c: pg.Client): Promise<{ name: string; key: TemplateKey; built: number; settingsConfined: string[] }[]> {
  const { rows } = await c.query<{ datname: string; comment: string | null }>(
    `select datname, shobj_description(oid, 'pg_database') as comment from pg_database where datname like $1`,
    [KEPT_TEMPLATE_LIKE],
  );
  return rows.flatMap((r) => {
    const kept = keyFromComment(r.comment);
    return kept && r.datname === CACHED_TEMPLATE_PREFIX + kept.key.digest ? [{ name: r.datname, ...kept }] : [];
  }).sort((x, y) => x.built - y.built);
}
