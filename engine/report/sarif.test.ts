/**
 * SARIF: the log validates against the SARIF 2.1.0 schema (vendored: testing/schemas, from
 * @microsoft/jest-sarif), has one result per failing rule with the replay command and the shrunk
 * case, and each result points at the migration line of the guard, policy, grant or function
 * the counterexample went through.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS, PROJECT_ROOT } from '../../cli/paths.ts';
import { loadMigrationFolder } from '../db/migrations.ts';
import { sarifLog, locateFailure } from './sarif.ts';
import type { Json } from '../model/json.ts';
import { runSummary, type FailureSummary, type PropertySummary } from './summary.ts';

const schema = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'testing', 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8'));
const migrations = loadMigrationFolder(BUNDLED_MIGRATIONS);

function failure(request: Json, expected: Json, actual: Json, extra: Partial<FailureSummary> = {}): FailureSummary {
  return {
    id: 'R02-1fc21ebcb800',
    seed: 3,
    path: '13:639:0:0',
    message: 'step 1: database answered success, model expected error P0001',
    step: 0,
    case: { world: { users: [{ id: 'u1', role: 'sa_prof' }] }, steps: [{ caller: { kind: 'user', id: 'u1' }, request }] },
    expected,
    actual: { outcome: actual, response: { status: 200 } },
    replay: 'policyfuzz replay .policyfuzz/failures/R02-1fc21ebcb800.json\npolicyfuzz fuzz --only R02 --seed 3 --path 13:639:0:0',
    file: null,
    reproSql: null,
    regressionFile: null,
    ...extra,
  };
}
const update = { kind: 'update', table: 'users', patch: { role: 'user' }, filters: [{ column: 'id', op: 'eq', value: 'u1' }], returning: 'minimal' };
const guardFailure = failure(update, { kind: 'raised', code: 'P0001' }, { kind: 'allowed', rows: null, affected: 1 });
const prop = (id: string, failures: FailureSummary[], status: PropertySummary['status'] = 'failed'): PropertySummary => ({ id, title: `rule ${id}`, area: 'data', status, cases: 10, counts: { allowed: 10 }, durationMs: 5, seed: 3, note: null, failures });
const lineOf = (where: { file: string; line: number }) => readFileSync(path.join(PROJECT_ROOT, where.file), 'utf8').split('\n')[where.line - 1];

describe('SARIF', () => {
  it('validates against the SARIF 2.1.0 schema: one result per failing rule, with message, case and replay', () => {
    const summary = runSummary([prop('R02', [guardFailure]), prop('R04', []), prop('R14', [failure({ kind: 'rpc', fn: 'vs_transfer_dept', args: {} }, { kind: 'rejected', code: '42501', by: 'policy' }, { kind: 'allowed', rows: [], affected: 0 }, { id: 'R14-0123456789ab' })])], {
      policyfuzzVersion: '0.1.0', seed: 3, profile: 'pr', shard: { index: 1, count: 1 }, migrations: 'packs/reference/migrations', migrationsDigest: 'abc', startedAt: new Date(), timeBudgetMs: null,
    });
    const log = sarifLog(summary, { migrations, root: PROJECT_ROOT }) as { runs: Array<{ results: Array<Record<string, any>>; tool: { driver: { rules: Array<{ id: string }> } } }> };
    const ajv = new ajvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false }) // the schema's language pattern is not valid with the u flag;
    ajvFormats.default(ajv);
    const validate = ajv.compile(schema);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    // And the schema does reject a broken log (the check can fail).
    expect(validate({ ...log, version: '2.0.0' })).toBe(false);

    const [run] = log.runs;
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['R02', 'R14']);
    expect(run.results.map((r) => r.ruleId)).toEqual(['R02', 'R14']);
    const text: string = run.results[0].message.text;
    expect(text).toContain('kind: "error" → "allowed"');
    expect(text).toContain('"patch":{"role":"user"}');
    expect(text).toContain('policyfuzz fuzz --only R02 --seed 3 --path 13:639:0:0');
    expect(run.results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('packs/reference/migrations/0100_users.sql');
  });

  it('locates the guard, policy, grant or function the counterexample went through', () => {
    const guard = locateFailure(guardFailure, migrations, PROJECT_ROOT)!;
    expect(lineOf(guard)).toMatch(/^create trigger users_10_owner_guard before update on public.users/);
    const policy = locateFailure(failure({ ...update, patch: { display_name: 'x' } }, { kind: 'filtered', rows: null, affected: 0 }, { kind: 'allowed', rows: null, affected: 1 }), migrations, PROJECT_ROOT)!;
    expect(lineOf(policy)).toMatch(/^create policy users_update on public.users for update/);
    const grant = locateFailure(failure({ kind: 'delete', table: 'users', filters: [], returning: 'minimal' }, { kind: 'rejected', code: '42501', by: 'grant' }, { kind: 'allowed', rows: null, affected: 1 }), migrations, PROJECT_ROOT)!;
    expect(lineOf(grant)).toMatch(/^(grant|revoke) .* on (table )?(public\.)?users\b/i);
    const fn = locateFailure(failure({ kind: 'rpc', fn: 'vs_transfer_dept', args: {} }, { kind: 'raised', code: 'P0001' }, { kind: 'allowed', rows: [], affected: 0 }), migrations, PROJECT_ROOT)!;
    expect(lineOf(fn)).toMatch(/create (or replace )?function public\.vs_transfer_dept\(/);
    expect(fn.what).toBe('function vs_transfer_dept');
    // The migration that last changed the object wins: here a later one drops the guard.
    const mutant = loadMigrationFolder(path.join(BUNDLED_MUTANTS, 'R02-users-role', 'mutants')).find((m) => m.name === 'R02-guard-trigger-dropped.sql')!;
    const dropped = locateFailure(guardFailure, [...migrations, mutant], PROJECT_ROOT)!;
    expect(dropped.file).toBe('packs/reference/rules/R02-users-role/mutants/R02-guard-trigger-dropped.sql');
    expect(lineOf(dropped)).toBe('drop trigger users_10_owner_guard on public.users;');
  });

  it('gives each security lint finding a result of its own, at the statement creating its object, ERROR an error and WARN a warning', () => {
    const file = 'packs/reference/rules/R12-vs-submitter-view/mutants/LINT01-vs-overview-definer-view.sql';
    const view = { name: path.basename(file), path: path.join(PROJECT_ROOT, file), sql: readFileSync(path.join(PROJECT_ROOT, file), 'utf8') };
    const findings = [
      { lint: 'security_definer_view', level: 'ERROR', object: 'public.vs_ticket_overview', problem: 'view has no security_invoker', fix: 'alter view', defined: { kind: 'relation', schema: 'public', name: 'vs_ticket_overview' } },
      { lint: 'function_search_path_mutable', level: 'WARN', object: 'public.merge_vs_tickets(p_duplicate text, p_primary text)', problem: 'no search_path', fix: 'alter function', defined: { kind: 'function', schema: 'public', name: 'merge_vs_tickets' } },
    ];
    const lints = failure(null, null, null, { id: null, path: '', step: null, case: findings, message: '2 catalog finding(s)', replay: 'policyfuzz fuzz --only LINT01' });
    const summary = runSummary([prop('R02', [guardFailure]), prop('LINT01:catalog', [{ ...lints, expected: null, actual: null }])], {
      policyfuzzVersion: '0.1.0', seed: 3, profile: 'pr', shard: { index: 1, count: 1 }, migrations: 'packs/reference/migrations', migrationsDigest: 'abc', startedAt: new Date(), timeBudgetMs: null,
    });
    const log = sarifLog(summary, { migrations: [...migrations, view], root: PROJECT_ROOT }) as { runs: Array<{ results: Array<Record<string, any>>; tool: { driver: { rules: Array<{ id: string }> } } }> };
    const ajv = new ajvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false });
    ajvFormats.default(ajv);
    const validate = ajv.compile(schema);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const [run] = log.runs;
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['R02', 'LINT01:catalog/security_definer_view', 'LINT01:catalog/function_search_path_mutable']);
    expect(run.results.map((r) => [r.ruleId, r.level])).toEqual([['R02', 'error'], ['LINT01:catalog/security_definer_view', 'error'], ['LINT01:catalog/function_search_path_mutable', 'warning']]);
    const where = (r: Record<string, any>) => ({ file: r.locations[0].physicalLocation.artifactLocation.uri, line: r.locations[0].physicalLocation.region.startLine });
    expect(lineOf(where(run.results[1]))).toMatch(/^create view public\.vs_ticket_overview as/);
    expect(lineOf(where(run.results[2]))).toBe('create or replace function public.merge_vs_tickets(p_duplicate text, p_primary text) returns void');
    expect(run.results[1].message.text).toBe('ERROR security_definer_view: public.vs_ticket_overview: view has no security_invoker. Fix: alter view');
  });
});
