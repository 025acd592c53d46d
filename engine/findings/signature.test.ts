/** Signatures: one per kind of disagreement, stable across cases of one bug, different across bugs. */
import { describe, expect, it } from 'vitest';
import { allowed, filtered, raised, rejectedByPolicy, sqlError } from '../model/outcome.ts';
import type { StepMismatch } from '../runner/check-case.ts';
import type { ApiRequest } from '../model/request.ts';
import { clauseText, disagreementKind, signatureOf } from './signature.ts';

const patch: ApiRequest = { kind: 'update', table: 'shop_orders', patch: { total: 0 }, filters: [], returning: 'representation' };
const mismatch = (expected: StepMismatch['expected'], actual: StepMismatch['actual'], id = '11111111-1111-4111-8111-111111111111'): Pick<StepMismatch, 'request' | 'expected' | 'actual'> => ({
  request: { caller: { kind: 'user', id }, request: patch },
  expected,
  actual,
});

describe('finding signatures', () => {
  it('name the kind of disagreement, database against model', () => {
    expect(disagreementKind(raised('P0001', 'x'), allowed([{ id: 1 }], 1))).toBe('allowed-not-refused(P0001)');
    expect(disagreementKind(rejectedByPolicy(), allowed([], 0))).toBe('silent-not-refused(42501/policy)');
    expect(disagreementKind(allowed(null, 1), sqlError('23502'))).toBe('refused-not-allowed(23502)');
    expect(disagreementKind(filtered([]), allowed([{ id: 1 }], 1))).toBe('visible-not-filtered');
    expect(disagreementKind(allowed([{ id: 1 }], 1), allowed([], 0))).toBe('filtered-not-visible');
    expect(disagreementKind(allowed([{ id: 1 }], 1), allowed([{ id: 2 }], 1))).toBe('wrong-columns');
    expect(disagreementKind(raised('P0001'), sqlError('23502'))).toBe('wrong-error(P0001→23502)');
  });

  it('are the same for two cases of one bug (other ids, other columns) and differ for an escalation and a NOT NULL error', () => {
    const a = signatureOf('R04', mismatch(raised('P0001', 'shop_orders: fee', undefined, 'owner guard of shop_orders'), allowed([{}], 1)));
    const b = signatureOf('R04', mismatch(raised('P0001', 'shop_orders: total, fee', undefined, 'owner guard of shop_orders'), allowed([{}], 1), '22222222-2222-4222-8222-222222222222'));
    expect(a).toBe('R04 | PATCH shop_orders | signed-in | allowed-not-refused(P0001) | owner guard of shop_orders');
    expect(b).toBe(a);
    const notNull = signatureOf('R04', mismatch(raised('P0001', 'shop_orders: fee', undefined, 'owner guard of shop_orders'), sqlError('23502', 'null value in column "fee"')));
    expect(notNull).not.toBe(a);
    expect(signatureOf('R04', { ...mismatch(rejectedByPolicy(), allowed([{}], 1)), request: { caller: { kind: 'anon' }, request: patch } })).toBe('R04 | PATCH shop_orders | anon | allowed-not-refused(42501/policy)');
  });

  it('of a step sent as SQL say so, as the failure\'s first line does (no REST method)', () => {
    const viaSql = { ...mismatch(rejectedByPolicy(), allowed([{}], 1)), request: { caller: { kind: 'anon' as const }, request: { ...patch, schema: 'teamkit', table: 'teams' } }, sentAs: 'sql' as const };
    expect(signatureOf('R04', viaSql)).toBe('R04 | as SQL: UPDATE teamkit.teams | anon | allowed-not-refused(42501/policy)');
    expect(signatureOf('R04', { ...viaSql, sentAs: undefined })).toBe('R04 | PATCH teamkit.teams | anon | allowed-not-refused(42501/policy)');
  });

  it('take ids, e-mails and numbers out of clause words', () => {
    expect(clauseText('ticket 3f2b1c4d-1111-4111-8111-111111111111 of a@b.org has 12 remarks')).toBe('ticket <id> of <email> has N remarks');
  });
});
