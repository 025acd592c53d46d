/**
 * R16 — every table with row rules has an explicit GRANT to the intended roles; without it every
 * caller is denied (42501 from the grant, before any row rule).
 * Two halves: R16 (data) sends every table and view the model knows a read, and every table an
 * UPDATE and a DELETE matching nothing, as anon and as a signed-in person (each lane first sends
 * every table's whole row of that matrix, a case a table: its sweep), and compares "denied
 * by the grant" with the model; R16 (catalog) lists every table and view in the exposed schemas
 * (the run's: the project's `api.schemas` or config.toml's, else the reference's) and compares the
 * API roles' privileges and the row-security switch with tableModels — a table the model does not
 * know (created later with default privileges) is a finding.
 */
import fc from 'fast-check';
import type { Caller } from '../../../../engine/model/caller.ts';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { tableModels } from '../../model/tables/index.ts';
import { peopleRows, peopleWithRoles } from '../../generators/student.ts';
import { callerOf, type Person } from '../../generators/identities.ts';
import { compareTables, projectRolesNamed, readCatalogTables, type CatalogComparison } from '../../../../engine/checker/catalog.ts';
import { GRANTED_UNDER_ROW_SECURITY, targetTable, type TargetMapping } from '../../../../engine/mapping/mapping.ts';
import { readGrantsUnderRowSecurity, rowSecurityGrantKey, type RowSecurityRole, type TablePrivilege } from '../../../../engine/introspection/row-security-grants.ts';
import type { CatalogProperty } from '../../../../engine/runner/catalog-property.ts';
import { MANAGED_SCHEMAS } from '../../../../engine/db/supabase/managed-schemas.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { sidedClause } from '../clauses.ts';

function splitName(name: string): { schema?: string; table: string } {
  const dot = name.indexOf('.');
  return dot < 0 ? { table: name } : { schema: name.slice(0, dot), table: name.slice(dot + 1) };
}

type GrantCommand = 'select' | 'update' | 'delete';

/**
 * The request of `command` on the table or view `name` that only the grant decides: a read, or
 * a write matching nothing (a primary key is never null), never a row rule or a guard on the rows
 * the case's people have (users). A view, or a table with no column to write, is read.
 */
function grantRequest(name: string, command: GrantCommand): ApiRequest {
  const model = tableModels[name];
  const where = splitName(name);
  const writable = model.columns.find((c) => !c.generated);
  const nothing = [{ column: model.primaryKey[0], op: 'is' as const, value: null }];
  // The whole row (`select=*`), whatever columns a role is granted: refused where the model grants it some only.
  if (command === 'select' || model.view || !writable) return { kind: 'select', ...where, columns: '*', filters: [], wholeRow: true };
  if (command === 'update') return { kind: 'update', ...where, patch: { [writable.name]: null }, filters: nothing, returning: 'minimal' };
  return { kind: 'delete', ...where, filters: nothing, returning: 'minimal' };
}

/** The commands a request on `name` can be (grantRequest): a view, or a table with no column to write, is only read. */
function grantCommands(name: string): GrantCommand[] {
  const model = tableModels[name];
  return model.view || !model.columns.some((c) => !c.generated) ? ['select'] : ['select', 'update', 'delete'];
}

/** The people of a case: the row rules' helpers read them; no rows of the table itself, so only the grant decides. */
function grantPeople(settings: ModelSettings): fc.Arbitrary<Person[]> {
  return peopleWithRoles(settings, [null, ...settings.roles], 1, 2);
}

function cases(settings: ModelSettings, names: string[]): fc.Arbitrary<DataCase> {
  return grantPeople(settings).chain((list) =>
    fc
      .record({
        caller: fc.oneof({ weight: 1, arbitrary: fc.constant<Caller>({ kind: 'anon' }) }, { weight: 1, arbitrary: fc.constantFrom(...list).map(callerOf) }),
        name: fc.constantFrom(...names),
        kind: fc.constantFrom<GrantCommand>('select', 'select', 'update', 'delete'),
      })
      .map(({ caller, name, kind }): DataCase => ({ world: peopleRows(list), steps: [{ caller, request: grantRequest(name, kind) }] })),
  );
}

/**
 * The table `name`'s row of the grant matrix as one case: each command it takes, sent as anon
 * and as a signed-in person. A lane's first draws sweep every table (DataProperty.sweep), so the
 * whole matrix is sent in the first tranche; drawn at random, one cell a case, its last cells
 * came up to the 300th case, and early stop read each as new ground.
 */
