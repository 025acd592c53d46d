/**
 * R15 — helpers that answer about another person (effective_team_*_for_email, node_effective_*)
 * and private helpers are not executable by anon, authenticated or public; only named grants are
 * kept, and a revoke must name each role because Supabase's defaults grant EXECUTE on new
 * functions.
 * Two halves: R15 (data) calls the functions of this area and the policy helpers as anon, a
 * person of any role or the server, with arguments about someone else, and compares "42501 by
 * grant" and the answer with the model; R15 (catalog) lists every function in the exposed
 * schemas and private and compares who may execute it with functionModels + privateFunctions —
 * a function the model does not know (created later, default privileges, no revoke) is a finding
 * where anon, authenticated or PUBLIC may execute it, unless it is a policy helper outside the
 * API (engine/checker/catalog.ts POLICY_HELPER_EXECUTE).
 */
import fc from 'fast-check';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import type { ModelSettings } from '../../model/settings.ts';
import type { Json, Row } from '../../../../engine/model/json.ts';
import type { Caller } from '../../../../engine/model/caller.ts';
import { functionModels } from '../../model/functions/index.ts';
import type { FunctionGrantee } from '../../../../engine/model/function-model.ts';
import { teamMembers, teamTree } from '../../generators/team.ts';
import { projectRows, projectWorld, type ProjectWorld } from '../../generators/project.ts';
import { callerOf, type Person } from '../../generators/identities.ts';
import { callerFrom, emailVariant, peopleRows, peopleWithRoles } from '../../generators/student.ts';
import { compareFunctions, judgedOutsideApi, readCatalogFunctions, readInvokerCallers, underModelNames } from '../../../../engine/checker/catalog.ts';
import { FUNCTION_OUTSIDE_API } from '../../../../engine/model/predict.ts';
import { EXPOSED_SCHEMAS } from '../../../../engine/runner/environment.ts';
import { MANAGED_SCHEMAS } from '../../../../engine/db/supabase/managed-schemas.ts';
import type { CatalogProperty } from '../../../../engine/runner/catalog-property.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { clause } from '../clauses.ts';
import { rolesByMeaning, firstOf } from '../../generators/roles.ts';

/** The functions the data half calls: this area's, and the policy helpers every rule leans on. */
export const R15_FUNCTIONS = [
  'effective_team_permissions_for_email',
  'effective_team_vs_dept_for_email',
  'node_effective_is_public',
  'my_person_id',
  'current_user_is_project_actor',
  'current_user_is_addressed_professor',
  'current_user_is_staff',
  'current_user_is_admin',
  'current_user_has_permission',
  'get_public_org_chart',
  'sync_my_team_permissions',
  'get_my_student_record',
] as const;

/** What a call's arguments are drawn from: the case's people, team tree, members and projects. */
interface CallWorld {
  list: Person[];
  nodes: Row[];
  projects: ProjectWorld;
}

function callWorlds(settings: ModelSettings): fc.Arbitrary<CallWorld> {
  const roles = rolesByMeaning(settings);
  return peopleWithRoles(settings, [null, ...roles.plain, ...firstOf(roles.staff, roles.admin, roles.professor)], 1, 3).chain((list) =>
    fc.tuple(teamTree(4), projectWorld(list)).map(([nodes, projects]) => ({ list, nodes, projects })),
  );
}

/** The arguments of a call, drawn from the case's world (every argument about someone else). */
function callArgs(settings: ModelSettings, { list, nodes, projects }: CallWorld) {
  return fc.record({
    email: fc.constantFrom(...list.map((p) => p.email)).chain(emailVariant),
    node: fc.constantFrom(...nodes.map((n) => n.id as string)),
    project: fc.constantFrom(...projects.projects.map((p) => p.id as string)),
    permission: fc.constantFrom(...settings.permissions),
  });
}

/** The call of `fn` with these arguments, each by its name. */
function callOf(fn: string, { email, node, project, permission }: { email: string; node: string; project: string; permission: string }): ApiRequest {
  const byName: Record<string, Json> = { p_email: email, p_node_id: node, p_project_id: project, p_permission: permission };
  return { kind: 'rpc', fn, args: Object.fromEntries(functionModels[fn].args.map((a) => [a, byName[a] ?? null])) };
}

function callCase(w: CallWorld, members: Row[], steps: DataCase['steps']): DataCase {
  return { world: { ...peopleRows(w.list), team_nodes: w.nodes, team_members: members, ...projectRows(w.projects) }, steps };
}

