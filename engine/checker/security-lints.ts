/**
 * Supabase's security lints (supabase/splinter, the database linter of the Supabase dashboard),
 * read from any target's catalog: each finding names the lint, the object, what is wrong with it
 * and the fix, ranked by the lint's level (ERROR before WARN). The queries are our own; each one
 * cites the splinter lint it follows and says where it goes further (a definer view names the
 * tables whose rows it leaks; user_metadata is also looked for in the functions a policy calls).
 * Invoker functions without a search_path (splinter flags them too) and definer functions the API
 * roles may execute (0028/0029: rule 15 checks every grant against the model) are left out.
 */
import { MANAGED_SCHEMAS } from '../db/supabase/managed-schemas.ts';
import type pg from 'pg';
import { notStandIn } from '../db/supabase/stand-ins.ts';
import { shownIdent } from '../executor/sql-text.ts';

export type LintLevel = 'ERROR' | 'WARN';

export interface LintFinding {
  /** Splinter's lint name (`security_definer_view`). */
  lint: string;
  level: LintLevel;
  /** `schema.name`, a function with its arguments, a policy as `policy on schema.table`. */
  object: string;
  problem: string;
  fix: string;
  /** The object as its migration's statement names it (the SARIF report points at that statement). */
  defined: { kind: 'relation' | 'function' | 'policy' | 'extension'; schema?: string; name: string; table?: string };
}


const API_ROLES = ['anon', 'authenticated'] as const;

/** The SQL that is true when `rel` is not a member of an extension (an extension's objects are its authors'), nor of policyfuzz's stand-in for one. */
const notExtensionMember = (cls: string, oid: string) => `not exists (select 1 from pg_depend e where e.classid = '${cls}'::regclass and e.objid = ${oid} and e.deptype = 'e') and ${notStandIn(cls, oid)}`;

/** A view's `security_invoker` option in any spelling Postgres accepts as true. */
export const runsAsInvoker = (rel: string) => `exists (select 1 from unnest(coalesce(${rel}.reloptions, '{}')) opt where lower(opt) in ('security_invoker=true', 'security_invoker=on', 'security_invoker=yes', 'security_invoker=1'))`;

/** The API roles holding `privilege` on relation `rel`, as a text array. */
const apiRolesWith = (rel: string, privileges: string) =>
  `array(select r from unnest(array['${API_ROLES.join("','")}']) r where has_table_privilege(r, ${rel}.oid, '${privileges}'))`;

/** Relations a view's rewrite rule reads (its own oid excluded). */
const readBy = (view: string) =>
  `select distinct b.oid, b.relnamespace, b.relname, b.relrowsecurity, b.relkind from pg_rewrite w
     join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = w.oid and d.refclassid = 'pg_class'::regclass
     join pg_class b on b.oid = d.refobjid
    where w.ev_class = ${view}.oid and b.oid <> ${view}.oid`;

const qualified = (schema: string, name: string) => `${schema}.${name}`;
const roles = (list: string[]) => list.join(' and ');

interface Query<Row> {
  /** What \$1 is: the exposed schemas, the schemas Supabase manages (left out), or nothing. */
  over: 'exposed' | 'managed' | 'none';
  sql: string;
  findings(row: Row): LintFinding[];
}

/** 0010 security_definer_view: a view the API roles can read that runs with its owner's rights. */
const securityDefinerView: Query<{ schema: string; name: string; readers: string[]; narrowed: string[] }> = {
  over: 'exposed',
  sql: `select n.nspname as schema, c.relname as name, ${apiRolesWith('c', 'select')} as readers,
               array(select format('%s.%s', bn.nspname, b.relname) from (${readBy('c')}) b join pg_namespace bn on bn.oid = b.relnamespace where b.relrowsecurity order by 1) as narrowed
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where c.relkind = 'v' and n.nspname = any($1) and not ${runsAsInvoker('c')} and ${notExtensionMember('pg_class', 'c.oid')}
           and cardinality(${apiRolesWith('c', 'select')}) > 0`,
  findings: (r) => [
    {
      lint: 'security_definer_view',
      level: 'ERROR',
      object: qualified(r.schema, r.name),
      defined: { kind: 'relation', schema: r.schema, name: r.name },
      problem: r.narrowed.length
        ? `view has no security_invoker and reads ${r.narrowed.join(', ')}, whose rows row-level security narrows: it shows ${roles(r.readers)} every row, as its owner sees them`
        : `view has no security_invoker: it runs with its owner's rights, so ${roles(r.readers)} read what the owner may, not what they may`,
      fix: `alter view ${qualified(r.schema, r.name)} set (security_invoker = on); or revoke select on it from ${r.readers.join(', ')}`,
    },
  ],
};

/**
 * The columns of auth.users a view's rule reads, in table order (a view reading `id` and a name out of
 * `raw_user_meta_data` shows those, not every e-mail); empty where it reads whole rows.
 */
