/**
 * What PostgREST keeps in its schema cache, read from the catalog once per template: the
 * exposed tables with their columns, and the exposed functions with their named arguments and
 * return shape. The request builder uses it the way PostgREST does (unknown column → PGRST204,
 * unknown function → PGRST202, argument types for json_to_record).
 */
import type pg from 'pg';
import type { ForeignKeyEdge } from '../model/embed.ts';
import { answerShape, callableThroughRest, inputParameters, withDefaultsMarked } from '../db/function-parameters.ts';
import { sessionStateWatch, sessionValuesSql, type SessionStateWatch } from './session-state.ts';

export interface CachedColumn {
  name: string;
  type: string;
  generated: boolean;
  /** Part of the primary key: PostgREST adds it to a write's RETURNING (Plan.hs inferColsEmbedNeeds). */
  primaryKey?: boolean;
}

export interface CachedFunction {
  schema: string;
  name: string;
  args: { name: string; type: string; hasDefault: boolean }[];
  /** 'void', 'scalar' (one value), 'setof-scalar', 'composite' (one row), 'setof-composite' */
  returns: 'void' | 'scalar' | 'setof-scalar' | 'composite' | 'setof-composite';
  /** format_type() of the return type (`jsonb`, `text`, `record`). */
  returnType?: string;
  /** A function returning one composite (not setof): its fields (OUT parameters, or the type's), whose NULL PostgREST shows as an object of nulls. */
  fields?: string[];
  /** PostgREST calls a STABLE or IMMUTABLE function in a READ ONLY transaction, whatever the method. */
  volatility: 'volatile' | 'stable' | 'immutable';
}

/** A one-row function's fields: its OUT (and INOUT) parameters where it has them, else its composite type's. */
function outputFields(modes: readonly string[], names: readonly string[], typeFields: readonly string[]): string[] {
  const outs = names.filter((_, i) => modes[i] === 'o' || modes[i] === 'b');
  return outs.length ? outs : [...typeFields];
}

/** Supabase's db-extra-search-path: after the request's own schema. */
export const SUPABASE_EXTRA_SEARCH_PATH = ['public', 'extensions'];

export interface SchemaCache {
  exposedSchemas: string[];
  /** PostgREST's db-extra-search-path (Supabase: public, extensions). */
  extraSearchPath: string[];
  /**
   * Constraints (and constraint triggers) that are DEFERRABLE INITIALLY DEFERRED, schema-qualified:
   * each request fires them at its end, then they are deferred again for the next request.
   */
  initiallyDeferred: string[];
  /**
   * No constraint of the database is DEFERRABLE (pg_constraint.condeferrable, constraint triggers
   * included): nothing a request does can defer one, so its end's SET CONSTRAINTS ALL IMMEDIATE
   * would do nothing and is not sent. Absent: some may be deferred, and every write ends with it.
   * Read once, after the migrations (and a mutant's SQL): as every other fact here, not from DDL a
   * request's own function might run.
   */
  noDeferrableConstraints?: true;
  tables: Map<string, CachedColumn[]>;
  /**
   * Tables and views in the schemas the API does not expose (system schemas aside): PostgREST
   * cannot reach them; a table the mapping sends as SQL (`via: "sql"`) is reached through these.
   */
  outsideApi: Map<string, CachedColumn[]>;
  functions: Map<string, CachedFunction[]>;
  /** Functions in the schemas the API does not expose (system schemas aside): a function the mapping sends as SQL is found here. Absent: none. */
  outsideApiFunctions?: Map<string, CachedFunction[]>;
  /** What the catalog's functions can leave on a pooled connection (session-state.ts); absent: nothing. */
  sessionState?: SessionStateWatch;
  /**
   * Each API role's own settings (`alter role anon set statement_timeout = '3s'`), as PostgREST
   * v12.2 reads them (Config/Database.hs queryRoleSettings: role-wide rolconfig, user-context
   * parameters, values lower-cased) and sets them per request before the role (Query.hs
   * setPgLocals). Absent: none.
   */
  roleSettings?: Map<string, [string, string][]>;
  /**
   * Foreign keys between exposed tables (keys `schema.table`), one or several columns: the
   * relationships a read embeds across, as PostgREST's schema cache holds them (SchemaCache.hs
   * allM2OandO2ORels).
   */
  relationships?: ForeignKeyEdge[];
  /** PostgREST's db-max-rows: LIMIT on every read (statement.ts). Absent: none, PostgREST's default. */
  maxRows?: number;
  /**
   * Text sorts in code point order: the database's collation is C or POSIX (or the builtin
   * provider's C / C.UTF-8), and no column of the exposed schemas names another. Absent: not so.
   */
  codePointText?: boolean;
  /**
   * PostgREST's db-pre-request (`schema.fn`, or `fn` found on the search path): called with no
   * arguments after the request's settings and before its statement (Query.hs runPreReq), read
   * from the in-database config: `alter role authenticator [in database d] set
   * pgrst.db_pre_request = 'schema.fn'` (Config/Database.hs; the database's own setting wins).
   * Absent: none.
   */
  preRequest?: string;
  /**
   * Supabase Auth's custom access token hook (`schema.fn`, config.toml's
   * `[auth.hook.custom_access_token]`): a signed-in caller's token carries the claims it answers
   * (case-transaction.ts hookedClaims). Absent: none, the token as Auth issues it unhooked.
   */
  accessTokenHook?: string;
  /**
   * `auth.users`: a signed-in caller's token carries their `auth.users.raw_app_meta_data` as its
   * `app_metadata`, as Supabase Auth issues it, read before each request (case-transaction.ts
   * tokenClaimsSql). Absent: the claims the case drew.
   */
  tokenAppMetadata?: 'auth.users';
  /**
   * The session user PostgREST logs in as: `authenticator`, which then switches to the caller's
   * role, so `session_user` reads `authenticator` in every request (supabase-custom-claims'
   * `is_claims_admin()` trusts any other session user as the SQL editor or a trigger). Set per
   * request when this connection may (a superuser, and authenticator a member of the API roles)
   * and the catalog reads it (a function body, policy, view or column default naming session_user);
   * absent: requests run under the connection's own session user.
   */
  apiSessionUser?: 'authenticator';
}

