/**
 * init on a users table keyed by its own id, linked to auth.users by another column (a legacy app
 * ported onto Supabase: stranger-app-11). Before: init mapped users.id as bigintIds only, and the
 * fixtures, writing the caller's auth id nowhere, made every rule a harness error.
 */
import { describe, expect, it } from 'vitest';
import { proposeMapping, type ModelTableFacts, type TargetTableFacts } from './propose.ts';
import { authIdentityColumnOf } from './auth-identity.ts';

const modelUsers: ModelTableFacts = {
  name: 'users',
  columns: [
    { name: 'id', type: 'uuid', primaryKey: true },
    { name: 'email', type: 'text' },
    { name: 'role', type: 'text', vocabulary: true },
  ],
};
const legacyUsers: TargetTableFacts = {
  name: 'users',
  anonCanSelect: false,
  columns: [
    { name: 'id', type: 'bigint', primaryKey: true, notNull: true, defaultExpr: "nextval('users_id_seq'::regclass)" },
    { name: 'auth_user_id', type: 'uuid', references: { table: 'auth.users', column: 'id' } },
    { name: 'email', type: 'character varying', notNull: true },
    { name: 'role', type: 'text', vocabulary: ['user', 'staff'] },
  ],
};
const profiles: TargetTableFacts = {
  name: 'users',
  anonCanSelect: false,
  columns: [
    { name: 'id', type: 'uuid', primaryKey: true, references: { table: 'auth.users', column: 'id' } },
    { name: 'email', type: 'text' },
    { name: 'role', type: 'text', vocabulary: ['user', 'staff'] },
  ],
};

describe('a users table keyed by its own id with its auth identity in another column', () => {
  it('is mapped with authIdentity naming that column, beside the key kept as bigintIds', () => {
    const { mapping, notes } = proposeMapping({ tables: [modelUsers], functions: [] }, { tables: [legacyUsers], functions: [] });
    expect(mapping.tables?.users).toMatchObject({ bigintIds: ['id'], authIdentity: 'auth_user_id' });
    expect(notes.some((n) => n.includes('authIdentity = "auth_user_id"'))).toBe(true);
  });

  it('a users table keyed by the auth id itself (Supabase profiles) has none', () => {
    const { mapping } = proposeMapping({ tables: [modelUsers], functions: [] }, { tables: [profiles], functions: [] });
    expect(mapping.tables?.users?.authIdentity).toBeUndefined();
    expect(authIdentityColumnOf(profiles)).toBeUndefined();
  });

  it('two columns referencing auth.users (an owner and an editor) name no identity: ambiguous', () => {
    const two = { columns: [...legacyUsers.columns, { name: 'invited_by', type: 'uuid', references: { table: 'auth.users', column: 'id' } }] };
    expect(authIdentityColumnOf(two)).toBeUndefined();
  });
});
