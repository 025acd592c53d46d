/**
 * The catalog facts `policyfuzz init` proposes a mapping from (engine/mapping/propose.ts):
 * tables with their columns, types, references, CHECK vocabularies and defaults, whether anon
 * holds SELECT; functions with their arguments, return shape, output columns, volatility and
 * source. One read of the catalog, no interpretation.
 */
import { raisesMessageFirst } from './raise-forms.ts';
import { answerShape, inputParameters, withDefaultsMarked } from '../db/function-parameters.ts';
import type pg from 'pg';
import type { TargetFacts, TargetFunctionFacts, TargetTableFacts } from '../mapping/propose.ts';
import { readCatalogTables } from '../checker/catalog.ts';
import { modelTableName, readProjectionViews, readTableShapes } from './table-shapes.ts';
import { notStandIn } from '../db/supabase/stand-ins.ts';
import { SAFEUPDATE_SCHEMA } from '../db/supabase/safeupdate.ts';

export async function readTargetFacts(client: pg.Client, schemas: string[]): Promise<TargetFacts> {
  const shapes = await readTableShapes(client, schemas);
  // A view the API writes through to a table (readProjectionViews) has the table's defaults and key.
  const views = await readProjectionViews(client, schemas);
  const tableSchemas = [...new Set([...schemas, ...views.map((v) => (v.table.includes('.') ? v.table.split('.')[0] : 'public'))])];
  const extra = await client.query<{ schema: string; table: string; column: string; default_expr: string | null; primary_key: boolean; key_part: boolean }>(
    `select n.nspname as schema, c.relname as table, a.attname as column, pg_get_expr(d.adbin, d.adrelid) as default_expr,
            exists (select 1 from pg_constraint k where k.conrelid = c.oid and k.contype = 'p' and k.conkey = array[a.attnum]) as primary_key,
            exists (select 1 from pg_constraint k where k.conrelid = c.oid and k.contype = 'p' and cardinality(k.conkey) > 1 and a.attnum = any(k.conkey)) as key_part
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname = any($1) and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped`,
    [tableSchemas],
  );
  const defaults = new Map(extra.rows.map((r) => [`${modelTableName(r.schema, r.table)}.${r.column}`, r.default_expr]));
  const keys = new Set(extra.rows.filter((r) => r.primary_key).map((r) => `${modelTableName(r.schema, r.table)}.${r.column}`));
  const keyParts = new Set(extra.rows.filter((r) => r.key_part).map((r) => `${modelTableName(r.schema, r.table)}.${r.column}`));
  for (const v of views) for (const c of v.columns) {
    if (defaults.has(`${v.table}.${c}`)) defaults.set(`${v.view}.${c}`, defaults.get(`${v.table}.${c}`)!);
    if (keys.has(`${v.table}.${c}`)) keys.add(`${v.view}.${c}`);
    if (keyParts.has(`${v.table}.${c}`)) keyParts.add(`${v.view}.${c}`);
  }
  // The project's own roles a request may run as: granted to authenticator (PostgREST switches to a token's role claim only among them).
  const projectRoles = (
    await client.query<{ role: string }>(
      `select r.rolname::text as role from pg_auth_members m join pg_roles r on r.oid = m.roleid join pg_roles a on a.oid = m.member
        where a.rolname = 'authenticator' and r.rolname not in ('anon', 'authenticated', 'service_role') order by 1`,
    )
  ).rows.map((r) => r.role);
  // The API roles' privileges as they can use them (schema USAGE too), and the project roles': catalog.ts's one reading.
  const catalogTables = await readCatalogTables(client, schemas, projectRoles);
  const grants = new Map<string, NonNullable<TargetTableFacts['grants']>>(
    catalogTables.map((t) => [t.name, { anon: t.privileges.anon, authenticated: t.privileges.authenticated, ...(t.columnUpdate ? { columnUpdate: t.columnUpdate } : {}), ...(t.columnSelect ? { columnSelect: t.columnSelect } : {}), ...(t.columnInsert ? { columnInsert: t.columnInsert } : {}) }]),
  );
  const projectRoleGrants = new Map(catalogTables.map((t) => [t.name, Object.fromEntries(projectRoles.filter((role) => t.privileges[role]?.length).map((role) => [role, t.privileges[role]!]))]));
  const primaryKeys = keys;
  const viewed = new Map(views.map((v) => [v.view, v.table]));
  const tables: TargetTableFacts[] = [...shapes].map(([name, columns]) => ({
    name,
    ...(viewed.has(name) ? { viewOf: viewed.get(name)! } : {}),
    anonCanSelect: grants.get(name)?.anon.includes('select') ?? false,
    ...(grants.has(name) ? { grants: grants.get(name)! } : {}),
    ...(Object.keys(projectRoleGrants.get(name) ?? {}).length ? { projectRoleGrants: projectRoleGrants.get(name)! } : {}),
    columns: columns.map((c) => ({
      name: c.name,
      type: c.type,
      ...(c.domain ? { domain: c.domain } : {}),
      ...(c.references ? { references: c.references } : {}),
      ...(c.vocabulary ?? c.enumLabels ? { vocabulary: c.vocabulary ?? c.enumLabels } : {}),
      ...(c.elementEnumLabels ? { elementVocabulary: c.elementEnumLabels } : {}),
      ...(defaults.get(`${name}.${c.name}`) ? { defaultExpr: defaults.get(`${name}.${c.name}`)! } : {}),
      ...(primaryKeys.has(`${name}.${c.name}`) ? { primaryKey: true } : {}),
      ...(keyParts.has(`${name}.${c.name}`) ? { keyPart: true as const } : {}),
      ...(c.notNull ? { notNull: true } : {}),
      ...(c.generated ? { serverFilled: 'generated' as const } : c.hasDefault && !defaults.get(`${name}.${c.name}`) ? { serverFilled: 'identity' as const } : {}),
    })),
  }));
  const fns = await client.query<{ schema: string; name: string; arg_names: string[] | null; arg_types: string[]; arg_modes: string[] | null; n_defaults: number; retset: boolean; rettype: string; typtype: string; relname: string | null; relschema: string | null; type_columns: string[]; volatile: string; source: string; before_insert_on: [string, string][] | null }>(
    `select n.nspname as schema, p.proname as name, p.proargnames::text[] as arg_names,
            array(select format_type(t, null) from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) t) as arg_types,
            p.proargmodes::text[] as arg_modes, p.pronargdefaults::int as n_defaults, p.proretset as retset, format_type(p.prorettype, null) as rettype,
            rt.typtype::text as typtype, rc.relname::text as relname, rn.nspname::text as relschema,
            -- a composite type's own fields (\`returns api.ticket_card\`, a type made for the answer)
            array(select ta.attname::text from pg_attribute ta where ta.attrelid = rt.typrelid and ta.attnum > 0 and not ta.attisdropped order by ta.attnum) as type_columns,
            p.provolatile::text as volatile, p.prosrc as source,
            array(select distinct array[tn.nspname::text, tc.relname::text] from pg_trigger tt join pg_class tc on tc.oid = tt.tgrelid join pg_namespace tn on tn.oid = tc.relnamespace
                   where tt.tgfoid = p.oid and not tt.tgisinternal and (tt.tgtype & 7) = 7) as before_insert_on
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_type rt on rt.oid = p.prorettype
       left join pg_class rc on rc.oid = rt.typrelid and rc.relkind in ('r', 'p', 'v')
       left join pg_namespace rn on rn.oid = rc.relnamespace
      where p.prokind = 'f' and ${notStandIn('pg_proc', 'p.oid')}
        -- pg-safeupdate's own statement trigger, on every table where a function runs dynamic SQL: not the project's guard
        and n.nspname <> '${SAFEUPDATE_SCHEMA}'
        and (n.nspname = any($1)
             -- guards attached to the API's tables, wherever the project keeps them (an \`internal\` schema, say);
             -- not policyfuzz's own (its pg-safeupdate, read as a guard refusing with 21000 by init)
             or p.oid in (select t.tgfoid from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace cn on cn.oid = c.relnamespace
                           where cn.nspname = any($2) and not t.tgisinternal and t.tgname not like 'policyfuzz\\_%'))`,
    [[...schemas, 'app', 'private'], schemas],
  );
  const functions: TargetFunctionFacts[] = fns.rows.map((f) => {
    const modes = f.arg_modes ?? f.arg_types.map(() => 'i');
    const names = f.arg_names ?? [];
    const args = inputParameters(modes, names, f.arg_types, (i) => `$${i + 1}`);
    const outs = modes.map((m, i) => ({ m, name: names[i] })).filter((a) => a.m === 'o' || a.m === 't' || a.m === 'b').map((a) => a.name);
    const returnsTable = f.relname ? modelTableName(f.relschema!, f.relname) : undefined;
    return {
      name: modelTableName(f.schema, f.name),
      args: withDefaultsMarked(args, f.n_defaults),
      // As the executor's schema cache reads it (one reading): a single RETURNS TABLE column answers rows too.
      returns: answerShape({ retType: f.rettype, retKind: f.typtype, returnsSet: f.retset, modes }),
      outColumns: outs.length ? outs : returnsTable ? (shapes.get(returnsTable) ?? []).map((c) => c.name) : f.typtype === 'c' ? f.type_columns : [],
      ...(returnsTable ? { returnsTable } : {}),
      readOnly: f.volatile !== 'v',
      trigger: f.rettype === 'trigger',
      ...(f.before_insert_on?.length ? { beforeInsertOn: f.before_insert_on.map(([schema, table]) => modelTableName(schema, table)) } : {}),
      source: raisesMessageFirst(f.source),
    };
  });
  // Supabase's default privileges (the compatibility layer's `alter default privileges in schema public grant all on tables to anon, …`) not revoked by the migrations.
  const defaultAcl = await client.query<{ kept: boolean }>(
    `select exists (select 1 from pg_default_acl d, aclexplode(d.defaclacl) a
                     where d.defaclnamespace = to_regnamespace('public') and d.defaclobjtype = 'r'
                       and a.grantee = to_regrole('anon') and a.privilege_type = 'SELECT') as kept`,
  );
  return { tables, functions, relations: [...grants.keys()], ...(defaultAcl.rows[0]?.kept ? { defaultPrivilegesKept: true } : {}) };
}

