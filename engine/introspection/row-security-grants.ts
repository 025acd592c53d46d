/**
 * The privileges an API role holds where row security, not the grant, decides what it reaches:
 * a table with row security on, or a `security_invoker` view over one such table whose own grant
 * and the table's both hold (the invoker's rights are checked on the table too). A write through
 * a view with an INSTEAD OF trigger for it runs the trigger's body, not row security: left out.
 * A privilege held on some columns only (`grant update (label)`) counts, as everywhere (privilege-held.ts).
 * A security definer view (its owner's rights) or a table with row security off: left out, the
 * grant alone decides there. Read once per run (mapping.ts CatalogFacts.rowSecurityDecides).
 */
import type pg from 'pg';
import { privilegeHeld } from './privilege-held.ts';

export type TablePrivilege = 'select' | 'insert' | 'update' | 'delete';
export type RowSecurityRole = 'anon' | 'authenticated';

/** Keyed by the name a mapping gives: `schema.name`, and bare too in the first exposed schema (PostgREST's default profile). */
export function rowSecurityGrantKey(table: string, privilege: TablePrivilege, role: RowSecurityRole): string {
  return `${table}:${privilege}:${role}`;
}

// tgtype bits (pg_trigger.h): INSTEAD 64, INSERT 4, DELETE 8, UPDATE 16.
const INSTEAD_OF_BIT: Record<TablePrivilege, number> = { select: 0, insert: 4, delete: 8, update: 16 };

export async function readGrantsUnderRowSecurity(client: pg.Client, schemas: readonly string[]): Promise<Set<string>> {
  if (!schemas.length) return new Set();
  const privileges = Object.keys(INSTEAD_OF_BIT) as TablePrivilege[];
  const roles: RowSecurityRole[] = ['anon', 'authenticated'];
  const r = await client.query<Record<string, unknown> & { schema: string; name: string }>(
    `with rel as (
       select c.oid, n.nspname as schema, c.relname as name, c.relkind, c.relrowsecurity,
              coalesce(c.reloptions @> array['security_invoker=true'] or c.reloptions @> array['security_invoker=on'], false) as invoker,
              -- the one table a view reads (two or more: left out)
              (select case when count(distinct d.refobjid) = 1 then min(d.refobjid) end
                 from pg_rewrite w join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = w.oid
                                                   and d.refclassid = 'pg_class'::regclass and d.refobjid <> c.oid
                                  join pg_class b on b.oid = d.refobjid and b.relkind in ('r', 'p')
                where w.ev_class = c.oid) as base
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = any($1) and c.relkind in ('r', 'p', 'v'))
     select rel.schema, rel.name,
            ${roles.flatMap((role) => privileges.map((p) => `(has_schema_privilege('${role}', (select relnamespace from pg_class where oid = rel.oid), 'usage')
               and ${privilegeHeld(`'${role}'`, 'rel.oid', `'${p.toUpperCase()}'`)}
               and case when rel.relkind in ('r', 'p') then rel.relrowsecurity
                        else rel.invoker and rel.base is not null
                             and (select b.relrowsecurity from pg_class b where b.oid = rel.base)
                             and ${privilegeHeld(`'${role}'`, 'rel.base', `'${p.toUpperCase()}'`)}
                             and has_schema_privilege('${role}', (select relnamespace from pg_class where oid = rel.base), 'usage')
                             and ${INSTEAD_OF_BIT[p] ? `not exists (select 1 from pg_trigger t where t.tgrelid = rel.oid and not t.tgisinternal and (t.tgtype & 64) <> 0 and (t.tgtype & ${INSTEAD_OF_BIT[p]}) <> 0)` : 'true'}
                   end) as ${role}_${p}`)).join(',\n            ')}
       from rel`,
    [schemas],
  );
  const held = new Set<string>();
  for (const row of r.rows) {
    // A mapping may name a table of the first schema either way (`shop_orders`, `api.shop_orders`).
    const names = row.schema === schemas[0] ? [row.name, `${row.schema}.${row.name}`] : [`${row.schema}.${row.name}`];
    for (const role of roles) for (const p of privileges) if (row[`${role}_${p}`] === true) for (const name of names) held.add(rowSecurityGrantKey(name, p, role));
  }
  return held;
}
