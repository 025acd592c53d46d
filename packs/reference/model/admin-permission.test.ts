/**
 * Who is an admin where the spec names a `master` permission without saying what it grants:
 * stranger-app-19's `private.is_admin()` is `role = 'admin' or has_permission('master')`, and a
 * `user` holding `master` read every passport profile and called the leaderboard, a FAIL (R19,
 * R20) where the model's admins were roles only. settings.adminPermission states it.
 */
import { describe, expect, it } from 'vitest';
import { predict } from '../../../engine/model/predict.ts';
import type { World } from '../../../engine/model/world.ts';
import { referenceOracleWith } from './index.ts';
import { defaultSettings, ModelSettingsSchema } from './settings.ts';

const MASTER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const NO_ROLE = '33333333-3333-4333-8333-333333333333';
const world: World = {
  users: [
    { id: MASTER, role: 'user', permissions: [], managed_permissions: ['master'] },
    { id: OTHER, role: 'user', permissions: [], managed_permissions: [] },
    { id: NO_ROLE, role: null, permissions: ['master'], managed_permissions: [] },
  ],
  'passport.profiles': [
    { user_id: MASTER, display_name: 'M', points: 1 },
    { user_id: OTHER, display_name: 'O', points: 2 },
  ],
};
const readProfiles = { kind: 'select' as const, schema: 'passport', table: 'profiles', columns: '*' as const, filters: [] };
const rowsRead = (settings: typeof defaultSettings, id: string) => {
  const o = predict(referenceOracleWith(settings), world, { kind: 'user', id }, readProfiles).outcome;
  return o.kind === 'allowed' ? (o.rows?.length ?? 0) : o.kind === 'filtered' ? 0 : o.kind;
};

describe('an admin by permission (settings.adminPermission)', () => {
  it('by default a holder of master with the role user is no admin: their own profile only', () => {
    expect(rowsRead(defaultSettings, MASTER)).toBe(1);
  });

  it('with adminPermission master the holder is one (every profile); a null role is still no one (rule 8), and a caller without it is not', () => {
    const settings = ModelSettingsSchema.parse({ adminPermission: 'master' });
    expect(rowsRead(settings, MASTER)).toBe(2);
    expect(rowsRead(settings, OTHER)).toBe(1);
    expect(rowsRead(settings, NO_ROLE)).toBe(0);
  });
});
