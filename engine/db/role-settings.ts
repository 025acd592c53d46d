/**
 * A migration's role-wide setting (`alter role authenticator set pgrst.db_pre_request = …`,
 * `alter role anon set statement_timeout = …`) is the cluster's, not the database's: on a server
 * shared by several projects' databases (a `--database-url` server, the test suite's one server,
 * kept templates of other projects) it would reach every other database's requests (stranger-app-13's
 * pre-request hook made every other database's requests call `authz.check_request()`: 3F000).
 * On Supabase a project has one database, so the setting confined to it is the same to the app:
 * it is applied `in database` the one being migrated (copied to each clone: databases.ts).
 * Other forms (a `DO` block's `execute`, `in database postgres`) are caught after the migrations,
 * against the settings read before them (confineSettingsMadeOutside).
 */
import type pg from 'pg';
import { ident, literal } from '../executor/sql-text.ts';
import { CASE_STATEMENT_TIMEOUT_MS } from './client.ts';
import { KEPT_TEMPLATE_LIKE } from './kept-template-name.ts';

/** `alter role|user <name> set|reset …` with no `in database`, past leading comments and blanks. */
const ROLE_WIDE_SETTING = /^((?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*alter\s+(?:role|user)\s+(?:"(?:[^"]|"")+"|[\w$]+))(\s+(?:set|reset)\b)/i;

/** The statement with a role-wide setting confined to `database`; any other statement as it is. */
export function confinedToDatabase(statement: string, database: string): string {
  return statement.replace(ROLE_WIDE_SETTING, (_, head: string, verb: string) => `${head} in database ${ident(database)}${verb}`);
}

/**
 * The advisory lock a build whose migrations may change settings outside their database holds from
 * reading those settings to confining what changed (databases.ts withSettingsTurn). Advisory locks
 * are per database: it is taken in the admin database, which every run on the server connects to;
 * pg_locks shows it from any database (SETTINGS_TURN_TAKEN).
 */
export const SETTINGS_TURN_LOCK = [0x7066, 0x5e77] as const;

/** SQL: whether a build holds the server's turn to change settings (its migrations may have set some outside their database that it has not confined yet). */
export const SETTINGS_TURN_TAKEN = `exists (select 1 from pg_locks where locktype = 'advisory' and classid = ${SETTINGS_TURN_LOCK[0]} and objid = ${SETTINGS_TURN_LOCK[1]} and objsubid = 2 and granted)`;

/** A role or database setting (pg_db_role_setting): `role` null for every role, `database` null for every database. */
export interface RoleSetting {
  role: string | null;
  database: string | null;
  name: string;
  value: string;
}

/**
 * The API roles' statement_timeout as Supabase sets it role-wide (anon 3 s, authenticated 8 s): the
 * compatibility layer (supabase/roles.sql, through withApiRoleTimeouts) sets these where a role has
 * none, and reads them back here.
 */
export const API_ROLE_STATEMENT_TIMEOUTS: ReadonlyMap<string, string> = new Map([
  ['anon', '3s'],
  ['authenticated', '8s'],
]);

/** The compatibility layer's roles.sql with API_ROLE_STATEMENT_TIMEOUTS filled in (its one source). */
export function withApiRoleTimeouts(rolesSql: string): string {
  const pairs = [...API_ROLE_STATEMENT_TIMEOUTS].map(([role, value]) => `[${literal(role)}, ${literal(value)}]`).join(', ');
  return rolesSql.replace('/* API_ROLE_STATEMENT_TIMEOUTS */', `array[${pairs}]`);
}

/**
 * The compatibility layer's role-wide settings, by role/setting: another run on the same server
 * may set one while this one migrates, so that value appearing is not read as this migration's.
 * Any other value is a migration's (a DO block's `execute 'alter role anon set statement_timeout …'`,
 * which the statement rewrite does not reach): confined like any, and put back as the layer's; so
 * is a DO block's reset of one.
 */
const HARNESS_ROLE_SETTINGS: ReadonlyMap<string, string> = new Map([...API_ROLE_STATEMENT_TIMEOUTS].map(([role, value]) => [`${role}/statement_timeout`, value]));

/**
 * The roles a request through the API runs as (PostgREST logs in as authenticator, then sets one
 * of the three): only their settings, and those of every role, reach a request. Another role's (a
 * test's, an admin's, another user's on a shared server, set while this build runs) is left alone.
 */
export const ROLES_A_REQUEST_USES: readonly string[] = ['anon', 'authenticated', 'service_role', 'authenticator'];

/**
 * The settings outside the connected database that a migration could change and a request would
 * meet: role-wide ones of every role or of ROLES_A_REQUEST_USES, and those of other databases but
 * policyfuzz's own: `pf_…` (another run's, confined by it in turn) and kept templates. A kept
 * template is built under a scratch name and renamed once built: its settings (the compatibility
 * layer's search_path, its migrations' confined ones) then appear at once, and read as this
 * build's own they were moved here and reset there, stripping the template every later copy is
 * made from (and the suite's role-settings test saw 6 notes for its 3).
 */
export async function settingsOutside(c: pg.Client): Promise<RoleSetting[]> {
  const { rows } = await c.query<RoleSetting>(
    `select r.rolname as role, d.datname as database, split_part(c, '=', 1) as name, substr(c, strpos(c, '=') + 1) as value
       from pg_db_role_setting s cross join unnest(s.setconfig) c left join pg_roles r on r.oid = s.setrole left join pg_database d on d.oid = s.setdatabase
      where s.setdatabase <> (select oid from pg_database where datname = current_database()) and (d.datname is null or (d.datname not like 'pf\\_%' and d.datname not like $1))`,
    [KEPT_TEMPLATE_LIKE],
  );
  return rows.filter((s) => s.role === null || ROLES_A_REQUEST_USES.includes(s.role));
}

/** A role-wide setting as the compatibility layer sets it (HARNESS_ROLE_SETTINGS). */
const isLayers = (s: RoleSetting) => s.database === null && HARNESS_ROLE_SETTINGS.get(`${s.role}/${s.name}`) === s.value;

const keyOf = (s: Pick<RoleSetting, 'role' | 'database' | 'name'>) => JSON.stringify([s.role, s.database, s.name]);

/** `alter role … [in database …]` (or `alter database …`) for a setting's role and database. */
function alterFor(role: string | null, database: string | null): string {
  if (role === null) return database === null ? 'alter role all' : `alter database ${ident(database)}`;
  return `alter role ${ident(role)}${database === null ? '' : ` in database ${ident(database)}`}`;
}

/** Sets `setting` (read as SET reads it: a list stays a list), or resets it when `value` is undefined. */
async function put(c: pg.Client, setting: Omit<RoleSetting, 'value'>, value: string | undefined): Promise<void> {
  const alter = alterFor(setting.role, setting.database);
  if (value === undefined) return void (await c.query(`${alter} reset ${ident(setting.name)}`));
  await c.query('begin');
  try {
    await c.query('select set_config($1, $2, true)', [setting.name, value]);
    await c.query(`${alter} set ${ident(setting.name)} from current`);
    await c.query('commit');
  } catch (e) {
    await c.query('rollback').catch(() => {});
    throw e;
  }
}

/**
 * A migration's setting made outside the database it migrates, whatever its form (a `DO` block's
 * `execute format('alter role …')`, `alter role … in database postgres set`, `alter database
 * postgres set`): confinedToDatabase rewrites only the plain statement. Read against `before`
 * (settingsOutside, taken before the migrations): each one changed is put back as it was, and a
 * set one is made in this database instead (where it has none of its own for that role: on
 * Supabase a database's own setting wins over a role-wide one), as on Supabase the app's one
 * database would have it. Returns what was moved or put back, one line each, for the run's notes.
 */
export async function confineSettingsMadeOutside(c: pg.Client, before: readonly RoleSetting[]): Promise<string[]> {
  const after = await settingsOutside(c);
  const was = new Map(before.map((s) => [keyOf(s), s.value]));
  const now = new Map(after.map((s) => [keyOf(s), s.value]));
  const said: string[] = [];
  const database = c.database!;
  const where = (s: RoleSetting) => `${s.name} for ${s.role === null ? 'every role' : `role ${s.role}`} ${s.database === null ? 'in every database' : `in database ${s.database}`}`;
  // The layer's value appearing where there was none is another run's compatibility layer, not these migrations'.
  for (const s of after.filter((a) => was.get(keyOf(a)) !== a.value && !(isLayers(a) && !was.has(keyOf(a))))) {
    try {
      await put(c, s, was.get(keyOf(s)));
      const own = await ownSetting(c, s.role, s.name);
      if (!own) await put(c, { role: s.role, database, name: s.name }, s.value);
      said.push(`${where(s)} set by the migrations: moved into the migrated database${own ? ' (which has its own, kept)' : ''}, outside it put back as it was`);
    } catch (e) {
      said.push(`${where(s)} set by the migrations could not be put back (${(e as Error).message}): it reaches the server's other databases`);
    }
  }
  for (const s of before.filter((b) => !now.has(keyOf(b)))) {
    try {
      await put(c, s, s.value);
      // A statement_timeout reset role-wide leaves the role none: in the migrated database it runs
      // under the bound any role with none runs under here (CASE_STATEMENT_TIMEOUT_MS), unless the
      // database has its own. Another setting has no value that stands for none: put back alone.
      const bounded = s.name === 'statement_timeout' && s.role !== null && s.database === null && !(await ownSetting(c, s.role, s.name));
      if (bounded) await put(c, { role: s.role, database, name: s.name }, `${CASE_STATEMENT_TIMEOUT_MS}ms`);
      said.push(`${where(s)} reset by the migrations: put back as it was outside the migrated database${bounded ? `; in it the role has none (policyfuzz's bound on one statement, ${CASE_STATEMENT_TIMEOUT_MS / 1000} s, applies)` : ''}`);
    } catch (e) {
      said.push(`${where(s)} reset by the migrations could not be put back (${(e as Error).message})`);
    }
  }
  return said;
}

/** Whether the connected database has its own value of `name` for `role` (null: every role). */
async function ownSetting(c: pg.Client, role: string | null, name: string): Promise<boolean> {
  const own = await c.query(`select 1 from pg_db_role_setting x cross join unnest(x.setconfig) v where x.setdatabase = (select oid from pg_database where datname = current_database()) and x.setrole = coalesce((select oid from pg_roles where rolname = $1), 0) and split_part(v, '=', 1) = $2`, [role, name]);
  return (own.rowCount ?? 0) > 0;
}
