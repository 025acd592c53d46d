/**
 * Rules 15 and 16 read from the catalog: who may execute every function (anon, authenticated,
 * service_role, and PUBLIC — a null ACL means Postgres' default, EXECUTE to PUBLIC), and which
 * privileges the API roles hold on every table and view, with its row-security switch. Extension
 * members are skipped. The comparison with the model is pure (catalogFindings).
 */
import type pg from 'pg';
import { notStandIn } from '../db/supabase/stand-ins.ts';
import { CALLER_READERS_CTE, READS_CALLER_PATTERN, calledNamesSql, callsNameSql } from '../introspection/caller-readers.ts';
import type { ExecuteGrantee, FunctionGrantee } from '../model/function-model.ts';
import { grantsOf, privilegesOf, projectRolesOf, type ApiRole, type Privilege, type ProjectRole, type TableModel } from '../model/table-model.ts';

export interface CatalogFunction {
  /** `fn` in public, `schema.fn` elsewhere (the model's naming). */
  name: string;
  /** Its schema: a function in a schema the API exposes is an RPC anyone holding EXECUTE may call. */
  schema: string;
  signature: string;
  executable: Record<ExecuteGrantee | 'public', boolean>;
  /** The project roles asked about (readCatalogFunctions' `projectRoles`): whether each may execute it (schema USAGE weighed as for the API roles). */
  projectExecutable?: Record<ProjectRole, boolean>;
  /** Returns `trigger`: Postgres runs it only as a trigger (a call answers 0A000), whoever holds EXECUTE. */
  trigger?: boolean;
  /** Its body reads who the caller is (auth.uid(), auth.jwt(), the request's claims), itself or through a function it calls that does. */
  readsCaller?: boolean;
  /** Its body names no relation, runs no dynamic SQL and calls none of the project's functions (a nanoid generator, a jsonb diff): it can answer nothing about anyone. */
  readsNoRelation?: boolean;
}

export interface CatalogTable {
  name: string;
  kind: 'table' | 'view';
  rowSecurity: boolean;
  securityInvoker: boolean;
  /** The API roles', and each project role's asked about (readCatalogTables' `projectRoles`; none where the role does not exist). */
  privileges: Record<ApiRole, Privilege[]> & Record<ProjectRole, Privilege[]>;
  /** The columns a role may UPDATE by column grants alone (no table-level UPDATE), where it has any. */
  columnUpdate?: Partial<Record<ApiRole | ProjectRole, string[]>>;
  /** The columns a role may SELECT by column grants alone (no table-level SELECT), where it has any: `select=*` is refused. */
  columnSelect?: Partial<Record<ApiRole | ProjectRole, string[]>>;
  /** The columns a role may INSERT by column grants alone (no table-level INSERT), where it has any: a body naming another is refused. */
  columnInsert?: Partial<Record<ApiRole | ProjectRole, string[]>>;
  /** A partition's parent table (model-style name): its rows are the parent's, reached through it. */
  partitionOf?: string;
}

const modelName = (schema: string, name: string) => (schema === 'public' ? name : `${schema}.${name}`);

/**
 * `throughSchemaUsage`: count anon's, authenticated's and PUBLIC's EXECUTE only where anon or
 * authenticated may use the function's schema, as a call through the API needs (GRANT01:
 * headless-vector-search keeps PUBLIC's default EXECUTE on `docs` functions, whose schema only
 * service_role may use). Rule 15 reads the grant itself: a private helper's EXECUTE must be revoked
 * whatever its schema's USAGE says today.
 */
