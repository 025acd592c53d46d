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
