/**
 * user_metadata: what a signed-in user sets for themselves (auth.updateUser({ data }), sign-up
 * options.data), carried in their token and in auth.users.raw_user_meta_data. About one person in
 * four sets the role the model trusts in app_metadata to an admin's (identities.ts
 * adversarialUserMetadata); the model trusts none of it, so a policy or function that does
 * (Supabase's lint 0015 rls_references_user_metadata) is a finding naming user_metadata, and the
 * reference, which reads no user_metadata, holds on the same cases.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../engine/model/caller.ts';
import type { Environment } from '../../../engine/runner/environment.ts';
import { checkCase } from '../../../engine/runner/check-case.ts';
import type { DataCase } from '../../../engine/runner/data-case.ts';
import { referenceEnvironment } from '../../../testing/reference.ts';
import { adversarialUserMetadata } from '../generators/identities.ts';
import { dataProperties } from '../properties.ts';
import { referenceOracleWith } from './index.ts';
import { defaultSettings, ModelSettingsSchema } from './settings.ts';

const R19 = dataProperties.find((p) => p.id === 'R19')!;
/** R19's own cases: people of any role reading passport.profiles or the user_tiers view. */
const r19Cases = fc.sample(R19.cases(defaultSettings), { seed: 1, numRuns: 60 });

describe('user_metadata in the cases', () => {
  it("every rule's signed-in callers carry the user_metadata their id decides, and their auth.users row the same raw_user_meta_data", () => {
    for (const property of dataProperties) {
      const cases = fc.sample(property.cases(defaultSettings), { seed: 7, numRuns: 30 });
      const users = cases.flatMap((c) => c.steps.map((s) => s.caller)).filter((c): c is Extract<Caller, { kind: 'user' }> => c.kind === 'user');
      for (const c of users) expect(c.userMetadata, property.id).toEqual(adversarialUserMetadata(c.id, defaultSettings));
      for (const row of cases.flatMap((c) => c.world['auth.users'] ?? [])) expect(row.raw_user_meta_data, property.id).toEqual(adversarialUserMetadata(String(row.id), defaultSettings));
    }
    const callers = dataProperties.flatMap((p) => fc.sample(p.cases(defaultSettings), { seed: 1, numRuns: 30 }).flatMap((c) => c.steps.map((s) => s.caller)));
    const set = callers.filter((c) => c.kind === 'user' && c.userMetadata).map((c) => (c.kind === 'user' ? c.userMetadata?.role : undefined));
    expect(new Set(set)).toEqual(new Set(defaultSettings.adminRoles));
  });

  it("a privileged role of the settings' own words, and none where no role is an admin's", () => {
    const renamed = ModelSettingsSchema.parse({ roles: ['member', 'owner'], staffRoles: ['owner'], adminRoles: ['owner'] });
    expect(adversarialUserMetadata('a0000000-0000-4000-8000-000000000100', renamed)).toEqual({ role: 'owner' });
    expect(adversarialUserMetadata('a0000000-0000-4000-8000-000000000500', renamed)).toBeUndefined();
  });

  it('the same seed, the same user_metadata', () => {
    expect(JSON.stringify(fc.sample(R19.cases(defaultSettings), { seed: 1, numRuns: 60 }))).toBe(JSON.stringify(r19Cases));
  });
});

describe('a policy or function trusting user_metadata, on Postgres', () => {
  const envs: Record<string, Environment> = {};
  const variants = {
    reference: '',
    // The R19-profiles-admin-by-user-metadata-claim mutant's policy, as a project writes it.
    'auth.jwt() user_metadata': `drop policy profiles_owner_or_admin_read on passport.profiles;
create policy profiles_owner_or_metadata_admin_read on passport.profiles for select to authenticated
  using (user_id = auth.uid() or public.current_user_is_admin() or (auth.jwt() -> 'user_metadata' ->> 'role') in ('admin', 'dev'));`,
    // A definer helper reading the role the user stored at sign-up (R19-user-metadata-read-by-admin-helper).
    'auth.users.raw_user_meta_data': `create or replace function public.current_user_is_admin() returns boolean
language sql stable security definer set search_path = ''
as $$ select coalesce(public.current_user_role() in ('admin', 'dev'), false)
  or coalesce((select u.raw_user_meta_data ->> 'role' from auth.users u where u.id = auth.uid()) in ('admin', 'dev'), false) $$;`,
    // R19-profiles-readable-by-all-signed-in: a leak that reads no user_metadata.
    'readable by all signed in': `drop policy profiles_owner_or_admin_read on passport.profiles;
create policy profiles_read on passport.profiles for select to authenticated using (auth.uid() is not null);`,
  };
  beforeAll(async () => {
    for (const [name, sql] of Object.entries(variants)) envs[name] = await referenceEnvironment(sql ? { extra: [{ name: '9990_user_metadata.sql', path: '9990_user_metadata.sql', sql }] } : {});
  });
  afterAll(async () => {
    for (const env of Object.values(envs)) await env.close();
  });

  const reasons = async (env: Environment, cases: DataCase[], withMetadata?: string[]) => {
    const out: string[] = [];
    for (const c of cases) {
      const verdict = await checkCase(env.workers[0].tx, c, referenceOracleWith(defaultSettings));
      await env.workers[0].tx.end();
      if (verdict.mismatch) out.push(verdict.mismatch.reason);
      const caller = verdict.mismatch?.request.caller;
      if (caller?.kind === 'user' && caller.userMetadata) withMetadata?.push(verdict.mismatch!.reason);
    }
    return out;
  };

  it('the reference holds on R19\'s cases, user_metadata and all (no false alarm)', async () => {
    expect(r19Cases.some((c) => c.steps.some((s) => s.caller.kind === 'user' && s.caller.userMetadata))).toBe(true);
    expect(await reasons(envs.reference, r19Cases)).toEqual([]);
  });

  it.each(['auth.jwt() user_metadata', 'auth.users.raw_user_meta_data'])('reading the role from %s is found by R19, the finding naming user_metadata', async (variant) => {
    const found = await reasons(envs[variant], r19Cases);
    expect(found.length).toBeGreaterThan(0);
    for (const reason of found) expect(reason).toMatch(/\(token user_metadata \{"role":"(admin|dev)"\}, which the user sets for themselves: no rule may trust it\)/);
  });

  it("a leak where nothing reads user_metadata does not name the caller's (stranger 18's my_person_id finding named it: a differing metadata changes nothing there)", async () => {
    const withMetadata: string[] = [];
    expect((await reasons(envs['readable by all signed in'], r19Cases, withMetadata)).length).toBeGreaterThan(0);
    expect(withMetadata.length).toBeGreaterThan(0);
    for (const reason of withMetadata) expect(reason).not.toMatch(/user_metadata/);
  });
});