function tableRowCases(name: string) {
  return (settings: ModelSettings): fc.Arbitrary<DataCase> =>
    grantPeople(settings).chain((list) =>
      fc.constantFrom(...list).map((person): DataCase => ({
        world: peopleRows(list),
        steps: grantCommands(name).flatMap((command) => [{ kind: 'anon' } as Caller, callerOf(person)].map((caller) => ({ caller, request: grantRequest(name, command) }))),
      })),
    );
}

/**
 * R16 over the given model tables. A project with only some of them (its own schema) is checked
 * on the ones it has (`narrow`); with none of them, R16 is not applicable.
 */
function tableGrantsProperty(names: string[], required: string[]): DataProperty {
  const property: DataProperty = {
    id: 'R16',
    rule: 16,
    title: 'tables: explicit grants to the intended roles; without one every caller is denied',
    tables: required,
    cases: (settings) => cases(settings, names),
    sweep: names.map(tableRowCases),
    clauses: [
      sidedClause('R16.grant', 'a table request: granted (allowed) / refused by a missing grant', (s) =>
        s.step.request.kind === 'rpc' ? undefined : s.outcome.kind === 'rejected' && s.outcome.by === 'grant' ? 'refused' : s.outcome.kind === 'allowed' || s.outcome.kind === 'filtered' ? 'allowed' : undefined,
      ),
    ],
    narrow: (has) => {
      const present = names.filter(has);
      if (present.length === names.length) return property;
      return present.length ? tableGrantsProperty(present, []) : tableGrantsProperty(names, names);
    },
  };
  return property;
}

export const R16: DataProperty = tableGrantsProperty(Object.keys(tableModels).sort(), []);

/** The model's tables by the names the catalog holds them under (a mapping's `users` is `profiles`: no "table not in the model"). */
export function tablesByTargetName<T extends { table: string }>(tables: Record<string, T>, mapping: TargetMapping | undefined): Record<string, T> {
  return mapping ? Object.fromEntries(Object.values(tables).map((t) => [targetTable(mapping, t.table), t])) : tables;
}

export const R16_CATALOG: CatalogProperty = {
  id: 'R16',
  rule: 16,
  title: 'tables: every table and view holds exactly the model’s grants, row security where it has rules',
  async check(client, settings, context) {
    // The schemas this run's API exposes: an `api` schema of views is what callers reach, not public.
    const expected = tablesByTargetName(context.model.tables, context.mapping);
    // Supabase's own schemas (`storage` where config.toml exposes it) hold tables the project did not
    // write: only one the model names is compared there, never "not in the model".
    // A project role the settings name (tableGrants.<t>.app_admin) is compared as the API roles are.
    const projectRoles = projectRolesNamed(expected, settings);
    const found = (await readCatalogTables(client, context.exposedSchemas, projectRoles)).filter((t) => Object.hasOwn(expected, t.name) || !MANAGED_SCHEMAS.includes(t.name.split('.')[0]));
    const compared = compareTables(found, expected, settings, projectRoles);
    // A project's target (a mapping) gets the secure reading the data half gives its requests (mapping.ts grantedUnderRowSecurity).
    const underRowSecurity = context.mapping ? await readGrantsUnderRowSecurity(client, context.exposedSchemas) : new Set<string>();
    return { objects: found.length, ...withGrantsUnderRowSecurity(compared, underRowSecurity) };
  },
};

const HELD_BEYOND_MODEL = /^(.+): (anon|authenticated) holds (SELECT|INSERT|UPDATE|DELETE), the model says it lacks it/;

/**
 * The findings of a privilege held beyond the model's where row security, not the grant, decides
 * what it reaches (`grantsUnderRowSecurity`, by rowSecurityGrantKey): the secure reading
 * GRANTED_UNDER_ROW_SECURITY, counted under its name. A view whose INSTEAD OF trigger takes the
 * write, a definer view, a table with row security off, and every privilege lacked stay findings.
 */
export function withGrantsUnderRowSecurity(compared: CatalogComparison, grantsUnderRowSecurity: ReadonlySet<string>): CatalogComparison {
  const accepted: string[] = [];
  const findings = compared.findings.filter((finding) => {
    const held = HELD_BEYOND_MODEL.exec(finding);
    const key = held && rowSecurityGrantKey(held[1], held[3].toLowerCase() as TablePrivilege, held[2] as RowSecurityRole);
    if (!key || !grantsUnderRowSecurity.has(key)) return true;
    accepted.push(finding.replace(/, the model says it lacks it.*$/, ''));
    return false;
  });
  if (!accepted.length) return compared;
  return { ...compared, findings, readings: { ...compared.readings, [GRANTED_UNDER_ROW_SECURITY]: accepted } };
}
