/**
 * What the API roles may do, read from the catalog, and how a migration change moves it. A grant
 * that requests cannot use yet (DELETE for anon on a table whose policies refuse it, EXECUTE on a
 * function nothing calls) changes no answer, so the behaviour diff cannot see it; a reviewer
 * still wants to know that the next policy change would open it.
 */
import type pg from 'pg';
import { privilegeHeld } from '../introspection/privilege-held.ts';

/** The roles requests run as (PostgREST's anon role and Supabase's signed-in role). */
export const API_ROLES = ['anon', 'authenticated'] as const;

/**
 * Every privilege an API role holds (directly, through a role it is a member of, or through
 * PUBLIC) on a table, view or function of the exposed schemas, as sorted lines:
 * `anon DELETE on public.orders`, `authenticated EXECUTE on public.f(p_id uuid)`.
 */
export async function apiPrivileges(client: pg.Client, schemas: readonly string[]): Promise<string[]> {
  const { rows } = await client.query<{ line: string }>(
    `select format('%s %s on %I.%I', r.rolname, p.priv, n.nspname, c.relname) as line
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       cross join (values ('SELECT'), ('INSERT'), ('UPDATE'), ('DELETE')) p(priv)
       join pg_roles r on r.rolname = any($2)
      where n.nspname = any($1) and c.relkind in ('r', 'p', 'v', 'm', 'f')
        and ${privilegeHeld('r.oid', 'c.oid', 'p.priv')}
     union all
     select format('%s EXECUTE on %I.%I(%s)', r.rolname, n.nspname, f.proname, pg_get_function_identity_arguments(f.oid))
       from pg_proc f join pg_namespace n on n.oid = f.pronamespace
       join pg_roles r on r.rolname = any($2)
      where n.nspname = any($1) and f.prokind in ('f', 'p') and has_function_privilege(r.oid, f.oid, 'EXECUTE')`,
    [schemas, API_ROLES],
  );
  return rows.map((r) => r.line).sort();
}

export interface PrivilegeChanges {
  gained: string[];
  lost: string[];
}

export function privilegeChanges(base: readonly string[], head: readonly string[]): PrivilegeChanges {
  const before = new Set(base);
  const after = new Set(head);
  return { gained: head.filter((l) => !before.has(l)), lost: base.filter((l) => !after.has(l)) };
}
