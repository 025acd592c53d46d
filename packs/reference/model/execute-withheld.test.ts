/**
 * EXECUTE withheld from a caller the function shows nothing to (EXECUTE_WITHHELD, predict.ts):
 * stranger-app-9 revokes `get_vs_linked_context` from anon, which the model lets anon call; where
 * the model's body answers anon nothing (no linked public ticket), the grant's 42501 refuses as
 * much and was a FAIL ("database answered 42501 (grant), model expected success"). Where the body
 * would show anon a row, or the refusal's text is the spec's (rule 20's NOT_AUTHORIZED), the
 * grant's refusal still disagrees.
 */
import { describe, expect, it } from 'vitest';
import { compareOutcomes } from '../../../engine/checker/compare.ts';
import { EXECUTE_WITHHELD, predict } from '../../../engine/model/predict.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import type { Outcome } from '../../../engine/model/outcome.ts';
import { acceptedBy } from '../../../engine/runner/check-case.ts';
import { referenceOracle } from './index.ts';

const anon = { kind: 'anon' as const };
const byGrant: Outcome = { kind: 'rejected', code: '42501', by: 'grant' };
const call = (fn: string, args: Record<string, string> = {}): ApiRequest => ({ kind: 'rpc', fn, args }) as ApiRequest;
const category = { id: 'wifi', name: 'wifi', is_confidential: false, public_eligible: true };
const ticket = (id: string, over: Record<string, unknown> = {}) => ({
  id, submitter_id: null, submitter_label: 'Student 1', target_dept: 'ENG', status: 'open', category: 'wifi', is_public: false, public_title: null,
  duplicate_of: null, tags: [], remarks: [], public_comments: [], report: 'r', deleted_at: null, ...over,
});
const expectedFor = (world: Record<string, unknown[]>, request: ApiRequest) => predict(referenceOracle, world as never, anon, request).outcome;

describe('EXECUTE withheld where the body shows the caller nothing', () => {
  it('get_vs_linked_context for anon with nothing linked: the grant’s refusal is accepted, named', () => {
    const world = { vs_categories: [category], vs_tickets: [ticket('VS-1')] };
    const expected = expectedFor(world, call('get_vs_linked_context', { p_id: 'VS-1' }));
    expect(expected).toMatchObject({ kind: 'allowed', rows: [] });
    expect(compareOutcomes(expected, byGrant)).toBeUndefined();
    expect(acceptedBy({ predicted: expected, observed: byGrant, masked: [], comparedAs: undefined, hints: {} })).toEqual({ reading: EXECUTE_WITHHELD });
  });

  it('get_vs_linked_context for anon linking a ticket on the public board: the grant’s refusal withholds what the board shows, a finding', () => {
    const world = { vs_categories: [category], vs_tickets: [ticket('VS-1', { duplicate_of: 'VS-2' }), ticket('VS-2', { is_public: true, public_title: 'Wifi drops' })] };
    const expected = expectedFor(world, call('get_vs_linked_context', { p_id: 'VS-1' }));
    expect(expected).toMatchObject({ kind: 'allowed', affected: 1 });
    expect(compareOutcomes(expected, byGrant)).toBeDefined();
  });

  it('passport.admin_leaderboard for anon: NOT_AUTHORIZED is the spec’s text (rule 20), so the grant’s refusal is not accepted for it', () => {
    const expected = expectedFor({}, call('passport.admin_leaderboard'));
    expect(expected).toMatchObject({ kind: 'raised', message: 'NOT_AUTHORIZED' });
    expect(compareOutcomes(expected, byGrant)).toBeDefined();
  });

  it('the server (service_role) gets no such reading', () => {
    const world = { vs_categories: [category], vs_tickets: [ticket('VS-1')] };
    const expected = predict(referenceOracle, world as never, { kind: 'service' }, call('get_vs_linked_context', { p_id: 'VS-1' })).outcome;
    expect(compareOutcomes(expected, byGrant)).toBeDefined();
  });
});
