/**
 * What the automatic mutator reads from a database after its migrations: policies, tables with
 * row security, functions with their definitions and execute grants, invoker views. SQL lives
 * here, in the harness; the mutation rules in derive.ts are pure.
 */
import type pg from 'pg';
import { notStandIn } from '../../db/supabase/stand-ins.ts';
import { privilegeHeld } from '../../introspection/privilege-held.ts';

export interface CatalogPolicy {
  schema: string;
  table: string;
  name: string;
  command: 'ALL' | 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE';
  roles: string[];
  /** PERMISSIVE (the default) or RESTRICTIVE; absent is read as permissive. */
  permissive?: 'PERMISSIVE' | 'RESTRICTIVE';
  using: string | null;
  withCheck: string | null;
  /**
   * false: every role it names is one no API request acts as (not anon or authenticated, not a role
   * they are members of, none the authenticator may switch to): a project's own role for its server
   * (Tambo's `to project_api_key`). Absent: reachable.
   */
  apiReachable?: boolean;
}

export interface CatalogFunction {
  schema: string;
  name: string;
  /** Schema-qualified with argument types: `"public"."f"(text)`. */
  signature: string;
  definition: string;
  executableByAnon: boolean;
  executableByAuthenticated: boolean;
  /** Tables (`schema.table`) with a trigger that runs this function: it is reached through their writes. */
  triggerTables?: string[];
  /** Tables whose trigger on this function is disabled (`alter table … disable trigger`, or fires on replicas only): no request runs it there. */
  disabledTriggerTables?: string[];
}

export interface CatalogView {
  schema: string;
  name: string;
  securityInvoker: boolean;
}

export interface Catalog {
  policies: CatalogPolicy[];
  rowSecurityTables: { schema: string; table: string; anon: string[]; authenticated: string[] }[];
  functions: CatalogFunction[];
  views: CatalogView[];
}

/** `role` holds privilege `p` on table `c.oid` (privilegeHeld). */
const heldOn = (role: string) => privilegeHeld(`'${role}'`, 'c.oid', 'p');

export async function readCatalog(client: pg.Client, schemas: string[]): Promise<Catalog> {
  const policies = await client.query(
    `select schemaname as schema, tablename as "table", policyname as name, cmd as command, roles::text[] as roles, permissive, qual as using, with_check as "withCheck",
            (select bool_or(case when r = 'public' then true
                                 else exists (select 1 from pg_roles a where a.rolname in ('anon', 'authenticated', 'authenticator') and pg_has_role(a.rolname, r, 'MEMBER')) end)
               from unnest(roles::text[]) r) as "apiReachable"
       from pg_policies where schemaname = any($1) order by 1, 2, 3`,
    [schemas],
  );
  const tables = await client.query(
    `select n.nspname as schema, c.relname as "table",
            array(select p from unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE']) p where ${heldOn('anon')}) as anon,
            array(select p from unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE']) p where ${heldOn('authenticated')}) as authenticated
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any($1) and c.relkind = 'r' and c.relrowsecurity order by 1, 2`,
    [schemas],
  );
  const functions = await client.query(
    `select n.nspname as schema, p.proname as name, format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) as signature, pg_get_functiondef(p.oid) as definition,
            has_function_privilege('anon', p.oid, 'execute') as "executableByAnon",
            has_function_privilege('authenticated', p.oid, 'execute') as "executableByAuthenticated",
            array(select distinct tn.nspname || '.' || tc.relname from pg_trigger t join pg_class tc on tc.oid = t.tgrelid join pg_namespace tn on tn.oid = tc.relnamespace
                   where t.tgfoid = p.oid and not t.tgisinternal and t.tgenabled in ('O', 'A') order by 1) as "triggerTables",
            array(select distinct tn.nspname || '.' || tc.relname from pg_trigger t join pg_class tc on tc.oid = t.tgrelid join pg_namespace tn on tn.oid = tc.relnamespace
                   where t.tgfoid = p.oid and not t.tgisinternal and t.tgenabled in ('D', 'R') order by 1) as "disabledTriggerTables"
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = any($1) and p.prokind = 'f' and ${notStandIn('pg_proc', 'p.oid')} order by 1, 2, 3`,
    [schemas],
  );
  const views = await client.query(
    `select n.nspname as schema, c.relname as name, coalesce('security_invoker=true' = any(c.reloptions) or 'security_invoker=on' = any(c.reloptions), false) as "securityInvoker"
       from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = any($1) and c.relkind = 'v' order by 1, 2`,
    [schemas],
  );
  return {
    policies: policies.rows as CatalogPolicy[],
    rowSecurityTables: tables.rows as Catalog['rowSecurityTables'],
    functions: functions.rows as CatalogFunction[],
    views: views.rows as CatalogView[],
  };
}

/** Tables with policies in schemas other than these, and how many each has: what a run leaves unmutated. */
export async function readPolicyTablesOutside(client: pg.Client, schemas: string[]): Promise<{ table: string; policies: number }[]> {
  const r = await client.query<{ table: string; policies: number }>(
    `select format('%s.%s', schemaname, tablename) as "table", count(*)::int as policies
       from pg_policies where not (schemaname = any($1)) group by schemaname, tablename order by 1`,
    [schemas],
  );
  return r.rows;
}
