/** The engine's view support (TableModel.view), on passport.user_tiers: rows computed from the world, base rules applied. */
import { describe, expect, it } from 'vitest';
import { predict } from '../predict.ts';
import { defaultSettings } from '../settings.ts';

const A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const world = {
  'auth.users': [{ id: A, email: 'a@x' }, { id: B, email: 'b@x' }],
  users: [{ id: B, email: 'b@x', role: 'admin', permissions: [], managed_permissions: [] }],
  'passport.profiles': [{ user_id: A, display_name: null, points: 300 }, { user_id: B, display_name: 'B', points: 1000 }],
};
const read = { kind: 'select' as const, schema: 'passport', table: 'user_tiers', columns: '*' as const, filters: [] };

describe('passport.user_tiers (a view)', () => {
  it('an owner reads only their own tier row, computed from the profile', () => {
    expect(predict(world, { kind: 'user', id: A }, read, defaultSettings).outcome).toEqual({ kind: 'allowed', rows: [{ user_id: A, points: 300, tier: 'silver' }], affected: 1 });
  });
  it('an admin reads every row; anon holds no grant', () => {
    const admin = predict(world, { kind: 'user', id: B }, read, defaultSettings).outcome;
    expect(admin.kind === 'allowed' && admin.rows?.map((r) => r.tier)).toEqual(['silver', 'gold']);
    expect(predict(world, { kind: 'anon' }, read, defaultSettings).outcome).toMatchObject({ kind: 'rejected', by: 'grant' });
  });
});