export async function readCatalogFunctions(client: pg.Client, schemas: string[], options: { throughSchemaUsage?: boolean; projectRoles?: readonly ProjectRole[] } = {}): Promise<CatalogFunction[]> {
  const r = await client.query<{ schema: string; name: string; args: string; anon: boolean; authenticated: boolean; service_role: boolean; public: boolean; trigger: boolean; reads_caller: boolean; reads_no_relation: boolean; project_executable: Record<string, boolean> }>(
    // Readers through any depth of calls (introspection/caller-readers.ts).
    `with recursive ${CALLER_READERS_CTE}
     select n.nspname as schema, p.proname as name, pg_get_function_identity_arguments(p.oid) as args,
            has_function_privilege('anon', p.oid, 'execute') and ($2 or has_schema_privilege('anon', n.oid, 'usage')) as anon,
            has_function_privilege('authenticated', p.oid, 'execute') and ($2 or has_schema_privilege('authenticated', n.oid, 'usage')) as authenticated,
            has_function_privilege('service_role', p.oid, 'execute') as service_role,
            (p.proacl is null or exists (select 1 from aclexplode(p.proacl) a where a.grantee = 0 and a.privilege_type = 'EXECUTE'))
              and ($2 or has_schema_privilege('anon', n.oid, 'usage') or has_schema_privilege('authenticated', n.oid, 'usage')) as public,
            p.prorettype = 'trigger'::regtype as trigger,
            coalesce(p.prosrc, '') ~* '${READS_CALLER_PATTERN}'
              or exists (select 1 from caller_readers c where ${callsNameSql("coalesce(p.prosrc, '')", 'called.names', 'c.proname')}) as reads_caller,
            ${READS_NO_RELATION_SQL} as reads_no_relation,
            (select coalesce(jsonb_object_agg(r.rolname, has_function_privilege(r.oid, p.oid, 'execute') and ($2 or has_schema_privilege(r.oid, n.oid, 'usage'))), '{}')
               from pg_roles r where r.rolname = any($3::text[])) as project_executable
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            cross join lateral (select ${calledNamesSql("coalesce(p.prosrc, '')")} as names) called
      where n.nspname = any($1) and p.prokind in ('f', 'p')
        and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
        and ${notStandIn('pg_proc', 'p.oid')}
      order by 1, 2, 3`,
    [schemas, !options.throughSchemaUsage, options.projectRoles ?? []],
  );
  const projectRoles = options.projectRoles ?? [];
  return r.rows.map((f) => ({
    name: modelName(f.schema, f.name),
    schema: f.schema,
    signature: `${f.schema}.${f.name}(${f.args})`,
    executable: { anon: f.anon, authenticated: f.authenticated, service_role: f.service_role, public: f.public },
    ...(f.trigger ? { trigger: true } : {}),
    ...(f.reads_caller ? { readsCaller: true } : {}),
    ...(f.reads_no_relation ? { readsNoRelation: true } : {}),
    // A role that does not exist may execute nothing.
    ...(projectRoles.length ? { projectExecutable: Object.fromEntries(projectRoles.map((role) => [role, f.project_executable[role] === true])) } : {}),
  }));
}

/**
 * What calls each function with the caller's rights, by signature: a policy's USING or WITH CHECK,
 * a view, a column default or a CHECK (pg_depend), and the functions named in the body of a
 * security-invoker function one of those reaches, or a trigger or an RPC in an exposed schema
 * runs. Postgres checks EXECUTE against the caller there, so the roles such a caller serves need
 * it (spec §4.2: the policy helpers are "callable by the policy engine as anon and authenticated").
 * A definer's body runs as its owner and needs nothing of the caller. Bodies are read by name
 * (string literals and comments left out): a name read where no call is made accepts a grant,
 * never reports one. A bare name resolves on the function's own `SET search_path`, else on the
 * path PostgREST sets: the schema the request targets (any exposed one), then `extraSearchPath`
 * (db-extra-search-path).
 */