const authUsersColumnsReadBy = (view: string) =>
  `array(select a.attname::text from pg_rewrite w
           join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = w.oid and d.refclassid = 'pg_class'::regclass and d.refobjid = to_regclass('auth.users') and d.refobjsubid > 0
           join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
          where w.ev_class = ${view}.oid group by a.attnum, a.attname order by a.attnum)`;

/** 0002 auth_users_exposed: auth.users read through a view or materialized view the API roles can select. */
const authUsersExposed: Query<{ schema: string; name: string; kind: string; invoker: boolean; readers: string[]; columns: string[] }> = {
  over: 'exposed',
  sql: `select n.nspname as schema, c.relname as name, c.relkind::text as kind, ${runsAsInvoker('c')} as invoker, ${apiRolesWith('c', 'select')} as readers,
               ${authUsersColumnsReadBy('c')} as columns
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where c.relkind in ('v', 'm') and n.nspname = any($1) and cardinality(${apiRolesWith('c', 'select')}) > 0
           and exists (select 1 from (${readBy('c')}) b where b.oid = to_regclass('auth.users'))
           -- An invoker view leaks only what the caller could read of auth.users directly.
           and (c.relkind = 'm' or not ${runsAsInvoker('c')}
                or exists (select 1 from pg_class u where u.oid = to_regclass('auth.users') and not u.relrowsecurity and cardinality(${apiRolesWith('u', 'select')}) > 0))`,
  findings: (r) => [
    {
      lint: 'auth_users_exposed',
      level: 'ERROR',
      object: qualified(r.schema, r.name),
      defined: { kind: 'relation', schema: r.schema, name: r.name },
      problem: `${r.kind === 'm' ? 'materialized view' : r.invoker ? 'view' : 'view without security_invoker'} reads auth.users${r.columns.length ? ` (${r.columns.join(', ')})` : ''} and ${roles(r.readers)} may select it: ${r.columns.length ? `what it shows of ${r.columns.length > 1 ? 'those columns' : 'that column'}` : 'every column (e-mail, metadata…)'} of every account is readable through the API`,
      fix: `revoke select on ${qualified(r.schema, r.name)} from ${r.readers.join(', ')}, or move it out of the exposed schemas and serve what it must through a profile table with row-level security`,
    },
  ],
};

