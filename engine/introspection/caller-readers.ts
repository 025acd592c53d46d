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
 * `caller_readers(proname)`: the functions whose bodies read the caller, directly or through a
 * function that does. A CTE for a `with recursive` list (its first member is `bodies`).
 */
export const CALLER_READERS_CTE = `bodies as (
       select p.proname, coalesce(p.prosrc, '') as src from pg_proc p join pg_language l on l.oid = p.prolang where l.lanname not in ('internal', 'c')
     ), caller_readers(proname) as (
       select b.proname from bodies b where b.src ~* '${READS_CALLER_PATTERN}'
       union
       select b.proname from bodies b join caller_readers c on b.src ~* ('(^|[^a-z0-9_])' || c.proname || '\\s*\\(')
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
