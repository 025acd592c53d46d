/**
 * settings.refusals.notFound: a project whose soft delete refuses (P0002 no_data_found) where
 * the spec answers false. The default keeps the spec's answer, and a failure on the difference
 * names the setting; `raise` predicts the not-found refusal with its SQLSTATE.
 */
import { describe, expect, it } from 'vitest';
import { compareOutcomes, settingHintsFor } from '../../../engine/checker/compare.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import { predict } from '../../../engine/model/predict.ts';
import { referenceOracleWith } from './index.ts';
import { ModelSettingsSchema } from './settings.ts';

const HANDLER = '2d2d2d2d-2d2d-4d2d-8d2d-2d2d2d2d2d2d';
const world = { users: [{ id: HANDLER, email: 'h@x', role: 'pr_staff', department: null, permissions: [], managed_permissions: [] }], pr_tickets: [] };
const caller = { kind: 'user' as const, id: HANDLER, email: 'h@x' };
const call: ApiRequest = { kind: 'rpc', fn: 'soft_delete_pr_ticket', args: { p_id: 'PR-404' } };
const p0002 = { kind: 'raised' as const, code: 'P0002', message: 'no service request PR-404' };

describe('refusals.notFound', () => {
  it('default: the spec’s false, and a target raising P0002 instead fails naming the setting', () => {
    const oracle = referenceOracleWith(ModelSettingsSchema.parse({}));
    const expected = predict(oracle, world, caller, call).outcome;
    expect(expected).toMatchObject({ kind: 'allowed', rows: [{ value: false }] });
    expect(compareOutcomes(expected, p0002, [], undefined, settingHintsFor(oracle, call))?.reason).toBe('database answered error P0002, model expected success (answer or refuse: setting refusals.notFound)');
  });

  it('raise, with the not-found code P0002: the target’s refusal agrees; answering false or another code does not', () => {
    const oracle = referenceOracleWith(ModelSettingsSchema.parse({ refusals: { notFound: 'raise', codes: { 'not-found': 'P0002' } } }));
    const expected = predict(oracle, world, caller, call).outcome;
    expect(compareOutcomes(expected, p0002)).toBeUndefined();
    expect(compareOutcomes(expected, { kind: 'allowed', rows: [{ value: false }], affected: 1 })).toBeDefined();
    expect(compareOutcomes(expected, { ...p0002, code: 'P0001' })?.reason).toMatch(/setting refusals\.codes\.not-found/);
  });

  it('per function (a stranger’s schema raises for the VS soft delete and answers for the PR one): each function its own', () => {
    const oracle = referenceOracleWith(ModelSettingsSchema.parse({ refusals: { notFound: { soft_delete_vs_ticket: 'raise' } } }));
    expect(predict(oracle, world, caller, call).outcome).toMatchObject({ kind: 'allowed', rows: [{ value: false }] });
    const vs: ApiRequest = { kind: 'rpc', fn: 'soft_delete_vs_ticket', args: { p_id: 'VS-404' } };
    const vsWorld = { ...world, users: [{ ...world.users[0], role: 'vs_staff' }], vs_tickets: [] };
    expect(predict(oracle, vsWorld, caller, vs).outcome).toMatchObject({ kind: 'raised', code: 'P0001' });
    expect(ModelSettingsSchema.safeParse({ refusals: { notFound: { soft_delete_x: 'raise' } } }).success).toBe(false);
  });
});

describe('refusals.nonHandlerAs (stranger-app-4: vs_set_public gates staff, then finds no ticket a non-handler handles)', () => {
  const STAFF = { ...world.users[0], role: 'pr_staff', department: 'ENG' };
  const vsWorld = { users: [STAFF], vs_categories: [], vs_tickets: [{ id: 'VS-1001', submitter_id: null, submitter_label: 's', target_dept: 'ENG', status: 'open', category: null, is_public: false, public_title: null, duplicate_of: null, tags: [], remarks: [], public_comments: [], report: 'r', deleted_at: null }] };
  const base = { roles: ['user', 'pr_staff', 'vs_staff'], staffRoles: ['pr_staff', 'vs_staff'], vs: { handlerRoles: ['vs_staff'] }, refusals: { codes: { 'not-found': 'P0002', 'not-authorized': '42501' } } };
  const publish = (p_id: string): ApiRequest => ({ kind: 'rpc', fn: 'vs_set_public', args: { p_id, p_public: true, p_title: 'Headline' } });
  const notFound = { kind: 'raised' as const, code: 'P0002', message: 'NOT_FOUND' };
  const notAuthorized = { kind: 'raised' as const, code: '42501', message: 'NOT_AUTHORIZED' };

  it('default: a staff member handling no VS ticket is not authorized, and a not-found fails naming the setting', () => {
    const oracle = referenceOracleWith(ModelSettingsSchema.parse(base));
    const expected = predict(oracle, vsWorld, caller, publish('VS-1001')).outcome;
    expect(compareOutcomes(expected, notAuthorized)).toBeUndefined();
    expect(compareOutcomes(expected, notFound)?.reason).toMatch(/refusals\.nonHandlerAs\.vs_set_public/);
  });

  it('not-found: the same refusal for an existing ticket and a missing one; a non-staff caller may still be refused by the staff gate, a null role fails closed', () => {
    const oracle = referenceOracleWith(ModelSettingsSchema.parse({ ...base, refusals: { ...base.refusals, nonHandlerAs: { vs_set_public: 'not-found' } } }));
    for (const id of ['VS-1001', 'VS-404']) {
      const expected = predict(oracle, vsWorld, caller, publish(id)).outcome;
      expect(compareOutcomes(expected, notFound)).toBeUndefined();
      expect(compareOutcomes(expected, notAuthorized)).toBeDefined();
    }
    const user = { ...vsWorld, users: [{ ...STAFF, role: 'user' }] };
    expect(compareOutcomes(predict(oracle, user, caller, publish('VS-1001')).outcome, notAuthorized)).toBeUndefined();
    const noRole = { ...vsWorld, users: [{ ...STAFF, role: null }] };
    expect(compareOutcomes(predict(oracle, noRole, caller, publish('VS-1001')).outcome, notFound)).toBeDefined();
  });
});
