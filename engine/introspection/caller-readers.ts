/**
 * Who reads the caller: SQL that is about the request's identity (`auth.uid()`, `auth.jwt()`,
 * `auth.email()`, the request's JWT claims), itself or through functions that do, to any depth of
 * calls (stranger-app-8: current_user_can_handle_pr() → current_user_role() → request_user_id(),
 * which reads request.jwt.claims). Bodies only (sql, plpgsql): a C function reads no claims.
 *
 * One place for the rule, read by R15's catalog half (checker/catalog.ts: a helper answering about
 * the caller) and by the table shapes (a column default that is the caller's: table-shapes.ts).
 */
import type pg from 'pg';

/** A text that reads the caller directly (a regular expression, case-insensitive, for Postgres' `~*`). */
export const READS_CALLER_PATTERN = String.raw`(auth\.(uid|jwt|email)\s*\(|request\.jwt)`;

/**
 * The names a body (SQL text `src`) calls, lower-cased (a `text[]` for `callsNameSql`): every run
 * of letters, digits and underscores that is followed by `(` and not preceded by one of them. Read
 * once a body: one pattern Postgres compiles once, where asking "does this body call that name"
 * with a pattern built from each name compiled one pattern a pair (Postgres keeps 32), about
 * 0.5–0.9 s of the server's CPU in rule 15's catalog read of the reference (issue 27).
 */
export const calledNamesSql = (src: string) => `array(select lower(m[1]) from regexp_matches(${src}, '(?<![a-z0-9_])([a-z0-9_]+)(?=\\s*\\()', 'gi') m)`;

/**
 * Whether the body `src`, whose `calledNamesSql` is `calls`, calls the function named `name`: the
 * name, case-insensitively, after the start or a character that cannot continue a name, then `(`
 * (spaces between allowed). A name of letters, digits and underscores alone is looked up in
 * `calls` (the same answer: such a name followed by `(` is a whole run there); any other name
 * (quoted, with `$` or non-ASCII letters) is matched as a pattern, as it always was.
 */
export const callsNameSql = (src: string, calls: string, name: string) =>
  `(case when ${name} ~ '^[A-Za-z0-9_]+$' then lower(${name}) = any(${calls}) else ${src} ~* ('(^|[^a-z0-9_])' || ${name} || '\\s*\\(') end)`;

/**
 * `caller_readers(proname)`: the functions whose bodies read the caller, directly or through a
 * function that does. A CTE for a `with recursive` list (its first member is `bodies`).
 */
export const CALLER_READERS_CTE = `bodies as (
       select p.proname, src, ${calledNamesSql('src')} as calls
         from pg_proc p join pg_language l on l.oid = p.prolang cross join lateral (select coalesce(p.prosrc, '') as src) s
        where l.lanname not in ('internal', 'c')
     ), caller_readers(proname) as (
       select b.proname from bodies b where b.src ~* '${READS_CALLER_PATTERN}'
       union
       select b.proname from bodies b join caller_readers c on ${callsNameSql('b.src', 'b.calls', 'c.proname')}
     )`;

/** The names of the functions that read the caller (any schema). */
export async function readCallerReaders(client: pg.Client): Promise<Set<string>> {
  const r = await client.query<{ proname: string }>(`with recursive ${CALLER_READERS_CTE} select distinct proname::text as proname from caller_readers`);
  return new Set(r.rows.map((row) => row.proname));
}

/**
 * Whether an expression (a column default, as pg_get_expr prints it) reads the caller: directly,
 * or by calling one of `readers` (readCallerReaders). `org_id uuid not null default
 * private.jwt_org_id()` is null for every writer without a token, the fixtures' server context
 * among them (stranger-app-10's tenant columns).
 */
export function expressionReadsCaller(expression: string, readers: ReadonlySet<string>): boolean {
  if (new RegExp(READS_CALLER_PATTERN, 'i').test(expression)) return true;
  for (const m of expression.matchAll(/([A-Za-z_][A-Za-z0-9_$]*)"?\s*\(/g)) if (readers.has(m[1])) return true;
  return false;
}