/** 0013 rls_disabled_in_public: a table the API roles hold privileges on, with row-level security off. */
const rlsDisabledInApi: Query<{ schema: string; name: string; anon: string[]; authenticated: string[] }> = {
  over: 'exposed',
  sql: `select n.nspname as schema, c.relname as name,
               ${API_ROLES.map((role) => `array(select p from unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE']) p where has_table_privilege('${role}', c.oid, p)) as ${role}`).join(', ')}
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where c.relkind in ('r', 'p') and n.nspname = any($1) and not c.relrowsecurity and ${notExtensionMember('pg_class', 'c.oid')}
           and cardinality(${apiRolesWith('c', 'select,insert,update,delete')}) > 0`,
  findings: (r) => {
    const holders = API_ROLES.filter((role) => r[role].length);
    return [
      {
        lint: 'rls_disabled_in_public',
        level: 'ERROR',
        object: qualified(r.schema, r.name),
        defined: { kind: 'relation', schema: r.schema, name: r.name },
        problem: `table in an exposed schema with row-level security off: ${holders.map((role) => `${role} (${r[role].join(', ')})`).join(' and ')} reach every row of it through the API`,
        fix: `alter table ${qualified(r.schema, r.name)} enable row level security (and write its policies); or revoke all on it from ${holders.join(', ')}`,
      },
    ];
  },
};

/** 0007 policy_exists_rls_disabled: policies written on a table whose row-level security is off. */
const policyExistsRlsDisabled: Query<{ schema: string; name: string; policies: string[] }> = {
  over: 'managed',
  sql: `select n.nspname as schema, c.relname as name, array_agg(p.polname::text order by p.polname) as policies
          from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
         where c.relkind in ('r', 'p') and not c.relrowsecurity and n.nspname <> all($1) and n.nspname not like 'pg\\_%' and ${notExtensionMember('pg_class', 'c.oid')}
         group by 1, 2`,
  findings: (r) => [
    {
      lint: 'policy_exists_rls_disabled',
      level: 'ERROR',
      object: qualified(r.schema, r.name),
      defined: { kind: 'relation', schema: r.schema, name: r.name },
      problem: `has policies (${r.policies.join(', ')}) but row-level security is off: they restrict nothing, the grants alone decide`,
      fix: `alter table ${qualified(r.schema, r.name)} enable row level security`,
    },
  ],
};

/**
 * 0015 rls_references_user_metadata: a policy deciding on user_metadata, which every user edits
 * for themselves (auth.updateUser). Besides the policy's own text, the functions it calls.
 */
const policyReadsUserMetadata: Query<{ schema: string; name: string; policy: string; through: string[] }> = {
  over: 'managed',
  sql: `with pol as (
          select p.oid, p.polname, n.nspname, c.relname,
                 coalesce(pg_get_expr(p.polqual, p.polrelid), '') || ' ' || coalesce(pg_get_expr(p.polwithcheck, p.polrelid), '') as expr
            from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
           where n.nspname <> all($1) and n.nspname not like 'pg\\_%')
        select pol.nspname as schema, pol.relname as name, pol.polname as policy,
               array(select format('%s.%s()', fn.nspname, f.proname) from pg_depend d join pg_proc f on f.oid = d.refobjid join pg_namespace fn on fn.oid = f.pronamespace
                      where d.classid = 'pg_policy'::regclass and d.objid = pol.oid and d.refclassid = 'pg_proc'::regclass and f.prosrc ~* '(raw_user_meta_data|user_metadata)'
                      order by 1) as through
          from pol
         where pol.expr ~* '(raw_user_meta_data|user_metadata)'
            or exists (select 1 from pg_depend d join pg_proc f on f.oid = d.refobjid
                        where d.classid = 'pg_policy'::regclass and d.objid = pol.oid and d.refclassid = 'pg_proc'::regclass and f.prosrc ~* '(raw_user_meta_data|user_metadata)')`,
  findings: (r) => [
    {
      lint: 'rls_references_user_metadata',
      level: 'ERROR',
      object: `policy ${shownIdent(r.policy)} on ${qualified(r.schema, r.name)}`,
      defined: { kind: 'policy', name: r.policy, schema: r.schema, table: r.name },
      problem: `decides on user_metadata${r.through.length ? ` (through ${r.through.join(', ')})` : ''}, which every user may change for themselves: whatever it grants, anyone can grant themselves`,
      fix: 'decide on app_metadata (only the server writes it) or on a table the user cannot write',
    },
  ],
};

/** 0011 function_search_path_mutable, for definer functions: they run as their owner on the caller's search_path. */
const definerSearchPathMutable: Query<{ signature: string; schema: string; name: string }> = {
  over: 'managed',
  sql: `select format('%s.%s(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) as signature, n.nspname as schema, p.proname as name
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace
         where p.prosecdef and n.nspname <> all($1) and n.nspname not like 'pg\\_%' and ${notExtensionMember('pg_proc', 'p.oid')}
           and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) cfg where cfg like 'search_path=%')`,
  findings: (r) => [
    {
      lint: 'function_search_path_mutable',
      level: 'WARN',
      object: r.signature,
      defined: { kind: 'function', schema: r.schema, name: r.name },
      problem: "security definer function without a fixed search_path: it runs with its owner's rights but resolves unqualified names on the caller's search_path, so a caller who can put an object earlier on it runs their code as the owner",
      fix: `alter function ${r.signature} set search_path = '' (and qualify every name), or = pg_catalog, public`,
    },
  ],
};

/** 0016 materialized_view_in_api and 0017 foreign_table_in_api: relations row-level security cannot narrow, selectable by the API roles. */
const unnarrowableInApi: Query<{ schema: string; name: string; kind: string; readers: string[] }> = {
  over: 'exposed',
  sql: `select n.nspname as schema, c.relname as name, c.relkind::text as kind, ${apiRolesWith('c', 'select')} as readers
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where c.relkind in ('m', 'f') and n.nspname = any($1) and ${notExtensionMember('pg_class', 'c.oid')} and cardinality(${apiRolesWith('c', 'select')}) > 0`,
  findings: (r) => {
    const matview = r.kind === 'm';
    return [
      {
        lint: matview ? 'materialized_view_in_api' : 'foreign_table_in_api',
        level: 'WARN',
        object: qualified(r.schema, r.name),
        defined: { kind: 'relation', schema: r.schema, name: r.name },
        problem: `${matview ? 'materialized view' : 'foreign table'} selectable by ${roles(r.readers)} in an exposed schema: row-level security does not apply to it, so they read every row`,
        fix: `revoke select on ${qualified(r.schema, r.name)} from ${r.readers.join(', ')}, or move it to a schema the API does not expose`,
      },
    ];
  },
};

/**
 * 0024 rls_policy_always_true: a permissive write policy for everyone or the API roles whose
 * USING or WITH CHECK is plain true (a SELECT policy `using (true)` is usually meant: left out).
 */
const writePolicyAlwaysTrue: Query<{ schema: string; name: string; policy: string; command: string; using_true: boolean; check_true: boolean }> = {
  over: 'exposed',
  sql: `select * from (
          select n.nspname as schema, c.relname as name, p.polname as policy,
                 case p.polcmd when 'a' then 'INSERT' when 'w' then 'UPDATE' when 'd' then 'DELETE' else 'ALL' end as command,
                 p.polcmd in ('w', 'd', '*') and lower(coalesce(pg_get_expr(p.polqual, p.polrelid), '')) in ('true', '(true)') as using_true,
                 p.polcmd in ('a', 'w', '*') and lower(coalesce(pg_get_expr(p.polwithcheck, p.polrelid), case when p.polcmd = 'a' then 'true' else pg_get_expr(p.polqual, p.polrelid) end, '')) in ('true', '(true)') as check_true
            from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
           where c.relrowsecurity and p.polpermissive and p.polcmd <> 'r' and n.nspname = any($1)
             and (p.polroles = array[0::oid] or exists (select 1 from unnest(p.polroles) r where r::regrole::text in ('anon', 'authenticated')))) x
         where using_true or check_true`,
  findings: (r) => [
    {
      lint: 'rls_policy_always_true',
      level: 'WARN',
      object: `policy ${shownIdent(r.policy)} on ${qualified(r.schema, r.name)}`,
      defined: { kind: 'policy', name: r.policy, schema: r.schema, table: r.name },
      problem: `${r.command} policy whose ${[r.using_true && 'USING', r.check_true && 'WITH CHECK'].filter(Boolean).join(' and ')} is true: every caller it applies to may ${r.command === 'ALL' ? 'write' : r.command.toLowerCase()} any row`,
      fix: `write the condition a row must meet (e.g. its owner is auth.uid()), or drop the policy if the command is not meant for the API`,
    },
  ],
};

/** 0014 extension_in_public: an extension's functions and types in public, where the API and every search_path see them. */
const extensionInPublic: Query<{ name: string }> = {
  over: 'none',
  sql: `select x.extname as name from pg_extension x join pg_namespace n on n.oid = x.extnamespace where n.nspname = 'public'`,
  findings: (r) => [
    {
      lint: 'extension_in_public',
      level: 'WARN',
      object: `extension ${r.name}`,
      defined: { kind: 'extension', name: r.name },
      problem: 'installed in public: its functions are exposed through the API and resolve on every search_path that includes public',
      fix: `create it in the extensions schema (alter extension ${r.name} set schema extensions, where the extension allows it)`,
    },
  ],
};

const QUERIES: Query<any>[] = [securityDefinerView, authUsersExposed, rlsDisabledInApi, policyExistsRlsDisabled, policyReadsUserMetadata, definerSearchPathMutable, unnarrowableInApi, writePolicyAlwaysTrue, extensionInPublic];

/** Every lint's findings on the database behind `client`, ranked (rankFindings). */
export async function readLintFindings(client: pg.Client, exposedSchemas: string[]): Promise<LintFinding[]> {
  const found: LintFinding[] = [];
  for (const q of QUERIES) {
    const r = await client.query(q.sql, q.over === 'none' ? [] : [q.over === 'exposed' ? exposedSchemas : MANAGED_SCHEMAS]);
    for (const row of r.rows) found.push(...q.findings(row));
  }
  return rankFindings(found);
}

/** ERROR before WARN; then by lint and object, so the same catalog always reads the same. */
export function rankFindings(findings: LintFinding[]): LintFinding[] {
  const rank = (l: LintLevel) => (l === 'ERROR' ? 0 : 1);
  return [...findings].sort((a, b) => rank(a.level) - rank(b.level) || a.lint.localeCompare(b.lint) || a.object.localeCompare(b.object));
}

/** One line: `ERROR security_definer_view: public.x: <problem>. Fix: <fix>`. */
export function formatLintFinding(f: LintFinding): string {
  return `${f.level} ${f.lint}: ${f.object}: ${f.problem}. Fix: ${f.fix}`;
}

/** A summary's failure case holding lint findings (the SARIF report gives each its own result). */
export function isLintFinding(x: unknown): x is LintFinding {
  return typeof x === 'object' && x !== null && typeof (x as LintFinding).lint === 'string' && ((x as LintFinding).level === 'ERROR' || (x as LintFinding).level === 'WARN') && typeof (x as LintFinding).object === 'string';
}

/** How many objects the lints looked at: the exposed relations, the project's policies and definer functions. */
export async function countLintedObjects(client: pg.Client, exposedSchemas: string[]): Promise<number> {
  const r = await client.query<{ n: number }>(
    `select ((select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind in ('r', 'p', 'v', 'm', 'f') and n.nspname = any($1))
           + (select count(*) from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname <> all($2) and n.nspname not like 'pg\\_%')
           + (select count(*) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where p.prosecdef and n.nspname <> all($2) and n.nspname not like 'pg\\_%'))::int as n`,
    [exposedSchemas, MANAGED_SCHEMAS],
  );
  return r.rows[0].n;
}
