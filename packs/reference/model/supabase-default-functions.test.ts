/**
 * A target keeping Supabase's default EXECUTE on its functions (`conventions.grants:
 * "supabase-default"`) runs a signed-in-only function's body for anon instead of refusing by
 * grant. After stranger-app-7: its get_my_student_record answers anon null (`case when auth.uid()
 * is null then null`) and its sync_my_team_permissions raises NOT_AUTHORIZED as 42501
 * (refusals.codes), both failed as "expected 42501 (grant)" (R20). What the model's own body
 * answers that caller is accepted where it changes nothing; rows of someone's never are, nor a
 * write the grant alone would have stopped.
 */
import { describe, expect, it } from 'vitest';
import { compareOutcomes } from '../../../engine/checker/compare.ts';
import { expectedOnTarget, type TargetMapping } from '../../../engine/mapping/mapping.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import { predict } from '../../../engine/model/predict.ts';
import type { Outcome } from '../../../engine/model/outcome.ts';
import { referenceOracleWith } from './index.ts';
import { ModelSettingsSchema } from './settings.ts';

const oracle = referenceOracleWith(ModelSettingsSchema.parse({ refusals: { codes: { 'not-authorized': '42501' } } }));
const anon = { kind: 'anon' as const };
const supabaseDefault: TargetMapping = { conventions: { grants: 'supabase-default' } };
const ME = '5a5a5a5a-5a5a-4a5a-8a5a-5a5a5a5a5a5a';
const world = {
  users: [{ id: ME, email: 'me@x', display_name: null, avatar_url: null, phone: null, role: 'user', department: null, permissions: [], managed_permissions: [] }],
  student_records: [{ id: '6b6b6b6b-6b6b-4b6b-8b6b-6b6b6b6b6b6b', email: 'me@x', student_id: '1', full_name: 'Me', year: 1, major: 'x' }],
};
const call = (fn: string, args: Record<string, string> = {}): ApiRequest => ({ kind: 'rpc', fn, args }) as ApiRequest;
const expectedOf = (mapping: TargetMapping, request: ApiRequest) => expectedOnTarget(mapping, anon, request, predict(oracle, world, anon, request).outcome);
const nullAnswer: Outcome = { kind: 'allowed', rows: [{ value: null }], affected: 1 };
const bodyRefusal: Outcome = { kind: 'raised', code: '42501', message: 'NOT_AUTHORIZED' };

describe("signed-in-only functions called by anon under Supabase's default EXECUTE", () => {
  it('get_my_student_record: answering anon nothing (null) is the body’s answer, as secure as the grant refusal', () => {
    const expected = expectedOf(supabaseDefault, call('get_my_student_record'));
    expect(expected).toMatchObject({ kind: 'rejected', by: 'grant' });
    expect(compareOutcomes(expected, nullAnswer)).toBeUndefined();
    expect(compareOutcomes(expected, { kind: 'rejected', code: '42501', by: 'grant' })).toBeUndefined();
    // Someone's record shown to anon still fails.
    const someones: Outcome = { kind: 'allowed', rows: [{ record: { id: '6b6b6b6b-6b6b-4b6b-8b6b-6b6b6b6b6b6b', full_name: 'Me' }, requests: [] }], affected: 1 };
    expect(compareOutcomes(expected, someones)).toBeDefined();
  });

  it('a body refusing anon in the project’s not-authorized code (42501) agrees; explicit grants keep the grant refusal alone', () => {
    expect(compareOutcomes(expectedOf(supabaseDefault, call('sync_my_team_permissions')), bodyRefusal)).toBeUndefined();
    expect(compareOutcomes(expectedOf(supabaseDefault, call('find_similar_vs_tickets', { p_id: 'VS-1001' })), bodyRefusal)).toBeUndefined();
    expect(compareOutcomes(expectedOf({}, call('get_my_student_record')), nullAnswer)).toBeDefined();
    expect(compareOutcomes(expectedOf({}, call('sync_my_team_permissions')), bodyRefusal)).toBeDefined();
  });

  it('get_my_student_record refusing anon NOT_AUTHORIZED in the project’s code agrees (rule 20: no session, no identity-gated function; stranger-app-16)', () => {
    // Before: only a P0001 body refusal or the null answer was accepted, so 42501 NOT_AUTHORIZED failed R15, R18 and R20.
    expect(compareOutcomes(expectedOf(supabaseDefault, call('get_my_student_record')), bodyRefusal)).toBeUndefined();
    // A database error of another kind still disagrees (a body failing is no refusal).
    expect(compareOutcomes(expectedOf(supabaseDefault, call('get_my_student_record')), { kind: 'error', code: '22P02', detail: 'invalid input syntax for type uuid' })).toBeDefined();
  });

  it('a soft delete answering anon that it deleted still fails: the body refuses a caller with no role', () => {
    const expected = expectedOf(supabaseDefault, call('soft_delete_pr_ticket', { p_id: 'PR-1' }));
    expect(compareOutcomes(expected, { kind: 'allowed', rows: [{ value: true }], affected: 1 })).toBeDefined();
  });
});

describe("a pack's body written for the callers its grant lets in", () => {
  it('throwing for anon leaves the grant refusal alone (no body answer), never a harness error', () => {
    const fn = oracle.model.functions.get_my_student_record;
    const throwing = { ...oracle, model: { ...oracle.model, functions: { ...oracle.model.functions, get_my_student_record: { ...fn, predict: () => { throw new TypeError('uid is null'); } } } } };
    const outcome = predict(throwing, world, anon, call('get_my_student_record')).outcome;
    expect(outcome).toMatchObject({ kind: 'rejected', by: 'grant' });
    expect(outcome).not.toHaveProperty('bodyAnswer');
  });
});