export async function readInvokerCallers(client: pg.Client, exposedSchemas: readonly string[], extraSearchPath: readonly string[]): Promise<Map<string, string[]>> {
  const apiSearchPath = [...exposedSchemas, ...extraSearchPath];
  const fns = (
    await client.query<{ oid: number; schema: string; name: string; args: string; definer: boolean; walkable: boolean; body: string; config: string[] | null }>(
      `select p.oid::int as oid, n.nspname as schema, p.proname as name, pg_get_function_identity_arguments(p.oid) as args,
              p.prosecdef as definer, l.lanname in ('sql', 'plpgsql') as walkable, coalesce(p.prosrc, '') as body, p.proconfig as config
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_language l on l.oid = p.prolang
        where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%' and p.prokind in ('f', 'p')
          and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')`,
    )
  ).rows;
  const roots = (
    await client.query<{ fn: number; caller: string; body_only: boolean }>(
      `select d.refobjid::int as fn, pg_describe_object(d.classid, d.objid, d.objsubid) as caller, false as body_only
         from pg_depend d
        where d.refclassid = 'pg_proc'::regclass and d.classid in ('pg_policy'::regclass, 'pg_rewrite'::regclass, 'pg_attrdef'::regclass, 'pg_constraint'::regclass)
       union all
       select t.tgfoid::int, pg_describe_object('pg_trigger'::regclass, t.oid, 0), true from pg_trigger t where not t.tgisinternal
       order by 1, 2`,
    )
  ).rows;
  const byOid = new Map(fns.map((f) => [f.oid, f]));
  const byName = new Map<string, typeof fns>();
  for (const f of fns) byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
  const signatureOf = (f: (typeof fns)[number]) => `${f.schema}.${f.name}(${f.args})`;
  const searchPath = (f: (typeof fns)[number]) => {
    const set = f.config?.find((c) => c.startsWith('search_path='));
    return set ? set.slice('search_path='.length).split(',').map((s) => s.trim().replace(/^"|"$/g, '')) : apiSearchPath;
  };
  // The functions a body names as calls: schema-qualified, or bare in a schema of its search_path.
  const calledIn = (f: (typeof fns)[number]) => {
    const text = f.body.replace(/'(?:[^']|'')*'/g, "''").replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
    const out = new Set<(typeof fns)[number]>();
    const ident = (quote: string | undefined, word: string) => (quote ? word : word.toLowerCase());
    for (const m of text.matchAll(/(?<![\w$."])("?)([A-Za-z_][\w$]*)\1(?:\s*\.\s*("?)([A-Za-z_][\w$]*)\3)?\s*\(/g)) {
      const [schema, name] = m[4] ? [ident(m[1], m[2]), ident(m[3], m[4])] : [undefined, ident(m[1], m[2])];
      for (const g of byName.get(name) ?? []) if (schema ? g.schema === schema : searchPath(f).includes(g.schema)) out.add(g);
    }
    return out;
  };
  const RPC = 'RPC';
  const callers = new Map<string, string[]>();
  const walked = new Set<number>();
  const walk = (f: (typeof fns)[number], caller: string) => {
    if (f.definer || !f.walkable || walked.has(f.oid)) return;
    walked.add(f.oid);
    for (const g of calledIn(f)) {
      if (g.oid === f.oid) continue;
      const through = caller === RPC ? `RPC ${signatureOf(f)}` : `${caller}, through ${signatureOf(f)}`;
      callers.set(signatureOf(g), [...(callers.get(signatureOf(g)) ?? []), through]);
      walk(g, through);
    }
  };
  for (const r of roots) {
    const f = byOid.get(r.fn);
    if (!f) continue;
    if (!r.body_only) callers.set(signatureOf(f), [...(callers.get(signatureOf(f)) ?? []), r.caller]);
    walk(f, r.caller);
  }
  for (const f of fns) if (exposedSchemas.includes(f.schema)) walk(f, RPC);
  return callers;
}

/** Whether relation `c` is a view running with its caller's rights (`with (security_invoker = true)`). */
const INVOKER_VIEW = `coalesce(c.reloptions @> array['security_invoker=true'] or c.reloptions @> array['security_invoker=on'], false)`;

/**
 * SQL: whether `role` also holds `privilege` on every relation a `security_invoker` view reads
 * (true for any other relation). Such a view checks the caller's own privileges on its tables, so a
 * grant on the view alone reaches nothing: an `api` schema whose default privileges grant anon every
 * view over `app` tables granted to authenticated only answers anon 42501 (stranger-app-17's
 * team_members, read as anon-readable before). With `column` (SQL naming the view's column), the
 * table's column of that name is asked instead, where it has one (a column grant).
 */
/** `role` and `privilege` are SQL: a quoted name (`'anon'`) or an expression naming one. */
function invokerViewBaseHeld(role: string, privilege: string, column?: string): string {
  const held = column
    ? `case when exists (select 1 from pg_attribute ba where ba.attrelid = bc.oid and ba.attname = ${column} and not ba.attisdropped)
             then has_column_privilege(${role}, bc.oid, ${column}, ${privilege}) else has_any_column_privilege(${role}, bc.oid, ${privilege}) end`
    : `has_table_privilege(${role}, bc.oid, ${privilege})`;
  return `(not ${INVOKER_VIEW} or not exists (
              select 1 from pg_rewrite rw
                join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = rw.oid and d.refclassid = 'pg_class'::regclass
                join pg_class bc on bc.oid = d.refobjid and bc.oid <> c.oid and bc.relkind in ('r', 'p', 'v', 'm', 'f')
               where rw.ev_class = c.oid
                 and not (${held} and has_schema_privilege(${role}, bc.relnamespace, 'usage'))))`;
}

/**
 * A role's privileges on each table as it can use them: a grant on a table in a schema it has no
 * USAGE on reaches nothing (42501, permission denied for schema). The one reading of them: init's
 * (target-facts.ts) too.
 */
export async function readCatalogTables(client: pg.Client, schemas: string[], projectRoles: readonly ProjectRole[] = []): Promise<CatalogTable[]> {
  const r = await client.query<Record<string, unknown> & { schema: string; name: string; relkind: string; rls: boolean; invoker: boolean }>(
    `select n.nspname as schema, c.relname as name, c.relkind::text as relkind, c.relrowsecurity as rls,
            ${INVOKER_VIEW} as invoker,
            (select case when pn.nspname = 'public' then pc.relname::text else pn.nspname || '.' || pc.relname end
               from pg_inherits i join pg_class pc on pc.oid = i.inhparent join pg_namespace pn on pn.oid = pc.relnamespace
              where c.relispartition and i.inhrelid = c.oid) as partition_of,
            ${(['anon', 'authenticated'] as const).flatMap((role) => (['select', 'insert', 'update', 'delete'] as const).map((p) => `(has_table_privilege('${role}', c.oid, '${p}') and has_schema_privilege('${role}', n.oid, 'usage') and ${invokerViewBaseHeld(`'${role}'`, `'${p}'`)}) as ${role}_${p}`)).join(', ')},
            ${(['anon', 'authenticated'] as const).flatMap((role) => (['select', 'update', 'insert'] as const).map((p) => `array(select a.attname::text from pg_attribute a where has_schema_privilege('${role}', n.oid, 'usage') and a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and has_column_privilege('${role}', c.oid, a.attnum, '${p}') and ${invokerViewBaseHeld(`'${role}'`, `'${p}'`, 'a.attname')} order by a.attnum) as ${role}_${p}_columns`)).join(', ')}
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any($1) and c.relkind in ('r', 'p', 'v', 'm', 'f')
      order by 1, 2`,
    [schemas],
  );
  const privs = (row: Record<string, unknown>, role: ApiRole) => (['select', 'insert', 'update', 'delete'] as const).filter((p) => row[`${role}_${p}`] === true);
  const held = await readProjectRolePrivileges(client, schemas, projectRoles);
  return r.rows.map((t) => {
    const name = modelName(t.schema, t.name);
    const own = projectRoles.map((role) => [role, held.get(`${name}\0${role}`)] as const);
    // Each kind of column grant, the API roles' and the project roles' alike (one reading of the three).
    const columnGrants = Object.fromEntries(
      COLUMN_GRANT_KINDS.flatMap(([privilege, key]) => {
        const byRole = { ...apiColumnGrants(t, privs, privilege), ...Object.fromEntries(own.flatMap(([role, h]) => (h?.columns[privilege].length && !h.privileges.includes(privilege) ? [[role, h.columns[privilege]]] : []))) };
        return Object.keys(byRole).length ? [[key, byRole]] : [];
      }),
    );
    return {
      ...(typeof t.partition_of === 'string' ? { partitionOf: t.partition_of } : {}),
      name,
      kind: t.relkind === 'v' || t.relkind === 'm' ? 'view' : 'table',
      rowSecurity: t.rls,
      securityInvoker: t.invoker,
      privileges: { ...Object.fromEntries(own.map(([role, h]) => [role, h?.privileges ?? []])), anon: privs(t, 'anon'), authenticated: privs(t, 'authenticated') },
      ...columnGrants,
    };
  });
}

/**
 * The project's own roles' privileges on each table (`create role app_admin; grant select, delete
 * on t to app_admin`), read as the API roles' are (schema USAGE, a security_invoker view's base
 * tables), keyed `table\0role`. A role that does not exist holds nothing (no row).
 */
async function readProjectRolePrivileges(client: pg.Client, schemas: string[], roles: readonly ProjectRole[]): Promise<Map<string, { privileges: Privilege[]; columns: Record<ColumnPrivilege, string[]> }>> {
  if (!roles.length) return new Map();
  const heldSql = (p: string) => `has_table_privilege(r.rolname, c.oid, ${p}) and has_schema_privilege(r.rolname, n.oid, 'usage') and ${invokerViewBaseHeld('r.rolname', p)}`;
  const columnsSql = (p: string) =>
    `array(select a.attname::text from pg_attribute a where has_schema_privilege(r.rolname, n.oid, 'usage') and a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and has_column_privilege(r.rolname, c.oid, a.attnum, ${p}) and ${invokerViewBaseHeld('r.rolname', p, 'a.attname')} order by a.attnum)`;
  const rows = await client.query<{ schema: string; name: string; role: string; privileges: Privilege[]; select_columns: string[]; update_columns: string[]; insert_columns: string[] }>(
    `select n.nspname as schema, c.relname as name, r.rolname::text as role,
            array(select p from unnest(array['select', 'insert', 'update', 'delete']) p where ${heldSql('p')}) as privileges,
            ${columnsSql("'select'")} as select_columns, ${columnsSql("'update'")} as update_columns, ${columnsSql("'insert'")} as insert_columns
       from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_roles r on r.rolname = any($2::text[])
      where n.nspname = any($1) and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
    [schemas, roles],
  );
  return new Map(rows.rows.map((t) => [`${modelName(t.schema, t.name)}\0${t.role}`, { privileges: t.privileges, columns: { select: t.select_columns, update: t.update_columns, insert: t.insert_columns } }]));
}

type ColumnPrivilege = 'select' | 'update' | 'insert';
/** The column-grant kinds, by privilege and the CatalogTable key (and Grants key) that holds them. */
const COLUMN_GRANT_KINDS = [['select', 'columnSelect'], ['update', 'columnUpdate'], ['insert', 'columnInsert']] as const;

/** The columns each API role holds `privilege` on by column grants alone (no table-level one), where it holds any. */
function apiColumnGrants(row: Record<string, unknown>, privs: (row: Record<string, unknown>, role: ApiRole) => Privilege[], privilege: ColumnPrivilege): Partial<Record<ApiRole, string[]>> {
  return Object.fromEntries(
    (['anon', 'authenticated'] as const).flatMap((role) => {
      const columns = row[`${role}_${privilege}_columns`] as string[];
      return !privs(row, role).includes(privilege) && columns.length ? [[role, columns] as const] : [];
    }),
  );
}

export interface CatalogComparison {
  /** Grants the model expects and the database holds. */
  granted: number;
  /** Grants the model expects absent and the database does not hold. */
  withheld: number;
  findings: string[];
  /** Objects that held only by a secure reading of a rule the spec leaves open, by the reading's name. */
  readings?: Record<string, string[]>;
}

/**
 * Secure reading: a function the model does not know that a policy, a view, a default or an
 * invoker body calls as the caller (readInvokerCallers) is a policy helper, "callable by the
 * policy engine as anon and authenticated" (spec §4.2), not one of rule 15's private helpers: it
 * may be executable by them where the API does not expose its schema (no one calls it as an RPC)
 * and PUBLIC does not hold it.
 */
export const POLICY_HELPER_EXECUTE = 'policy-helper-execute';
/**
 * Secure reading: a function the model does not know, in an exposed schema, that a policy calls,
 * whose body reads who the caller is (itself or through a function it calls) and that takes no
 * argument or only a scope's (a department, a role, a permission): like the spec's own
 * current_user_* helpers and vs_in_scope(p_dept) ("callable by the policy engine as anon and
 * authenticated", §4.2) it answers about the caller, not about another person (rule 15), so anon
 * and authenticated may execute it as an RPC too. One reading no caller (`admin_ids()`) is a finding.
 */
export const POLICY_HELPER_ABOUT_CALLER = 'policy-helper-about-caller';
/**
 * Secure reading: a function the model does not know that a policy, view, default or invoker body
 * calls as the caller (so the API roles need EXECUTE), whose body reads no relation (no `from`,
 * `join`, `into`, `update`, `table`, no dynamic `execute`) and calls none of the project's functions
 * (a nanoid id generator a column default calls: stranger-app-11), answers nothing about another
 * person as an RPC either, in an exposed schema too.
 */
export const FUNCTION_READING_NO_RELATION = 'function-reading-no-relation';
/**
 * `p` (pg_proc) reads no relation and calls no function of the project's, in any schema (a helper in
 * a schema rule 15 does not read may read a table: `app.email_of(p)`); an extension's functions
 * (pgcrypto's `gen_random_bytes`) do not count. A SQL-standard body (`begin atomic`) is held in
 * `prosqlbody`, not `prosrc`: it is not read, so never this reading (readCatalogFunctions', whose
 * `called.names` holds p's calledNamesSql).
 */
const READS_NO_RELATION_SQL = `(coalesce(p.prosrc, '') !~* '(^|[^a-z0-9_])(from|join|into|update|table|execute)([^a-z0-9_]|$)'
              and p.prolang <> (select oid from pg_language where lanname = 'c')
              and (to_jsonb(p) ->> 'prosqlbody') is null
              and not exists (select 1 from pg_proc q join pg_namespace qn on qn.oid = q.pronamespace
                               where qn.nspname not in ('pg_catalog', 'information_schema') and q.oid <> p.oid
                                 and not exists (select 1 from pg_depend qd where qd.classid = 'pg_proc'::regclass and qd.objid = q.oid and qd.deptype = 'e')
                                 and ${callsNameSql("coalesce(p.prosrc, '')", 'called.names', 'q.proname')}))`;
/** Secure reading: EXECUTE to PUBLIC on a function the model lets every API role execute reaches no API caller more. */
export const PUBLIC_EXECUTE_EVERY_API_ROLE = 'public-execute-every-api-role';
/**
 * Secure reading: service_role holding EXECUTE on a function the model withholds from it. Rule 15
 * asks only that anon, authenticated and PUBLIC cannot run a private helper; the server's own role
 * bypasses row security anyway (as for a function the model does not know). Withheld where the
 * model grants it stays a finding: the server's own calls would fail.
 */
export const SERVICE_ROLE_EXECUTE = 'service-role-execute';

/**
 * A policy helper's EXECUTE to PUBLIC (stranger-app-8's helpers, never revoked from it) where anon,
 * authenticated and service_role hold it anyway: through the API no caller more may run it (as
 * PUBLIC_EXECUTE_EVERY_API_ROLE on a function the model grants every API role), so the helper's
 * other reading decides. Without PUBLIC, nothing to weigh.
 */
function publicReachesNoApiCallerMore(f: CatalogFunction): boolean {
  return !f.executable.public || (f.executable.anon && f.executable.authenticated && f.executable.service_role);
}

/** Arguments naming a scope the caller is asked about (`p_dept text`), never a person or a row: none, or only such. */
const SCOPE_ARGUMENT = /^(?:p_|_)?(?:dept|department|role|permission|perm|scope)s?\s+(?:text|character varying|citext|\w+)$/i;
function asksAboutCallerOnly(signature: string): boolean {
  const args = signature.slice(signature.indexOf('(') + 1, -1).trim();
  return args === '' || args.split(',').every((a) => SCOPE_ARGUMENT.test(a.trim()) && !/\buuid\b/i.test(a));
}

/** Where the functions are called from, and which schemas the API exposes (rule 15's policy helpers, above). */
export interface FunctionCallers {
  calledBy: ReadonlyMap<string, readonly string[]>;
  exposedSchemas: readonly string[];
}

/**
 * Rule 15: every function's EXECUTE against the model's named grants. A function the model does
 * not know is a finding where anon, authenticated or PUBLIC may execute it, unless `callers` show it
 * to be a policy helper outside the API (POLICY_HELPER_EXECUTE).
 */
export function compareFunctions(found: CatalogFunction[], expected: Map<string, readonly FunctionGrantee[]>, callers?: FunctionCallers, projectRoles: readonly ProjectRole[] = projectRolesNamed({}, undefined, expected.values())): CatalogComparison {
  const out: CatalogComparison = { granted: 0, withheld: 0, findings: [] };
  const readings: Record<string, string[]> = {};
  const accept = (reading: string, f: CatalogFunction) => (readings[reading] ??= []).push(f.signature);
  for (const f of found) {
    const grantees = expected.get(f.name);
    if (!grantees) {
      // Rule 15 asks of a function only that anon, authenticated and PUBLIC cannot run it; Postgres runs a trigger function only as a trigger.
      const callable = f.executable.anon || f.executable.authenticated || f.executable.public;
      if (f.trigger || !callable) {
        out.withheld++;
        continue;
      }
      const holders = (Object.keys(f.executable) as (keyof CatalogFunction['executable'])[]).filter((k) => f.executable[k]);
      const calledBy = callers?.calledBy.get(f.signature) ?? [];
      const exposed = callers?.exposedSchemas.includes(f.schema) ?? true;
      if (calledBy.length && !exposed && publicReachesNoApiCallerMore(f)) {
        accept(POLICY_HELPER_EXECUTE, f);
        if (f.executable.public) accept(PUBLIC_EXECUTE_EVERY_API_ROLE, f);
        out.granted++;
        continue;
      }
      // Exposed, it is an RPC too: with no argument, or only a scope's (a department, a role, a
      // permission: `current_user_can_handle_vs(p_dept)`, as the spec's own vs_in_scope(p_dept)), it
      // can only answer about the caller, as the spec's own current_user_* helpers do.
      if (calledBy.length && exposed && f.readsCaller && asksAboutCallerOnly(f.signature) && publicReachesNoApiCallerMore(f)) {
        accept(POLICY_HELPER_ABOUT_CALLER, f);
        if (f.executable.public) accept(PUBLIC_EXECUTE_EVERY_API_ROLE, f);
        out.granted++;
        continue;
      }
      if (calledBy.length && f.readsNoRelation) {
        accept(FUNCTION_READING_NO_RELATION, f);
        out.granted++;
        continue;
      }
      const why = !callers
        ? ''
        : !calledBy.length
          ? '; no policy, view or default calls it'
          : exposed && !f.executable.public
            ? `; ${calledBy[0]} calls it, but ${f.schema} is exposed and it ${f.readsCaller ? 'takes arguments' : 'reads no caller'}: anyone holding EXECUTE may ask it about another person as an RPC (state it in the model, or move it to a schema the API does not expose)`
            : `; ${calledBy[0]} calls it, which needs anon and authenticated, not PUBLIC (revoke it from public)`;
      out.findings.push(`${f.signature}: not in the model (executable by ${holders.join(', ')})${why}`);
      continue;
    }
    if (!f.executable.public) out.withheld++;
    else if ((['anon', 'authenticated', 'service_role'] as const).every((r) => grantees.includes(r))) accept(PUBLIC_EXECUTE_EVERY_API_ROLE, f);
    else out.findings.push(`${f.signature}: EXECUTE granted to PUBLIC (a revoke must name public, anon and authenticated)`);
    for (const role of ['anon', 'authenticated', 'service_role'] as const) {
      const want = grantees.includes(role);
      if (want === f.executable[role]) want ? out.granted++ : out.withheld++;
      else if (role === 'service_role' && !want) accept(SERVICE_ROLE_EXECUTE, f);
      else out.findings.push(`${f.signature}: ${role} ${f.executable[role] ? 'may' : 'may not'} execute it, the model says it ${want ? 'may' : 'may not'}`);
    }
    for (const role of projectRoles) {
      const want = grantees.includes(role);
      const has = f.projectExecutable?.[role] === true;
      if (want === has) want ? out.granted++ : out.withheld++;
      else out.findings.push(`${f.signature}: ${role} ${has ? 'may' : 'may not'} execute it, the model says it ${want ? 'may' : 'may not'}`);
    }
  }
  return Object.keys(readings).length ? { ...out, readings } : out;
}

/**
 * The project's own roles a model names (a table's grants, a function's executableBy): the roles
 * whose grants are compared beside the API roles'. A project role the model never names is not
 * (the spec asks of the API roles; a pack speaks for the roles it names).
 */
export function projectRolesNamed(models: Record<string, TableModel>, settings: unknown, executableBy: Iterable<readonly string[]> = []): ProjectRole[] {
  const named = new Set(Object.values(models).flatMap((m) => projectRolesOf(grantsOf(m, settings))));
  for (const grantees of executableBy) for (const role of grantees) if (!(API_GRANTEES as readonly string[]).includes(role)) named.add(role);
  return [...named].sort();
}

const API_GRANTEES: readonly ExecuteGrantee[] = ['anon', 'authenticated', 'service_role'];

/** Whether `role` (an API role, or a project role read with the function) may execute `f`. */
function mayExecute(f: CatalogFunction, role: FunctionGrantee): boolean {
  return (API_GRANTEES as readonly string[]).includes(role) ? f.executable[role as ExecuteGrantee] : f.projectExecutable?.[role] === true;
}

/**
 * Rule 16: every table's and view's grants against the model, for the API roles and the project
 * roles it names (`projectRoles`, read by readCatalogTables); row security on where the model has row rules.
 */
export function compareTables(found: CatalogTable[], models: Record<string, TableModel>, settings: unknown, projectRoles: readonly ProjectRole[] = projectRolesNamed(models, settings)): CatalogComparison {
  const out: CatalogComparison = { granted: 0, withheld: 0, findings: [] };
  for (const t of found) {
    const model = models[t.name];
    const held = (['anon', 'authenticated'] as const).filter((r) => t.privileges[r].length).map((r) => `${r}: ${t.privileges[r].join('/')}`);
    // A partition of a modelled table (shop_orders_2025 of shop_orders): the API reaches its rows
    // through the parent, whose rules apply; read directly, the parent's policies do not. Only a
    // partition an API role can read or write without row security is a finding.
    if (!model && t.partitionOf && models[t.partitionOf]) {
      if (held.length && !t.rowSecurity) out.findings.push(`${t.name}: partition of ${t.partitionOf} with row security off (${held.join('; ')}): read by its own name, none of ${t.partitionOf}'s row rules apply`);
      else out.withheld++;
      continue;
    }
    if (!model) {
      // Declaring the view in the model silences this line, not the leak: the security lints say what it exposes.
      const definer = t.kind === 'view' && !t.securityInvoker && held.length ? `; no security_invoker: LINT01 (security_definer_view) names the rows it shows them` : '';
      out.findings.push(`${t.name}: ${t.kind} not in the model (${held.join('; ') || 'no grants to the API roles'})${definer}`);
      continue;
    }
    if (t.kind === 'table' && model.rowSecurity !== t.rowSecurity) out.findings.push(`${t.name}: row security ${t.rowSecurity ? 'on' : 'off'}, the model says ${model.rowSecurity ? 'on' : 'off'}`);
    if (t.kind === 'view' && model.rowSecurity && !t.securityInvoker) out.findings.push(`${t.name}: view runs with its owner's rights (no security_invoker), bypassing the row rules the model applies`);
    for (const role of ['anon', 'authenticated', ...projectRoles]) {
      for (const p of ['select', 'insert', 'update', 'delete'] as const) {
        const want = privilegesOf(grantsOf(model, settings), role).includes(p);
        const has = (t.privileges[role] ?? []).includes(p);
        if (want === has) want ? out.granted++ : out.withheld++;
        else out.findings.push(`${t.name}: ${role} ${has ? 'holds' : 'lacks'} ${p.toUpperCase()}, the model says it ${want ? 'holds' : 'lacks'} it${model.grantsSetting ? ` (setting ${model.grantsSetting})` : ''}`);
      }
    }
  }
  return out;
}

/**
 * The catalog's functions under the model's names where the project's mapping names them otherwise
 * (`api.effective_team_vs_dept_for_email` for the model's `effective_team_vs_dept_for_email`, in a
 * project whose one API schema is `api`), so each is judged against the model's grants, not as one
 * the model does not know. A function no mapping names keeps its own name.
 */
export function underModelNames(found: CatalogFunction[], mapping: { functions?: Record<string, { name?: string }> } | undefined): CatalogFunction[] {
  const modelOf = new Map(Object.entries(mapping?.functions ?? {}).flatMap(([model, f]) => (f.name && f.name !== model ? [[f.name, model] as const] : [])));
  if (!modelOf.size) return found;
  return found.map((f) => {
    const model = modelOf.get(f.name) ?? modelOf.get(`${f.schema}.${f.signature.slice(f.schema.length + 1, f.signature.indexOf('('))}`);
    return model === undefined ? f : { ...f, name: model };
  });
}

/**
 * Rule 15 on the model's functions the target keeps only in a schema the API does not expose
 * (`outsideApi`: model name → the `schema.name` found by the data half's lookup,
 * engine/runner/applicability.ts unexposedFunctionKey). PostgREST refuses every call to them, the
 * secure reading the data half accepts (engine/model/predict.ts FUNCTION_OUTSIDE_API), so the catalog judges them as the
 * model's functions, not as unknown ones: a grant the model names and the database withholds is
 * that reading; a grant beyond the model's, or PUBLIC, is still a finding. Gives the catalog with
 * them under their model names and their model grants cut to those held (for compareFunctions),
 * and the functions that held only by the reading.
 */
export function judgedOutsideApi(found: CatalogFunction[], expected: Map<string, readonly FunctionGrantee[]>, outsideApi: Map<string, string>): { found: CatalogFunction[]; expected: Map<string, readonly FunctionGrantee[]>; refused: string[] } {
  const judged = new Map(expected);
  const refused: string[] = [];
  const asModelled = found.map((f) => {
    const model = [...outsideApi].find(([, key]) => f.signature.startsWith(`${key}(`))?.[0];
    const grantees = model === undefined ? undefined : expected.get(model);
    if (model === undefined || !grantees) return f;
    const held = grantees.filter((role) => mayExecute(f, role));
    if (held.length < grantees.length) refused.push(f.signature);
    judged.set(model, held);
    return { ...f, name: model };
  });
  return { found: asModelled, expected: judged, refused };
}
