/**
 * The claims a signed-in caller's token carries (settings.claims.appMetadataRole). Every rule's
 * callers come from generators/identities.ts; a project that mirrors users.role into
 * app_metadata.role ('users.role') has a policy reading the claim judged as one reading users.role,
 * and without the setting such a policy is flagged, the setting named in the reason.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../engine/model/caller.ts';
import type { Environment } from '../../../engine/runner/environment.ts';
import { checkCase } from '../../../engine/runner/check-case.ts';
import type { DataCase } from '../../../engine/runner/data-case.ts';
import { referenceEnvironment } from '../../../testing/reference.ts';
import { authUserRow, callerOf, tokenClaimsOf, withTokenClaims, type Person } from '../generators/identities.ts';
import { dataProperties } from '../properties.ts';
import { referenceOracleWith } from './index.ts';
import { defaultSettings, ModelSettingsSchema, type ModelSettings } from './settings.ts';
import type { Oracle } from '../../../engine/pack.ts';

const mirrored = ModelSettingsSchema.parse({ claims: { appMetadataRole: 'users.role' } });
const profile = (id: string, role: string | null) => ({ id, email: `${id.slice(0, 4)}@x.test`, role, department: null, permissions: [], managed_permissions: [] });
/** An admin whose id draws no claim (second-last digit 0), and a plain user whose id draws app_metadata.role admin (1). */
const admin: Person = { id: 'a0000000-0000-4000-8000-0000000000a5', email: 'a000@x.test', profile: profile('a0000000-0000-4000-8000-0000000000a5', 'admin') };
const plain: Person = { id: 'b0000000-0000-4000-8000-000000000015', email: 'b000@x.test', profile: profile('b0000000-0000-4000-8000-000000000015', 'user') };
const people = [admin, plain];
const world = { 'auth.users': people.map(authUserRow), users: people.map((p) => p.profile!), 'passport.profiles': people.map((p, i) => ({ user_id: p.id, display_name: null, points: i * 10 })) };
const readAll = (caller: Caller): DataCase => ({ world, steps: [{ caller, request: { kind: 'select', schema: 'passport', table: 'profiles', columns: '*', filters: [] } }] });
const roleClaim = (c: Caller) => (c.kind === 'user' ? c.appMetadata?.role : undefined);

