/**
 * settings.permissionImplies: a permission that implies others (a `master` grant opening every
 * door) is honoured by every permission test of the model, through currentUserHasPermission.
 */
import { describe, expect, it } from 'vitest';
import type { RuleContext } from '../../../engine/model/table-model.ts';
import { currentUserHasPermission } from './identity.ts';
import { ModelSettingsSchema } from './settings.ts';
import { isPrHandler } from './tables/pr-tickets.ts';
import { isShopHandler } from './tables/shop-orders.ts';

const ID = '1c1c1c1c-1c1c-4c1c-8c1c-1c1c1c1c1c1c';

function ctx(managed: string[], implies: Record<string, string[]> = {}): RuleContext {
  const settings = ModelSettingsSchema.parse({ permissionImplies: implies });
  return {
    world: { users: [{ id: ID, email: 'a@x', role: 'user', department: null, permissions: [], managed_permissions: managed }] },
    caller: { kind: 'user', id: ID, email: 'a@x' },
    uid: ID,
    settings,
  };
}

describe('permissionImplies', () => {
  it('by default a permission stands only for itself', () => {
    expect(currentUserHasPermission(ctx(['master']), 'pr')).toBe(false);
    expect(isPrHandler(ctx(['master']))).toBe(false);
    expect(currentUserHasPermission(ctx(['pr']), 'pr')).toBe(true);
  });

  it('"*" implies every permission, for every handler test alike', () => {
    const master = ctx(['master'], { master: ['*'] });
    expect([isPrHandler(master), isShopHandler(master), currentUserHasPermission(master, 'vs')]).toEqual([true, true, true]);
  });

  it('a list implies only the permissions it names, and only for who holds the implying one', () => {
    const lead = ctx(['house'], { house: ['pr'] });
    expect([currentUserHasPermission(lead, 'pr'), currentUserHasPermission(lead, 'vs')]).toEqual([true, false]);
    expect(currentUserHasPermission(ctx(['vs'], { house: ['*'] }), 'pr')).toBe(false);
  });
});
