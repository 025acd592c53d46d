/**
 * Rule 15 on a target keeping its resolvers under the rule's names in `private`, a schema the API
 * does not expose (stranger-app-3, execute revoked from the API roles): PostgREST finds no such
 * function for anyone (PGRST202), which is what the rule asks. R15 runs, those calls accepted as
 * the named secure reading FUNCTION_OUTSIDE_API (counted in the run's note), never "not applicable";
 * a helper the target names otherwise is left out of its calls and named.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { BUNDLED_MIGRATIONS } from '../../../../cli/paths.ts';
import { runBin } from '../../../../testing/run-bin.ts';
import { tempDir } from '../../../../testing/temp-dir.ts';
import { compareFunctions, judgedOutsideApi, type CatalogFunction } from '../../../../engine/checker/catalog.ts';
import { compareOutcomes } from '../../../../engine/checker/compare.ts';
import type { ExecuteGrantee } from '../../../../engine/model/function-model.ts';
import type { CachedFunction, SchemaCache } from '../../../../engine/executor/schema-cache.ts';
import { FUNCTION_OUTSIDE_API, predict } from '../../../../engine/model/predict.ts';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import { fitToTarget, unexposedFunctionSchema } from '../../../../engine/runner/applicability.ts';
import { acceptedBy } from '../../../../engine/runner/check-case.ts';
import { PROJECT_ACTOR_MEANING_OPEN } from '../../model/functions/projects.ts';
import { referenceOracleWith } from '../../model/index.ts';
import { ModelSettingsSchema } from '../../model/settings.ts';
import { R15, R15_FUNCTIONS } from './property.ts';

const fn = (schema: string, name: string): [string, CachedFunction[]] => [`${schema}.${name}`, [{ schema, name, args: [], returns: 'scalar', returnType: 'boolean', volatility: 'stable' }]];
const inPrivate = ['effective_team_permissions_for_email', 'effective_team_vs_dept_for_email', 'node_effective_is_public'];
const absent = ['current_user_is_addressed_professor', 'current_user_is_admin'];
const cache: SchemaCache = {
  exposedSchemas: ['public'],
  extraSearchPath: ['public', 'extensions'],
  initiallyDeferred: [],
  tables: new Map([['public.team_members', []], ['public.team_nodes', []]]),
  outsideApi: new Map(),
  functions: new Map(R15_FUNCTIONS.filter((f) => !inPrivate.includes(f) && !absent.includes(f)).map((f) => fn('public', f))),
  outsideApiFunctions: new Map([...inPrivate.map((f) => fn('private', f)), fn('private', 'is_admin')]),
};

describe('R15 with its resolvers in a schema the API does not expose', () => {
  it('runs, calling them, without the helpers the target names otherwise', () => {
    const { property, missing, leftOut } = fitToTarget(R15, cache);
    expect(missing).toEqual([]);
    expect(property.functions).toEqual(expect.arrayContaining(inPrivate));
    expect(property.functions).not.toEqual(expect.arrayContaining(absent));
    expect(leftOut.sort()).toEqual([...absent].sort());
    expect(inPrivate.map(unexposedFunctionSchema(cache))).toEqual(['private', 'private', 'private']);
    // A property whose functions must work (no refusedOutsideApi) still finds them missing.
    expect(fitToTarget({ ...R15, refusedOutsideApi: false, narrow: undefined }, cache).missing).toEqual(expect.arrayContaining(inPrivate));
  });

  it("PostgREST's PGRST202 for every caller is the named secure reading, only for a function kept outside the API", () => {
    const oracle = referenceOracleWith(ModelSettingsSchema.parse({}));
    const call: ApiRequest = { kind: 'rpc', fn: 'effective_team_permissions_for_email', args: { p_email: 'a@x' } };
    const notFound = { kind: 'error' as const, code: 'PGRST202' };
    const withUnexposed = { ...oracle, unexposedFunctions: inPrivate };
    for (const caller of [{ kind: 'anon' as const }, { kind: 'service' as const }]) {
      const expected = predict(withUnexposed, {}, caller, call).outcome;
      expect(acceptedBy({ predicted: expected, observed: notFound, masked: [], hints: {} })).toEqual({ reading: FUNCTION_OUTSIDE_API });
      // Without the fact, the server's PGRST202 is a failure (the model lets it call).
      expect(compareOutcomes(predict(oracle, {}, caller, call).outcome, notFound)).toBeDefined();
    }
  });
});

describe("R15's catalog half on a model function kept outside the API", () => {
  const expected = new Map<string, readonly ExecuteGrantee[]>([
    ['effective_team_vs_dept_for_email', ['service_role']],
    ['get_public_org_chart', ['anon', 'authenticated', 'service_role']],
  ]);
  const outsideApi = new Map([...expected.keys()].map((f) => [f, `private.${f}`]));
  const catalogFn = (schema: string, name: string, executable: Partial<CatalogFunction['executable']>): CatalogFunction => ({
    name: schema === 'public' ? name : `${schema}.${name}`,
    schema,
    signature: `${schema}.${name}(p_email text)`,
    executable: { anon: false, authenticated: false, service_role: false, public: false, ...executable },
  });
  const judge = (found: CatalogFunction[]) => {
    const judged = judgedOutsideApi(found, expected, outsideApi);
    return { ...compareFunctions(judged.found, judged.expected), refused: judged.refused };
  };

  it('is the model’s function: a grant it withholds is the reading, not "not in the model"', () => {
    expect(judge([catalogFn('private', 'effective_team_vs_dept_for_email', {})])).toMatchObject({ findings: [], refused: ['private.effective_team_vs_dept_for_email(p_email text)'] });
    expect(judge([catalogFn('private', 'effective_team_vs_dept_for_email', { service_role: true })])).toMatchObject({ findings: [], refused: [] });
    const orgChart = catalogFn('private', 'get_public_org_chart', { anon: true, authenticated: true, service_role: true });
    expect(judge([orgChart])).toMatchObject({ findings: [], refused: [] });
    // Without the lookup, the same catalog is the false alarm this mends.
    expect(compareFunctions([orgChart], expected).findings).toEqual([expect.stringMatching(/^private\.get_public_org_chart\(p_email text\): not in the model/)]);
  });

  it('still fails a real fault: a grant beyond the model’s there, PUBLIC there, an unmodelled function anon may execute in an exposed schema', () => {
    expect(judge([catalogFn('private', 'effective_team_vs_dept_for_email', { anon: true })]).findings).toEqual(['private.effective_team_vs_dept_for_email(p_email text): anon may execute it, the model says it may not']);
    expect(judge([catalogFn('private', 'effective_team_vs_dept_for_email', { public: true })]).findings).toEqual([expect.stringMatching(/EXECUTE granted to PUBLIC/)]);
    expect(judge([catalogFn('private', 'effective_team_vs_dept_for_email', {}), catalogFn('public', 'leak_for_email', { anon: true })]).findings).toEqual(['public.leak_for_email(p_email text): not in the model (executable by anon)']);
  });
});

describe('current_user_is_project_actor, which R15 calls: the spec names it but not who an actor is', () => {
  it("a signed-in caller's other answer about themselves is the named secure reading; anon's is not", () => {
    const oracle = referenceOracleWith(ModelSettingsSchema.parse({}));
    const call: ApiRequest = { kind: 'rpc', fn: 'current_user_is_project_actor', args: {} };
    const me = { kind: 'user' as const, id: '5a5a5a5a-5a5a-4a5a-8a5a-5a5a5a5a5a5a', email: 'me@x' };
    const world = { users: [{ id: me.id, email: 'me@x', display_name: null, avatar_url: null, phone: null, role: 'user', department: null, permissions: [], managed_permissions: [] }] };
    const owner = { kind: 'allowed' as const, rows: [{ value: true }], affected: 1 };
    expect(acceptedBy({ predicted: predict(oracle, world, me, call).outcome, observed: owner, masked: [], hints: {} })).toEqual({ reading: PROJECT_ACTOR_MEANING_OPEN });
    expect(compareOutcomes(predict(oracle, {}, { kind: 'anon' }, call).outcome, owner)).toBeDefined();
  });
});

// The reference with one resolver moved to `private` (its one caller's body following it), execute revoked from every API role.
const RESOLVER_IN_PRIVATE = `
alter function public.effective_team_vs_dept_for_email(text) set schema private;
revoke execute on function private.effective_team_vs_dept_for_email(text) from service_role;
do $$ begin
  execute replace(pg_get_functiondef('public.sync_my_team_permissions()'::regprocedure), 'public.effective_team_vs_dept_for_email', 'private.effective_team_vs_dept_for_email');
end $$;
`;

describe('through the binary: a resolver kept outside the API', () => {
  it('R15 passes, both halves: its calls answered PGRST202 and its withheld grant counted as function-outside-api-refused in the notes; exit 0', async () => {
    const dir = tempDir('r15-outside-api');
    mkdirSync(path.join(dir, 'extra'));
    writeFileSync(path.join(dir, 'extra', '0900_resolver_in_private.sql'), RESOLVER_IN_PRIVATE);
    writeFileSync(path.join(dir, 'policyfuzz.config.json'), JSON.stringify({ migrations: [BUNDLED_MIGRATIONS, 'extra'], rules: { include: ['R15'] } }));
    const run = await runBin(['fuzz', '--config', path.join(dir, 'policyfuzz.config.json'), '--runs', '30', '--seed', '1', '--no-sso', '--no-replay', '--no-color', '--database-url', inject('databaseUrl'), '--report', 'json', '--report-dir', path.join(dir, 'r'), '--failures-dir', path.join(dir, 'f')], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(dir, 'r', 'summary.json'), 'utf8')) as { properties: { id: string; status: string; note?: string }[] };
    const r15 = summary.properties.find((p) => p.id === 'R15');
    expect(r15).toMatchObject({ status: 'passed' });
    expect(r15?.note).toMatch(new RegExp(`accepted as secure readings: ${FUNCTION_OUTSIDE_API} \\(\\d+ steps?\\)`));
    // The catalog half finds the same function the same way: the model's, outside the API, its withheld grant the same reading.
    expect(summary.properties.find((p) => p.id === 'R15:catalog')).toMatchObject({ status: 'passed', note: `accepted as secure readings: ${FUNCTION_OUTSIDE_API} (1: private.effective_team_vs_dept_for_email(p_email text))` });
  });
});