describe('token claims', () => {
  it("every rule's signed-in callers carry the claims identities.ts gives (R01, R04, R08, R11 built theirs inline, without)", () => {
    for (const id of ['R01', 'R04', 'R08', 'R11']) {
      const property = dataProperties.find((p) => p.id === id)!;
      const callers = fc.sample(property.cases(defaultSettings), { seed: 7, numRuns: 60 }).flatMap((c) => c.steps.map((s) => s.caller));
      const users = callers.filter((c): c is Extract<Caller, { kind: 'user' }> => c.kind === 'user');
      // Besides the user_metadata every person may set for themselves (user-metadata.test.ts).
      for (const { userMetadata: _own, ...c } of users) expect(c, id).toEqual(c.isAnonymous ? { kind: 'user', id: c.id, isAnonymous: true } : { kind: 'user', id: c.id, email: c.email, ...tokenClaimsOf(c.id) });
      expect(users.some((c) => roleClaim(c) === 'admin'), `${id} draws callers whose token says admin`).toBe(true);
    }
  });

  it("'users.role': each step's token carries the caller's role as the model reads it before that step", () => {
    expect(defaultSettings.claims.appMetadataRole).toBe('untrusted');
    const demoteSelf: DataCase = {
      world,
      steps: [
        { caller: callerOf(plain), request: { kind: 'select', table: 'users', columns: ['id'], filters: [] } },
        { caller: callerOf(admin), request: { kind: 'update', table: 'users', patch: { role: 'user' }, filters: [{ column: 'id', op: 'eq', value: admin.id }], returning: 'minimal' } },
        { caller: callerOf(admin), request: { kind: 'select', table: 'users', columns: ['id'], filters: [] } },
      ],
    };
    expect(withTokenClaims(demoteSelf, referenceOracleWith(defaultSettings))).toBe(demoteSelf);
    expect(withTokenClaims(demoteSelf, referenceOracleWith(mirrored)).steps.map((s) => roleClaim(s.caller))).toEqual(['user', 'admin', 'user']);
    // No users row: no role, so no claim (the drawn admin claim is not kept).
    const noRow = { ...readAll(callerOf(plain)), world: { ...world, users: [admin.profile!] } };
    expect(withTokenClaims(noRow, referenceOracleWith(mirrored)).steps[0].caller).toEqual({ kind: 'user', id: plain.id, email: plain.email });
  });

  it("'users.role': a step's token follows the run's oracle, whose target cascades may remove the users row (no stale role)", () => {
    // A target whose users rows go with their passport profile (ON DELETE CASCADE, in model names).
    const cascading: Oracle<ModelSettings> = { ...referenceOracleWith(mirrored), foreignKeyActions: [{ table: 'users', column: 'id', references: 'passport.profiles', referencedColumn: 'user_id', onDelete: 'cascade' as const }] };
    const dropProfile: DataCase = {
      world,
      steps: [
        { caller: { kind: 'service' }, request: { kind: 'delete', schema: 'passport', table: 'profiles', filters: [{ column: 'user_id', op: 'eq', value: admin.id }], returning: 'minimal' } },
        { caller: callerOf(admin), request: { kind: 'select', table: 'users', columns: ['id'], filters: [] } },
      ],
    };
    expect(withTokenClaims(dropProfile, cascading).steps.map((s) => roleClaim(s.caller))).toEqual([undefined, undefined]);
    expect(withTokenClaims(dropProfile, referenceOracleWith(mirrored)).steps.map((s) => roleClaim(s.caller))).toEqual([undefined, 'admin']);
    // A property's cases predict with the run's oracle when given one (its ON DELETE actions read).
    const R19 = dataProperties.find((p) => p.id === 'R19')!;
    const read = new Set<PropertyKey>();
    const watched = new Proxy(cascading, { get: (o, key) => (read.add(key), Reflect.get(o, key)) });
    fc.sample(R19.cases(mirrored, watched), { seed: 5, numRuns: 10 });
    expect(read.has('foreignKeyActions')).toBe(true);
  });

  describe('a policy reading app_metadata.role', () => {
    let env: Environment;
    beforeAll(async () => {
      const sql = `drop policy profiles_owner_or_admin_read on passport.profiles;
create policy profiles_owner_or_claimed_admin_read on passport.profiles for select to authenticated
  using (user_id = auth.uid() or (auth.jwt() -> 'app_metadata' ->> 'role') in ('admin', 'dev'));`;
      env = await referenceEnvironment({ extra: [{ name: '9990_profiles_by_role_claim.sql', path: '9990_profiles_by_role_claim.sql', sql }] });
    });
    afterAll(() => env?.close());

    const check = async (testCase: DataCase, settings = defaultSettings) => {
      const verdict = await checkCase(env.workers[0].tx, testCase, referenceOracleWith(settings));
      await env.workers[0].tx.end();
      return verdict.mismatch;
    };

    it("holds under 'users.role' (the claim is users.role), R19's own cases included", async () => {
      for (const p of people) expect((await check(withTokenClaims(readAll(callerOf(p)), referenceOracleWith(mirrored)), mirrored))?.reason).toBeUndefined();
      const r19 = dataProperties.find((p) => p.id === 'R19')!;
      for (const c of fc.sample(r19.cases(mirrored), { seed: 3, numRuns: 25 })) expect((await check(c, mirrored))?.reason).toBeUndefined();
    });

    it("is flagged under 'untrusted', naming the setting: an admin without the claim is refused, a user whose token says admin reads all", async () => {
      const refused = await check(readAll(callerOf(admin)));
      expect(refused?.reason).toMatch(/rows touched: model 2, database 1 \(token app_metadata.role absent: setting claims.appMetadataRole = "untrusted"/);
      const leaked = await check(readAll(callerOf(plain)));
      expect(leaked?.reason).toContain('token app_metadata.role "admin": setting claims.appMetadataRole = "untrusted"');
    });
  });
});
