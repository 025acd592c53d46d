/**
 * GRANT01: the grants a pack's model states, checked against the target's catalog once per run,
 * as the reference's R15 and R16 catalog halves do for its own model. Every table and view the
 * model holds must give the API roles exactly its `grants` (and have row security on where the
 * model applies row rules); every function it holds (`functions`, `privateFunctions`) must be
 * executable exactly by its `executableBy`, and not by PUBLIC unless the model gives every API
 * role EXECUTE (PUBLIC then reaches the API with nothing more). Objects are found under the
 * target's names (the mapping); ones the model does not hold are left alone (the pack speaks for
 * its own objects only), ones the target lacks are skipped. Under `conventions.grants:
 * "supabase-default"` a privilege the model does not state is accepted where row security
 * decides (a table with it on) and for functions (which may refuse in their body).
 *
 * A pack with catalog properties of its own (the reference's R15/R16) checks its grants there.
 */
import type pg from 'pg';
import { runsAsInvoker } from '../checker/security-lints.ts';
import { relationsReadBy } from '../introspection/table-shapes.ts';
import { privilegeHeld } from '../introspection/privilege-held.ts';
import { compareFunctions, compareTables, projectRolesNamed, readCatalogFunctions, readCatalogTables, type CatalogComparison, type CatalogFunction } from '../checker/catalog.ts';
import { targetFunction, targetTable } from '../mapping/mapping.ts';
import type { FunctionGrantee } from '../model/function-model.ts';
import { grantsOf, type TableModel } from '../model/table-model.ts';
import type { PackModel } from '../pack.ts';
import { MODEL_GRANTS_ID } from '../property-id.ts';
import type { CatalogProperty } from './catalog-property.ts';

const schemaOf = (name: string) => (name.includes('.') ? name.slice(0, name.indexOf('.')) : 'public');

/**
 * A function's EXECUTE as GRANT01 weighs it: where the model withholds it from anon or
 * authenticated (or PUBLIC holds it), only as far as USAGE on the function's schema lets a call
 * use it, so a grant no call can use is no finding (headless-vector-search's `docs` functions keep
 * PUBLIC's default EXECUTE, `docs` usable by service_role alone); where the model grants it, the
 * grant itself.
 */
export function executeAsWeighed(bare: CatalogFunction[], usable: CatalogFunction[], model: ReadonlyMap<string, readonly FunctionGrantee[]>): CatalogFunction[] {
  const usableBySignature = new Map(usable.map((f) => [f.signature, f.executable]));
  return bare.map((f) => {
    const through = usableBySignature.get(f.signature) ?? f.executable;
    const granted = model.get(f.name) ?? [];
    const weigh = (role: 'anon' | 'authenticated') => (granted.includes(role) ? f.executable[role] : through[role]);
    return { ...f, executable: { ...f.executable, anon: weigh('anon'), authenticated: weigh('authenticated'), public: through.public } };
  });
}