/**
 * A request to a schema the API does not expose: it reaches the database only as SQL (a table the
 * mapping sends so, `via: "sql"`), with no Accept/Content-Profile and the default request's search path.
 */
export function sentOutsideApi(cache: Pick<SchemaCache, 'exposedSchemas'>, request: { schema?: string }): boolean {
  return request.schema !== undefined && !cache.exposedSchemas.includes(request.schema);
}

export function qualifiedName(schema: string, name: string): string {
  return `${schema}.${name}`;
}

export async function loadSchemaCache(client: pg.Client, exposedSchemas: string[], extraSearchPath = SUPABASE_EXTRA_SEARCH_PATH): Promise<SchemaCache> {
  const cols = await client.query<{ schema: string; table: string; name: string; type: string; generated: boolean; primary_key: boolean }>(
    `select n.nspname as schema, c.relname as table, a.attname as name,
            format_type(a.atttypid, a.atttypmod) as type, a.attgenerated <> '' as generated,
            exists (select 1 from pg_index i where i.indrelid = c.oid and i.indisprimary and a.attnum = any (i.indkey)) as primary_key
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_' and c.relkind in ('r', 'v', 'm', 'p', 'f')
        and a.attnum > 0 and not a.attisdropped
      order by n.nspname, c.relname, a.attnum`,
  );
  const tables = new Map<string, CachedColumn[]>();
  const outsideApi = new Map<string, CachedColumn[]>();
  for (const r of cols.rows) {
    const key = qualifiedName(r.schema, r.table);
    const into = exposedSchemas.includes(r.schema) ? tables : outsideApi;
    if (!into.has(key)) into.set(key, []);
    into.get(key)!.push({ name: r.name, type: r.type, generated: r.generated, ...(r.primary_key ? { primaryKey: true } : {}) });
  }
  const fns = await client.query<{ schema: string; name: string; arg_names: string[] | null; arg_types: string[] | null; arg_modes: string[] | null; n_defaults: number; returns_set: boolean; ret_type: string; ret_kind: string; ret_fields: string[]; volatility: string }>(
    `select n.nspname as schema, p.proname as name, p.proargnames as arg_names, p.provolatile as volatility,
            array(select format_type(t, null) from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) t) as arg_types,
            p.proargmodes::text[] as arg_modes, p.pronargdefaults as n_defaults, p.proretset as returns_set,
            format_type(p.prorettype, null) as ret_type, t.typtype as ret_kind,
            array(select a.attname::text from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped order by a.attnum) as ret_fields
       from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       join pg_type t on t.oid = p.prorettype
      where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_' and p.prokind = 'f'`,
  );
  const functions = new Map<string, CachedFunction[]>();
  const outsideApiFunctions = new Map<string, CachedFunction[]>();
  for (const r of fns.rows) {
    const names = r.arg_names ?? [];
    const types = r.arg_types ?? [];
    const modes = r.arg_modes ?? types.map(() => 'i');
    const inputs = withDefaultsMarked(inputParameters(modes, names, types, () => ''), r.n_defaults);
    const key = qualifiedName(r.schema, r.name);
    // PostgREST leaves a function with a parameter no call can name out of its cache; sent as SQL, Postgres has it.
    if (exposedSchemas.includes(r.schema) && !callableThroughRest(inputs)) continue;
    const returns = answerShape({ retType: r.ret_type, retKind: r.ret_kind, returnsSet: r.returns_set, modes });
    const into = exposedSchemas.includes(r.schema) ? functions : outsideApiFunctions;
    if (!into.has(key)) into.set(key, []);
    into.get(key)!.push({
      schema: r.schema,
      name: r.name,
      args: inputs.map((a) => ({ name: a.name, type: a.type, hasDefault: a.optional === true })),
      returns,
      returnType: r.ret_type,
      ...(returns === 'composite' ? { fields: outputFields(modes, names, r.ret_fields) } : {}),
      volatility: r.volatility === 's' ? 'stable' : r.volatility === 'i' ? 'immutable' : 'volatile',
    });
  }
  const deferred = await client.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.conname) as name
       from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.condeferred and n.nspname not in ('pg_catalog', 'information_schema')
      order by 1`,
  );
  // Any schema's: a function may defer a constraint of a table the API does not expose.
  const deferrable = await client.query<{ any: boolean }>(`select exists (select 1 from pg_constraint where condeferrable) as any`);
  // Every SQL or PL/pgSQL body outside the system schemas, whether exposed or reached through one.
  // The pattern is matched once the schemas are chosen (materialized): joined as one query, the
  // planner ran it over every pg_proc row once per schema, 100-200 ms of each run's start-up.
  const bodies = await client.query<{ name: string; src: string }>(
    `with bodies as materialized (
       select format('%I.%I', n.nspname, p.proname) as name, p.prosrc as src
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_language l on l.oid = p.prolang
        where l.lanname in ('sql', 'plpgsql') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_')
     select name, src from bodies where src ~* '(set_config|set|prepare|hold|temp)'`,
  );
  const sessionState = sessionStateWatch(bodies.rows);
  if (sessionState?.settings.size) {
    const fresh = await client.query<{ n: string; v: string }>(sessionValuesSql(sessionState));
    sessionState.sessionValues = new Map(fresh.rows.map((r) => [r.n, r.v]));
  }
  const roleRows = await client.query<{ role: string; key: string; value: string }>(
    `select kv.rolname as role, kv.key, kv.value
       from (select r.rolname, substr(s, 1, strpos(s, '=') - 1) as key, lower(substr(s, strpos(s, '=') + 1)) as value
               from pg_roles r, unnest(r.rolconfig) s
              where r.rolname in ('anon', 'authenticated', 'service_role')) kv
       join pg_settings ps on ps.name = kv.key and ps.context = 'user'
      where kv.key <> 'default_transaction_isolation'
      order by kv.rolname, kv.key`,
  );
  // SchemaCache.hs allM2OandO2ORels: each foreign key's columns paired in constraint order; one to
  // one when its columns, as a set, are a primary key or UNIQUE constraint of its table; within
  // its table's primary key, a side of a junction (addM2MRels).
  const fks = await client.query<ForeignKeyEdge>(
    `select format('%s.%s', n.nspname, c.relname) as table, format('%s.%s', fn.nspname, f.relname) as references,
            cols.columns, cols."referencedColumns", k.conname::text as name,
            exists (select 1 from pg_constraint u
                     where u.conrelid = k.conrelid and u.contype in ('p', 'u')
                       and u.conkey::int2[] @> k.conkey::int2[] and u.conkey::int2[] <@ k.conkey::int2[]) as unique,
            exists (select 1 from pg_constraint pk
                     where pk.conrelid = k.conrelid and pk.contype = 'p' and pk.conkey::int2[] @> k.conkey::int2[]) as "inPrimaryKey"
       from pg_constraint k
       join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
       join pg_class f on f.oid = k.confrelid join pg_namespace fn on fn.oid = f.relnamespace
       join lateral (
         select array_agg(a.attname::text order by o) as columns, array_agg(fa.attname::text order by o) as "referencedColumns"
           from unnest(k.conkey, k.confkey) with ordinality as _(col, ref, o)
           join pg_attribute a on a.attrelid = k.conrelid and a.attnum = col
           join pg_attribute fa on fa.attrelid = k.confrelid and fa.attnum = ref) cols on true
      where k.contype = 'f' and k.conparentid = 0 and n.nspname = any($1) and fn.nspname = any($1)
      order by 1, k.conname`,
    [exposedSchemas],
  );
  const preRequest = await client.query<{ value: string }>(
    `select substr(s, strpos(s, '=') + 1) as value
       from pg_db_role_setting rs, unnest(rs.setconfig) s
      where rs.setrole = to_regrole('authenticator') and s like 'pgrst.db\\_pre\\_request=%'
        and rs.setdatabase in (0, (select oid from pg_database where datname = current_catalog))
      order by rs.setdatabase desc limit 1`,
  );
  // datlocprovider is Postgres 15's (older: libc); 'b' is 17's builtin provider, whose C and C.UTF-8 compare code points.
  const collation = await client.query<{ code_point: boolean }>(
    `select (coalesce(to_jsonb(d) ->> 'datlocprovider', 'c') = 'b' or (coalesce(to_jsonb(d) ->> 'datlocprovider', 'c') = 'c' and d.datcollate in ('C', 'POSIX')))
            and not exists (select 1 from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
                              join pg_collation co on co.oid = a.attcollation
                             where n.nspname = any($1) and a.attnum > 0 and not a.attisdropped and co.collname not in ('default', 'C', 'POSIX', 'ucs_basic', 'pg_c_utf8')) as code_point
       from pg_database d where d.datname = current_database()`,
    [exposedSchemas],
  );
  // Switching the login costs every request a role lookup: only where something reads it (a
  // function body, a policy, a view, a column default naming session_user or session_authorization).
  const sessionUser = await client.query<{ may: boolean }>(
    `select coalesce((select rolsuper from pg_roles where rolname = session_user), false)
            and to_regrole('authenticator') is not null
            and pg_has_role('authenticator', 'anon', 'member') and pg_has_role('authenticator', 'authenticated', 'member')
            and pg_has_role('authenticator', 'service_role', 'member')
            and exists (
              -- The project's own functions and views are read, never the system's: "offset 0" keeps the
              -- planner from judging the text of every catalog view (pg_get_viewdef, ~100 ms a run) before the schema filter.
              select 1 from (select p.prosrc from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                              where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_' offset 0) own
               where own.prosrc ~* '\\msession_(user|authorization)\\M'
              union all
              select 1 from pg_policy pol
               where concat(pg_get_expr(pol.polqual, pol.polrelid), ' ', pg_get_expr(pol.polwithcheck, pol.polrelid)) ~* '\\msession_(user|authorization)\\M'
              union all
              select 1 from (select c.oid from pg_class c join pg_namespace n on n.oid = c.relnamespace
                              where c.relkind in ('v', 'm') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_' offset 0) own
               where pg_get_viewdef(own.oid) ~* '\\msession_(user|authorization)\\M'
              union all
              select 1 from pg_attrdef d where pg_get_expr(d.adbin, d.adrelid) ~* '\\msession_(user|authorization)\\M') as may
       where to_regrole('anon') is not null and to_regrole('authenticated') is not null and to_regrole('service_role') is not null`,
  );
  const roleSettings = new Map<string, [string, string][]>();
  for (const r of roleRows.rows) roleSettings.set(r.role, [...(roleSettings.get(r.role) ?? []), [r.key, r.value]]);
  return {
    exposedSchemas,
    extraSearchPath,
    initiallyDeferred: [...new Set(deferred.rows.map((r) => r.name))],
    ...(deferrable.rows[0]?.any ? {} : { noDeferrableConstraints: true as const }),
    tables,
    outsideApi,
    functions,
    outsideApiFunctions,
    relationships: fks.rows.map(({ unique, inPrimaryKey, ...edge }) => ({ ...edge, ...(unique ? { unique } : {}), ...(inPrimaryKey ? { inPrimaryKey } : {}) })),
    ...(sessionState ? { sessionState } : {}),
    ...(roleSettings.size ? { roleSettings } : {}),
    ...(collation.rows[0]?.code_point ? { codePointText: true } : {}),
    ...(preRequest.rows[0]?.value ? { preRequest: preRequest.rows[0].value } : {}),
    ...(sessionUser.rows[0]?.may ? { apiSessionUser: 'authenticator' as const } : {}),
  };
}
