/**
 * A refusal reading only the call's own arguments, answered before NOT_AUTHORIZED or a ticket not
 * found: stranger-app-13's `merge_vs_tickets` refuses the same id twice (22023) and
 * `vs_transfer_dept` a null destination before it asks who calls, where the model refuses a
 * non-handler first (R07, R08, R09, R12 failed). Such a refusal tells nothing of any row and
 * changes none: the named secure reading `vs.refusal-order-open`. A refusal that needs a row
 * (another ticket's) stays a finding, and a handler's merge that goes through is never refused so.
 */
import { describe, expect, it } from 'vitest';
import { compareOutcomes } from '../../../engine/checker/compare.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import type { Outcome } from '../../../engine/model/outcome.ts';
import { predict } from '../../../engine/model/predict.ts';
import { acceptedBy } from '../../../engine/runner/check-case.ts';
import { REFUSAL_ORDER_OPEN } from './functions/vs.ts';
import { referenceOracleWith } from './index.ts';
import { ModelSettingsSchema } from './settings.ts';

const ME = '5a5a5a5a-5a5a-4a5a-8a5a-5a5a5a5a5a5a';
const caller = { kind: 'user' as const, id: ME, email: 'me@x' };
const oracle = referenceOracleWith(
  ModelSettingsSchema.parse({
    roles: ['user', 'vs_staff'],
    staffRoles: ['vs_staff'],
    adminRoles: [],
    vs: { handlerRoles: ['vs_staff'] },
    // stranger-app-13's codes: NOT_AUTHORIZED 42501, argument errors 22023, not found P0002.
    refusals: { codes: { 'not-authorized': '42501', 'self-merge': '22023', 'destination-required': '22023', 'argument-required': '22023', 'not-found': 'P0002' } },
  }),
);
const ticket = (id: string) => ({ id, submitter_id: null, submitter_label: 'Student 1', target_dept: 'ENG', status: 'open', category: null, is_public: false, public_title: null, duplicate_of: null, tags: [], remarks: [], public_comments: [], report: 'The connection fails', deleted_at: null });
const world = (role: string | null) => ({
  users: role === null ? [] : [{ id: ME, email: 'me@x', display_name: null, avatar_url: null, phone: null, role, department: 'ENG', permissions: [], managed_permissions: [] }],
  vs_tickets: [ticket('VS-1001'), ticket('VS-1002')],
});
const rpc = (fn: string, args: Record<string, unknown>) => ({ kind: 'rpc', fn, args }) as ApiRequest;
const argumentError = { kind: 'raised' as const, code: '22023', message: 'cannot merge a ticket into itself' };
const verdict = (role: string | null, request: ApiRequest, observed: Outcome) => {
  const predicted = predict(oracle, world(role), caller, request).outcome;
  return { differs: compareOutcomes(predicted, observed) !== undefined, reading: acceptedBy({ predicted, observed, masked: [], hints: {} }) };
};

describe('an argument-only refusal before NOT_AUTHORIZED or a ticket not found', () => {
  it("a non-handler's self-merge: NOT_AUTHORIZED (the model) or the argument's refusal, named", () => {
    const self = rpc('merge_vs_tickets', { p_duplicate: 'VS-1001', p_primary: 'VS-1001' });
    for (const role of ['user', null]) {
      expect(verdict(role, self, { kind: 'raised', code: '42501', message: 'NOT_AUTHORIZED' })).toEqual({ differs: false, reading: undefined });
      expect(verdict(role, self, argumentError), String(role)).toEqual({ differs: false, reading: { reading: REFUSAL_ORDER_OPEN } });
    }
  });

  it("a handler's self-merge of a ticket not found: not found (the model) or the argument's refusal", () => {
    expect(verdict('vs_staff', rpc('merge_vs_tickets', { p_duplicate: 'VS-404', p_primary: 'VS-404' }), argumentError)).toEqual({ differs: false, reading: { reading: REFUSAL_ORDER_OPEN } });
  });

  it('not for two different ids, nor for a merge the model lets through', () => {
    expect(verdict('user', rpc('merge_vs_tickets', { p_duplicate: 'VS-1001', p_primary: 'VS-1002' }), argumentError).differs).toBe(true);
    expect(verdict('user', rpc('merge_vs_tickets', { p_duplicate: null, p_primary: null }), argumentError).differs).toBe(true);
    expect(verdict('vs_staff', rpc('merge_vs_tickets', { p_duplicate: 'VS-1001', p_primary: 'VS-1002' }), argumentError).differs).toBe(true);
  });

  it("a non-handler's transfer to a blank destination or with a p_remarks no array: NOT_AUTHORIZED or that refusal; with good arguments only NOT_AUTHORIZED", () => {
    const refusedArgument = { kind: 'raised' as const, code: '22023', message: 'destination required' };
    for (const args of [{ p_dept: null, p_remarks: [] }, { p_dept: ' ', p_remarks: [] }, { p_dept: 'ART', p_remarks: {} }]) {
      expect(verdict('user', rpc('vs_transfer_dept', { p_id: 'VS-1001', ...args }), refusedArgument), JSON.stringify(args)).toEqual({ differs: false, reading: { reading: REFUSAL_ORDER_OPEN } });
    }
    expect(verdict('user', rpc('vs_transfer_dept', { p_id: 'VS-1001', p_dept: 'ART', p_remarks: [] }), refusedArgument).differs).toBe(true);
  });
});