export function modelGrantsProperty(model: PackModel): CatalogProperty {
  return {
    id: MODEL_GRANTS_ID,
    rule: 0,
    title: "the model's grants: every table and function it holds grants the API roles exactly what it states",
    async check(client, settings, context) {
      const mapping = context.mapping;
      const tables = new Map<string, TableModel>(Object.values(model.tables).map((t) => [mapping ? targetTable(mapping, t.table) : t.table, t]));
      const functions = new Map<string, readonly FunctionGrantee[]>([
        ...Object.values(model.functions).map((f) => [mapping ? targetFunction(mapping, f.name) : f.name, f.executableBy] as const),
        ...(model.privateFunctions ?? []).map((f) => [f.name, f.executableBy] as const),
      ]);
      // The project's own roles the model names (`app_admin`): their grants are compared as the API roles' are.
      const projectRoles = projectRolesNamed(Object.fromEntries(tables), settings, functions.values());
      const schemas = [...new Set([...context.exposedSchemas, ...[...tables.keys(), ...functions.keys()].map(schemaOf)])];
      const foundTables = (await readCatalogTables(client, schemas, projectRoles)).filter((t) => tables.has(t.name));
      const foundFunctions = executeAsWeighed(
        (await readCatalogFunctions(client, schemas, { projectRoles })).filter((f) => functions.has(f.name)),
        await readCatalogFunctions(client, schemas, { throughSchemaUsage: true }),
        functions,
      );
      const byTable = compareTables(foundTables, Object.fromEntries(tables), settings, projectRoles);
      const byFunction = compareFunctions(foundFunctions, functions, undefined, projectRoles);
      const supabaseDefault = mapping?.conventions?.grants === 'supabase-default';
      const rowSecurityOn = new Set(foundTables.filter((t) => t.kind === 'table' && t.rowSecurity).map((t) => t.name));
      // A write privilege on a view Postgres cannot write through (a GROUP BY, a join: "cannot insert
      // into view") grants nothing: the model may state it or not (Atomic CRM grants all on its summaries).
      const views = foundTables.filter((t) => t.kind === 'view').map((t) => t.name);
      const unwritable = new Set(
        views.length
          ? (await client.query<{ name: string }>(`select v as name from unnest($1::text[]) v where pg_relation_is_updatable(to_regclass(case when strpos(v, '.') > 0 then format('%I.%I', split_part(v, '.', 1), split_part(v, '.', 2)) else format('public.%I', v) end), true) & 28 = 0`, [views])).rows.map((r) => r.name)
          : [],
      );
      const heldInVain = await privilegesHeldInVain(client, views);
      const tableOf = (finding: string) => finding.slice(0, finding.indexOf(':'));
      // A table-level SELECT, UPDATE or INSERT where the model states the role's columns (columnSelect,
      // columnUpdate, columnInsert): row security filters rows, never columns, so no convention makes it harmless.
      const columnsStated = (finding: string) => {
        const m = /: (anon|authenticated) holds (SELECT|UPDATE|INSERT), the model says it lacks it/.exec(finding);
        const t = m && tables.get(tableOf(finding));
        if (!m || !t) return undefined;
        const grants = grantsOf(t, settings);
        const key = m[2] === 'SELECT' ? 'columnSelect' : m[2] === 'UPDATE' ? 'columnUpdate' : 'columnInsert';
        return grants[key]?.[m[1] as 'anon' | 'authenticated'] ? key : undefined;
      };
      // A privilege or EXECUTE the model does not state, where the convention lets row security or the body decide.
      const accepted = (finding: string) =>
        (/: (anon|authenticated) holds (INSERT|UPDATE|DELETE), the model says it lacks it/.test(finding) && unwritable.has(tableOf(finding))) ||
        heldInVain.has(finding.replace(/, the model says it lacks it.*$/, '')) ||
        (supabaseDefault &&
          (/: (anon|authenticated) holds [A-Z]+, the model says it lacks it/.test(finding) ? rowSecurityOn.has(tableOf(finding)) && !columnsStated(finding) : / may execute it, the model says it may not$|: EXECUTE granted to PUBLIC/.test(finding)));
      const findings = [...byTable.findings, ...byFunction.findings];
      const kept = findings
        .filter((f) => !accepted(f))
        .map((f) => {
          const key = columnsStated(f);
          return key ? `${f} (on every column: the model grants it on the columns in grants.${key} only, and row security cannot narrow columns)` : f;
        });
      const result: CatalogComparison = {
        granted: byTable.granted + byFunction.granted,
        withheld: byTable.withheld + byFunction.withheld + (findings.length - kept.length),
        findings: kept,
        ...(byFunction.readings ? { readings: byFunction.readings } : {}),
      };
      return { objects: foundTables.length + foundFunctions.length, ...result };
    },
  };
}

/**
 * Privileges an API role holds on a view with `security_invoker` that it lacks on the one table the
 * view reads (`members: anon holds INSERT`): Postgres checks the invoker's own privileges on that
 * table, so the view's grant reaches nothing (Supabase's default privileges grant every view in
 * public to anon and authenticated; dbdev's views over schema app). As GRANT01 words them, without
 * the model's side. A column privilege on the table counts as holding it.
 */
export async function privilegesHeldInVain(client: pg.Client, views: readonly string[]): Promise<Set<string>> {
  if (!views.length) return new Set();
  const r = await client.query<{ held: string }>(
    `with v as (
       select name, to_regclass(case when strpos(name, '.') > 0 then format('%I.%I', split_part(name, '.', 1), split_part(name, '.', 2)) else format('public.%I', name) end) as oid
         from unnest($1::text[]) name)
     select v.name || ': ' || role || ' holds ' || privilege as held
       from v join pg_class c on c.oid = v.oid
       cross join lateral (select ${relationsReadBy('c.oid')} as refs) dep
       cross join unnest(array['anon', 'authenticated']) role
       cross join unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE']) privilege
      where ${runsAsInvoker('c')}
        and cardinality(dep.refs) = 1 and exists (select 1 from pg_roles where rolname = role)
        and has_table_privilege(role, c.oid, privilege)
        and not (${privilegeHeld('role', 'dep.refs[1]', 'privilege')})`,
    [views],
  );
  return new Set(r.rows.map((x) => x.held));
}