function cases(settings: ModelSettings, called: readonly string[] = R15_FUNCTIONS): fc.Arbitrary<DataCase> {
  return callWorlds(settings).chain((w) =>
    fc
      .record({
        members: teamMembers(settings, w.nodes, w.list, 4),
        caller: callerFrom(w.list, 3),
        fn: fc.constantFrom(...called.filter((f) => f in functionModels)),
        args: callArgs(settings, w),
      })
      .map(({ members, caller, fn, args }): DataCase => callCase(w, members, [{ caller, request: callOf(fn, args) }])),
  );
}

/**
 * The function `fn`'s row of the execute matrix as one case: called as anon, as a signed-in
 * person and as the server. A lane's first draws sweep every function (DataProperty.sweep), so
 * every function × API role is called in the first tranche; drawn at random, one a case, anon and
 * the server a tenth of the callers each, the last came past the 200th case.
 */
function functionRowCases(fn: string) {
  return (settings: ModelSettings): fc.Arbitrary<DataCase> =>
    callWorlds(settings).chain((w) =>
      fc
        .record({ members: teamMembers(settings, w.nodes, w.list, 4), person: fc.constantFrom(...w.list), args: callArgs(settings, w) })
        .map(({ members, person, args }): DataCase => callCase(w, members, [{ kind: 'anon' } as Caller, callerOf(person), { kind: 'service' } as Caller].map((caller) => ({ caller, request: callOf(fn, args) })))),
    );
}

/**
 * R15 calling `called`: a target lacking some of the functions (a helper under another name) has
 * the others called; one kept only in a schema the API does not expose counts, its calls refused
 * by PostgREST (refusedOutsideApi), which is what rule 15 asks.
 */
function r15(called: readonly string[]): DataProperty {
  return {
    id: 'R15',
    rule: 15,
    title: 'functions: resolvers about another person and private helpers keep only named grants',
    tables: ['team_members', 'team_nodes'],
    functions: [...called],
    refusedOutsideApi: true,
    cases: (settings) => cases(settings, called),
    sweep: called.filter((f) => f in functionModels).map(functionRowCases),
    clauses: [clause('R15.execute', 'a function call (no grant: refused)', (s) => s.step.request.kind === 'rpc')],
    narrow: (has) => {
      const present = R15_FUNCTIONS.filter(has);
      return present.length && ['team_members', 'team_nodes'].every(has) ? r15(present) : undefined;
    },
  };
}

export const R15: DataProperty = r15(R15_FUNCTIONS);

export const R15_CATALOG: CatalogProperty = {
  id: 'R15',
  rule: 15,
  title: 'functions: every function in the database executable exactly by the model’s named grants',
  async check(client, _settings, context) {
    // The project's API schemas too (stranger-app-17 exposes `api` alone: none of its functions was read), under the
    // model's names; not Supabase's own (graphql_public, storage), whose functions are not the project's.
    const projectSchemas = context.exposedSchemas.filter((schema) => !MANAGED_SCHEMAS.includes(schema));
    const schemas = [...new Set([...EXPOSED_SCHEMAS, ...projectSchemas, 'private'])];
    const found = underModelNames(await readCatalogFunctions(client, schemas), context.mapping);
    const callers = { calledBy: await readInvokerCallers(client, context.exposedSchemas, context.extraSearchPath), exposedSchemas: context.exposedSchemas };
    const expected = new Map<string, readonly FunctionGrantee[]>([
      ...Object.values(context.model.functions).map((f) => [f.name, f.executableBy] as const),
      ...(context.model.privateFunctions ?? []).map((f) => [f.name, f.executableBy] as const),
    ]);
    // A model function the target keeps only outside the API is judged as the model's, a grant it withholds read as
    // FUNCTION_OUTSIDE_API, as the data half reads its calls (not "not in the model").
    const outsideApi = new Map<string, string>();
    for (const name of Object.keys(context.model.functions)) {
      const key = context.outsideApi?.(name);
      if (key) outsideApi.set(name, key);
    }
    const judged = judgedOutsideApi(found, expected, outsideApi);
    const compared = compareFunctions(judged.found, judged.expected, callers);
    return { objects: found.length, ...compared, ...(judged.refused.length ? { readings: { ...compared.readings, [FUNCTION_OUTSIDE_API]: judged.refused } } : {}) };
  },
};
