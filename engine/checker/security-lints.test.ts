/**
 * Each security lint trips on the object it exists for (one per lint, added to the reference)
 * and says what is wrong with it; the clean reference trips none (the examples: their own tests).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../runner/environment.ts';
import { runCatalogProperty } from '../runner/catalog-property.ts';
import { SECURITY_LINTS } from '../runner/security-lints-property.ts';
import { referenceEnvironment } from '../../testing/reference.ts';
import { referenceModel } from '../../packs/reference/model/index.ts';
import { rankFindings, readLintFindings, type LintFinding } from './security-lints.ts';

const EXPOSED = ['public', 'passport'];

const tripsEveryLint = {
  name: 'lints.sql',
  path: 'lints.sql',
  sql: `
    create view public.lint_definer_view as select id, brief from public.pr_tickets;
    grant select on public.lint_definer_view to authenticated;
    create view public.lint_invoker_view with (security_invoker = on) as select id, brief from public.pr_tickets;
    grant select on public.lint_invoker_view to authenticated;
    create materialized view public.lint_accounts as select id, email from auth.users;
    grant select on public.lint_accounts to anon;
    -- After supabase-comments-extension's sce_display_users: names and avatars out of the metadata, no e-mail.
    create view public.lint_display_users as select id, raw_user_meta_data ->> 'name' as name from auth.users;
    grant select on public.lint_display_users to anon;
    create table public.lint_open (id int primary key);
    revoke all on public.lint_open from anon, authenticated;
    grant select, insert on public.lint_open to anon;
    create table private.lint_policy_off (id int primary key);
    create policy lint_never on private.lint_policy_off using (false);
    create table public.lint_rls (id int primary key, owner uuid);
    alter table public.lint_rls enable row level security;
    revoke all on public.lint_rls from anon;
    create policy lint_metadata on public.lint_rls for select to authenticated using ((auth.jwt() -> 'user_metadata' ->> 'role') = 'admin');
    create function private.lint_is_admin() returns boolean language sql stable security definer set search_path = '' as
      $$ select coalesce((select u.raw_user_meta_data ->> 'role' = 'admin' from auth.users u where u.id = auth.uid()), false) $$;
    create policy lint_metadata_helper on public.lint_rls for delete to authenticated using (private.lint_is_admin());
    create policy lint_true on public.lint_rls for update to authenticated using (true);
    create policy "Anyone may insert." on public.lint_rls for insert to authenticated with check (true);
    create function private.lint_definer_no_path() returns int language sql security definer as 'select 1';
  `,
};

let clean: Environment;
let broken: Environment;
beforeAll(async () => {
  [clean, broken] = await Promise.all([referenceEnvironment(), referenceEnvironment({ extra: [tripsEveryLint] })]);
});
afterAll(async () => {
  await clean?.close();
  await broken?.close();
});

describe('security lints', () => {
  it('the clean reference trips none, and the property passes having looked at its objects', async () => {
    expect(await readLintFindings(clean.workers[0].client, EXPOSED)).toEqual([]);
    const r = await runCatalogProperty(clean, SECURITY_LINTS, { seed: 1, model: referenceModel, settings: {} });
    expect(r.status).toBe('passed');
    expect(r.cases).toBeGreaterThan(50);
  });

  it('each lint names its object and what is wrong with it; an invoker view is not a finding', async () => {
    const found = await readLintFindings(broken.workers[0].client, EXPOSED);
    const by = (lint: string) => found.filter((f) => f.lint === lint).map((f) => f.object);
    expect(by('security_definer_view')).toEqual(['public.lint_definer_view', 'public.lint_display_users']);
    expect(found.find((f) => f.lint === 'security_definer_view')!.problem).toMatch(/reads public\.pr_tickets, whose rows row-level security narrows: it shows anon and authenticated every row/);
    expect(by('auth_users_exposed')).toEqual(['public.lint_accounts', 'public.lint_display_users']);
    // What it says is readable is what the view reads of auth.users, not every e-mail.
    const exposed = (object: string) => found.find((f) => f.lint === 'auth_users_exposed' && f.object === object)!.problem;
    expect(exposed('public.lint_display_users')).toBe(
      'view without security_invoker reads auth.users (id, raw_user_meta_data) and anon and authenticated may select it: what it shows of those columns of every account is readable through the API',
    );
    expect(exposed('public.lint_accounts')).toMatch(/^materialized view reads auth\.users \(id, email\) and anon and authenticated may select it/);
    expect(by('materialized_view_in_api')).toEqual(['public.lint_accounts']);
    expect(by('rls_disabled_in_public')).toEqual(['public.lint_open']);
    expect(found.find((f) => f.lint === 'rls_disabled_in_public')!.problem).toMatch(/row-level security off: anon \(SELECT, INSERT\) reach every row of it/);
    expect(by('policy_exists_rls_disabled')).toEqual(['private.lint_policy_off']);
    expect(by('rls_references_user_metadata')).toEqual(['policy lint_metadata on public.lint_rls', 'policy lint_metadata_helper on public.lint_rls']);
    expect(found.find((f) => f.object === 'policy lint_metadata_helper on public.lint_rls')!.problem).toMatch(/through private\.lint_is_admin\(\)/);
    // A name that is no plain identifier is quoted, as Postgres prints it (kahoot-alternative's "Participants can insert their own answers").
    expect(by('rls_policy_always_true').sort()).toEqual(['policy "Anyone may insert." on public.lint_rls', 'policy lint_true on public.lint_rls']);
    expect(by('function_search_path_mutable')).toEqual(['private.lint_definer_no_path()']);
    expect(found.every((f) => f.fix.length > 10)).toBe(true);
    // Ranked: every ERROR before the first WARN.
    expect(found.map((f) => f.level)).toEqual([...found.map((f) => f.level)].sort());
  });

  it('the property fails with one line per finding, ranked, and the findings as data', async () => {
    const r = await runCatalogProperty(broken, SECURITY_LINTS, { seed: 1, model: referenceModel, settings: {} });
    expect(r.status).toBe('failed');
    const lines = r.failure!.message.split('\n').slice(1).map((l) => l.trim());
    expect(lines[0]).toMatch(/^ERROR auth_users_exposed: public\.lint_accounts: .*\. Fix: revoke select on public\.lint_accounts from anon/);
    expect(lines.at(-1)).toMatch(/^WARN /);
    expect((r.failure!.counterexample as LintFinding[]).length).toBe(lines.length);
  });
});

describe('rankFindings', () => {
  it('orders by level, then lint, then object', () => {
    const f = (level: 'ERROR' | 'WARN', lint: string, object: string): LintFinding => ({ level, lint, object, problem: '', fix: '', defined: { kind: 'relation', name: object } });
    expect(rankFindings([f('WARN', 'a', 'x'), f('ERROR', 'b', 'y'), f('ERROR', 'b', 'a'), f('ERROR', 'a', 'z')]).map((x) => `${x.lint}:${x.object}`)).toEqual(['a:z', 'b:a', 'b:y', 'a:x']);
  });
});
