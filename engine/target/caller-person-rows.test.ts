/**
 * A person row made for a case's caller (fixtures.ts withIdentityRows): a caller the world gives
 * no users row, whose own row elsewhere references the users table (stranger-app-15's
 * `passport."Profile"."userId" references "User"`), gets the users row the target needs, in the
 * model's world too, so the case is held, not dropped. Re-created under other names: a catalog
 * whose profiles reference the users table, and whose users.role has a privileged default.
 *
 * Not for a caller whose token the pack minted from the world as drawn (`claims.appMetadataRole:
 * users.role`): the made row would give them, in the model's world, the role's default, which
 * their token (no users row, so no role claim) does not carry; a policy reading the claim then
 * disagreed with the model, a false alarm (session 23). Such a case stays dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../runner/environment.ts';
import { checkCase, prepareCase } from '../runner/check-case.ts';
import type { DataCase } from '../runner/data-case.ts';
import { referenceEnvironment } from '../../testing/reference.ts';
import { referenceOracleWith } from '../../packs/reference/model/index.ts';
import { defaultSettings, ModelSettingsSchema } from '../../packs/reference/model/settings.ts';
import { authUserRow, callerOf, withTokenClaims, type Person } from '../../packs/reference/generators/identities.ts';

// Profiles keyed by the app's users table (not auth.users), a role defaulting to a staff role,
// and the profiles' read policy trusting the token's role claim (as a users.role mirror does).
const SQL = `
alter table passport.profiles drop constraint profiles_user_id_fkey;
alter table passport.profiles add constraint profiles_user_id_fkey foreign key (user_id) references public.users (id) on delete cascade;
alter table public.users alter column role set default 'dev';
drop policy profiles_owner_or_admin_read on passport.profiles;
create policy profiles_owner_or_claimed_admin_read on passport.profiles for select to authenticated
  using (user_id = auth.uid() or (auth.jwt() -> 'app_metadata' ->> 'role') in ('admin', 'dev'));
`;

const mirrored = ModelSettingsSchema.parse({ claims: { appMetadataRole: 'users.role' } });
// Ids whose second-last digit is 0: the untrusted default draws them no role claim either.
const rowless: Person = { id: 'c0000000-0000-4000-8000-0000000000c5', email: 'c000@x.test' };
const plain: Person = { id: 'd0000000-0000-4000-8000-0000000000d5', email: 'd000@x.test', profile: { id: 'd0000000-0000-4000-8000-0000000000d5', email: 'd000@x.test', role: 'user', department: null, permissions: [], managed_permissions: [] } };
const world = {
  'auth.users': [rowless, plain].map(authUserRow),
  users: [plain.profile!],
  'passport.profiles': [rowless, plain].map((p, i) => ({ user_id: p.id, display_name: null, points: i })),
};
/** The caller with no users row reads every profile. */
const readAll: DataCase = { world, steps: [{ caller: callerOf(rowless), request: { kind: 'select', schema: 'passport', table: 'profiles', columns: '*', filters: [] } }] };

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment({ workers: 1, extra: [{ name: '9992_profiles_of_users.sql', path: '9992_profiles_of_users.sql', sql: SQL }], fixtures: { users: 'direct', bypassTriggers: false } });
});
afterAll(() => env?.close());

describe("a caller with no users row whose profile references the users table", () => {
  it("under untrusted claims, is held with the users row the target needs, the model judging them by its default role", () => {
    const prepared = prepareCase(env.workers[0].tx.fixturePlan, readAll, referenceOracleWith(defaultSettings));
    expect(prepared.thrown).toBeUndefined();
    expect(prepared.testCase.world.users.map((u) => [u.id, u.role])).toEqual([[plain.id, 'user'], [rowless.id, 'dev']]);
  });

  it("under 'users.role' claims (their token minted with no role), gets no made row: dropped, not a false alarm", async () => {
    const oracle = referenceOracleWith(mirrored);
    const testCase = withTokenClaims(readAll, oracle);
    expect(testCase.steps[0].caller).toEqual({ kind: 'user', id: rowless.id, email: rowless.email });
    const prepared = prepareCase(env.workers[0].tx.fixturePlan, testCase, oracle);
    expect((prepared.thrown as Error | undefined)?.message).toContain('passport.profiles.user_id needs a users row the case lacks (foreign key)');
    // With the row made, the model read the caller as a dev and expected both profiles; the database, by their token, showed one.
    await expect(checkCase(env.workers[0].tx, testCase, oracle).finally(() => env.workers[0].tx.end())).rejects.toThrow('needs a users row the case lacks');
  });
});
