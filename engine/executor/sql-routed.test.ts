/**
 * A table outside the exposed schemas sent as SQL (mapping `via: "sql"`): the statement PostgREST
 * would build, without what only PostgREST adds (PGRST106, PGRST204, pg-safeupdate's 21000), and
 * a request form only PostgREST answers (single object, max-affected) left out of its case, counted.
 */
import { describe, expect, it } from 'vitest';
import { describeRequest, type ApiRequest } from '../model/request.ts';
import { preRequestSql } from './case-transaction.ts';
import { sendableCase, sentAsSql, REFERENCE_PLAN } from '../target/fixtures.ts';
import { sqlRoutedTables } from '../mapping/mapping.ts';
import { missingObjects } from '../runner/applicability.ts';
import type { SchemaCache } from './schema-cache.ts';
import { buildStatement } from './statement.ts';
import { inlineSql } from './sql-text.ts';

const columns = [
  { name: 'id', type: 'uuid', generated: false, primaryKey: true },
  { name: 'name', type: 'text', generated: false },
];
const cache: SchemaCache = { exposedSchemas: ['public'], extraSearchPath: ['public', 'extensions'], initiallyDeferred: [], tables: new Map(), outsideApi: new Map([['teamkit.teams', columns]]), functions: new Map() };
const routed = new Set(['teamkit.teams']);
const update: ApiRequest = { kind: 'update', schema: 'teamkit', table: 'teams', patch: { name: 'x' }, filters: [], returning: 'minimal' };

describe('a table sent as SQL', () => {
  it('is refused by PostgREST (PGRST106) unless the mapping sends it as SQL', () => {
    expect(buildStatement(update, cache)).toMatchObject({ refusal: { code: 'PGRST106' } });
    const s = buildStatement(update, cache, routed);
    expect('query' in s && inlineSql(s.query)).toContain('with pgrst_source as (update "teamkit"."teams" set "name" = pgrst_body."name" from (select * from json_to_recordset(\'[{"name":"x"}]\'::json) as pgrst_body("name" text)) pgrst_body returning 1)');
  });

  it('has no pg-safeupdate (an UPDATE or DELETE without WHERE runs) and no PGRST204 (Postgres names an unknown column: 42703)', () => {
    expect('query' in buildStatement({ kind: 'delete', schema: 'teamkit', table: 'teams', filters: [], returning: 'minimal' }, cache, routed)).toBe(true);
    const unknown = buildStatement({ ...update, patch: { colour: 'red' } } as ApiRequest, cache, routed);
    expect('query' in unknown && inlineSql(unknown.query)).toContain('"colour" text');
  });

  it('leaves a single-object or max-affected request out of its case, counted, and sends the rest', () => {
    const plan = { ...REFERENCE_PLAN, mapping: { tables: { 'teamkit.teams': { via: 'sql' as const } } } };
    const read: ApiRequest = { kind: 'select', schema: 'teamkit', table: 'teams', columns: '*', filters: [] };
    const caller = { kind: 'service' as const };
    const steps = [{ caller, request: read }, { caller, request: { ...read, single: true } }, { caller, request: { ...update, filters: [{ column: 'id', op: 'eq' as const, value: 'a' }], maxAffected: 1 } }];
    const { testCase, dropped } = sendableCase(plan, { world: {}, steps });
    expect(testCase?.steps.map((s) => s.request)).toEqual([read]);
    expect(dropped).toEqual({
      'a single-object request (Accept: vnd.pgrst.object) of teamkit.teams: REST only, the table is sent as SQL (mapping.tables.teamkit.teams.via)': 1,
      'a max-affected write of teamkit.teams: REST only, the table is sent as SQL (mapping.tables.teamkit.teams.via)': 1,
    });
  });

  it('is described as the SQL it is, not as a REST request, and its request.headers name no profile (no Accept/Content-Profile)', () => {
    const patch: ApiRequest = { ...update, filters: [{ column: 'id', op: 'eq', value: 'a' }] } as ApiRequest;
    expect(describeRequest(patch, 'sql')).toBe('as SQL: UPDATE teamkit.teams SET {"name":"x"} WHERE id=eq."a" (return=minimal)');
    expect(describeRequest(patch)).toBe('PATCH /rest/v1/teamkit.teams?id=eq."a" (return=minimal) {"name":"x"}');
    const user = { kind: 'user' as const, id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' };
    expect(preRequestSql(user, patch, cache)).not.toMatch(/profile/);
    expect(preRequestSql(user, { kind: 'select', schema: 'teamkit', table: 'teams', columns: '*', filters: [] }, cache)).not.toMatch(/profile/);
    // A request to an exposed schema other than the first carries its profile header, as supabase-js sends it.
    const exposed = { ...cache, exposedSchemas: ['public', 'teamkit'] };
    expect(preRequestSql(user, patch, exposed)).toContain('"content-profile":"teamkit"');
  });

  it('a function outside the API is called as SQL when the mapping says `via: "sql"` (PGRST106 otherwise; unknown: 42883, as Postgres)', () => {
    const fn = { schema: 'teamkit', name: 'has_role', args: [{ name: 'p_team', type: 'uuid', hasDefault: false }], returns: 'scalar' as const, volatility: 'stable' as const };
    const withFn: SchemaCache = { ...cache, outsideApiFunctions: new Map([['teamkit.has_role', [fn]]]) };
    const call: ApiRequest = { kind: 'rpc', schema: 'teamkit', fn: 'has_role', args: { p_team: 'a' } };
    const mapping = { functions: { 'teamkit.has_role': { via: 'sql' as const } } };
    const routedFns = sqlRoutedTables(mapping);
    expect([...routedFns]).toEqual(['teamkit.has_role()']);
    expect(buildStatement(call, withFn)).toMatchObject({ refusal: { code: 'PGRST106' } });
    const s = buildStatement(call, withFn, routedFns);
    expect('query' in s && inlineSql(s.query)).toContain('"teamkit"."has_role"("p_team" := pgrst_args."p_team")');
    expect(buildStatement({ ...call, fn: 'nope' } as ApiRequest, withFn, new Set(['teamkit.nope()']))).toMatchObject({ refusal: { code: '42883' } });
    // A table of the same name is not routed by the function's setting.
    expect(buildStatement({ kind: 'select', schema: 'teamkit', table: 'has_role', columns: '*', filters: [] }, withFn, routedFns)).toMatchObject({ refusal: { code: 'PGRST106' } });
    expect(sentAsSql({ ...REFERENCE_PLAN, mapping }, call)).toBe(true);
    expect(describeRequest(call, 'sql')).toBe('as SQL: SELECT teamkit.has_role({"p_team":"a"})');
    // Without the setting the rule is not applicable, and the note names it.
    expect(missingObjects({ tables: [], functions: ['teamkit.has_role'] }, withFn)).toEqual([
      'teamkit.has_role the API reaches (it is in schema teamkit, which the API does not expose: set mapping.functions.teamkit.has_role.via to "sql" to send its requests as SQL under the caller\'s role)',
    ]);
    expect(missingObjects({ tables: [], functions: ['teamkit.has_role'] }, withFn, mapping)).toEqual([]);
  });
});
