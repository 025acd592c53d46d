/**
 * Rule 4's buyer window, enforced by the UPDATE policy (the reference: left undone outside it,
 * 42501 for a new status outside it) or by a trigger raising (a stranger's schema): both secure,
 * both agree. A change that shows or makes a change still disagrees, and so does another error.
 */
import { describe, expect, it } from 'vitest';
import { compareOutcomes } from '../../../engine/checker/compare.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import { predict } from '../../../engine/model/predict.ts';
import { referenceOracleWith } from './index.ts';
import { ModelSettingsSchema } from './settings.ts';

const BUYER = '3e3e3e3e-3e3e-4e3e-8e3e-3e3e3e3e3e3e';
const ORDER = '4f4f4f4f-4f4f-4f4f-8f4f-4f4f4f4f4f4f';
const oracle = referenceOracleWith(ModelSettingsSchema.parse({}));
const caller = { kind: 'user' as const, id: BUYER, email: 'b@x' };
const order = (status: string) => ({ id: ORDER, buyer_id: BUYER, status, subtotal: 1, fee: 1, discount: 0, total: 2, admin_note: null, timeline: [], payment_slips: [], shipping_name: null, shipping_phone: null, shipping_address: null, buyer_note: null });
const world = (status: string) => ({ users: [{ id: BUYER, email: 'b@x', role: 'user', department: null, permissions: [], managed_permissions: [] }], shop_orders: [order(status)] });
const patch = (body: Record<string, string>): ApiRequest => ({ kind: 'update', table: 'shop_orders', patch: body, filters: [{ column: 'id', op: 'eq', value: ORDER }], returning: 'representation' });
const trigger = { kind: 'raised' as const, code: 'P0001', message: 'order is locked' };

describe('rule 4: the buyer window by policy or by trigger', () => {
  it('the buyer’s own shipped order: left undone, or refused by a trigger', () => {
    const expected = predict(oracle, world('shipped'), caller, patch({ shipping_address: 'x' })).outcome;
    expect(expected).toMatchObject({ kind: 'filtered' });
    expect(compareOutcomes(expected, { kind: 'filtered', rows: [], affected: 0 })).toBeUndefined();
    expect(compareOutcomes(expected, trigger)).toBeUndefined();
    expect(compareOutcomes(expected, { kind: 'allowed', rows: [{ ...order('shipped'), shipping_address: 'x' }], affected: 1 })).toBeDefined();
    expect(compareOutcomes(expected, { kind: 'error', code: '23514' })).toBeDefined();
  });

  it('as a single object (406 for no row): the trigger’s refusal stays an alternative', () => {
    const expected = predict(oracle, world('shipped'), caller, { ...patch({ shipping_address: 'x' }), single: true } as ApiRequest).outcome;
    expect(expected).toMatchObject({ kind: 'error', code: 'PGRST116' });
    expect(compareOutcomes(expected, trigger)).toBeUndefined();
  });

  it('a new status out of the window (paid): 42501 by the policy, or a trigger’s refusal', () => {
    const expected = predict(oracle, world('pending'), caller, patch({ status: 'paid' })).outcome;
    expect(expected).toMatchObject({ kind: 'rejected', by: 'policy' });
    expect(compareOutcomes(expected, trigger)).toBeUndefined();
  });

  it('inside the window nothing changes: the buyer’s edit must go through', () => {
    const expected = predict(oracle, world('pending'), caller, patch({ shipping_address: 'x' })).outcome;
    expect(expected).toMatchObject({ kind: 'allowed', affected: 1 });
    expect(compareOutcomes(expected, trigger)).toBeDefined();
  });

  it('someone else’s order stays left undone only (no trigger of the buyer’s runs for them)', () => {
    const other = { kind: 'user' as const, id: '5a5a5a5a-5a5a-4a5a-8a5a-5a5a5a5a5a5a', email: 'o@x' };
    const w = { ...world('shipped'), users: [...world('shipped').users, { id: other.id, email: 'o@x', role: 'user', department: null, permissions: [], managed_permissions: [] }] };
    const expected = predict(oracle, w, other, patch({ shipping_address: 'x' })).outcome;
    expect(compareOutcomes(expected, trigger)).toBeDefined();
  });
});

describe('model.shop.handlerPermission: whether a permission makes a shop handler', () => {
  const houseHolder = (status: string) => ({ ...world(status), users: [{ id: BUYER, email: 'b@x', role: 'vs_staff', department: null, permissions: ['house'], managed_permissions: [] }] });
  it('by default the house permission makes its holder a handler, out of the window too', () => {
    expect(predict(oracle, houseHolder('cancelled'), caller, patch({ shipping_address: 'x' })).outcome).toMatchObject({ kind: 'allowed', affected: 1 });
  });
  it('null: no permission does (a schema whose shop helper reads the role only), so the window holds', () => {
    const roleOnly = referenceOracleWith(ModelSettingsSchema.parse({ shop: { handlerPermission: null } }));
    expect(predict(roleOnly, houseHolder('cancelled'), caller, patch({ shipping_address: 'x' })).outcome).toMatchObject({ kind: 'filtered' });
  });
});
