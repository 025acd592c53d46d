/**
 * Variants derive.ts marks equivalent without running them, on hand-built catalogs: a policy for
 * a command no API role holds, a widening to anon where anon holds nothing, and row security
 * disabled on a table whose every held privilege an always-true permissive policy grants.
 */
import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogFunction, CatalogPolicy } from './catalog.ts';
import { deriveMutants } from './derive.ts';

const policy = (p: Partial<CatalogPolicy> & Pick<CatalogPolicy, 'name' | 'command'>): CatalogPolicy => ({
  schema: 'public',
  table: 't',
  roles: ['anon', 'authenticated'],
  permissive: 'PERMISSIVE',
  using: null,
  withCheck: null,
  ...p,
});

function catalog(policies: CatalogPolicy[], anon: string[], authenticated: string[]): Catalog {
  return { policies, rowSecurityTables: [{ schema: 'public', table: 't', anon, authenticated }], functions: [], views: [] };
}

const disable = (c: Catalog) => deriveMutants(c).find((m) => m.kind === 'disable-row-security')!;

describe('disable-row-security equivalence', () => {
  it('a read-only table whose SELECT policy is `true` for both API roles: equivalent', () => {
    const m = disable(catalog([policy({ name: 'read', command: 'SELECT', using: 'true' })], ['SELECT'], ['SELECT']));
    expect(m.equivalent).toMatch(/SELECT.*always true/);
  });

  it('a table the API roles hold no privilege on (a server-only schema, headless-vector-search): equivalent, and says so rather than "every privilege (none)"', () => {
    expect(disable(catalog([], [], [])).equivalent).toBe('anon and authenticated hold no privilege on public.t, so no API request reaches its rows, row security or not (service_role bypasses it)');
  });

  it('a `true` SELECT policy for authenticated only, while anon also holds SELECT: not equivalent', () => {
    const m = disable(catalog([policy({ name: 'read', command: 'SELECT', roles: ['authenticated'], using: 'true' })], ['SELECT'], ['SELECT']));
    expect(m.equivalent).toBeUndefined();
  });

  it('an INSERT grant whose policy checks something: not equivalent', () => {
    const m = disable(
      catalog([policy({ name: 'read', command: 'SELECT', using: 'true' }), policy({ name: 'ins', command: 'INSERT', roles: ['authenticated'], withCheck: 'is_actor()' })], ['SELECT'], ['SELECT', 'INSERT']),
    );
    expect(m.equivalent).toBeUndefined();
  });

  it('a FOR ALL policy `using (true)` covers every command (its USING doubles as WITH CHECK)', () => {
    const m = disable(catalog([policy({ name: 'all', command: 'ALL', roles: ['public'], using: 'true' })], ['SELECT'], ['SELECT', 'INSERT', 'UPDATE', 'DELETE']));
    expect(m.equivalent).toBeDefined();
  });

  it('an UPDATE policy `using (true) with check (owner = auth.uid())`: not equivalent', () => {
    const m = disable(
      catalog([policy({ name: 'read', command: 'SELECT', using: 'true' }), policy({ name: 'upd', command: 'UPDATE', using: 'true', withCheck: '(owner = auth.uid())' })], ['SELECT'], ['SELECT', 'UPDATE']),
    );
    expect(m.equivalent).toBeUndefined();
  });

  it('a restrictive policy on the table: not equivalent', () => {
    const m = disable(
      catalog([policy({ name: 'read', command: 'SELECT', using: 'true' }), policy({ name: 'only-live', command: 'SELECT', permissive: 'RESTRICTIVE', using: '(deleted_at IS NULL)' })], ['SELECT'], ['SELECT']),
    );
    expect(m.equivalent).toBeUndefined();
  });
});

describe('policy equivalence', () => {
  it('a DELETE policy no API role holds DELETE for, and widening an INSERT policy anon holds no INSERT on', () => {
    const ms = deriveMutants(
      catalog(
        [
          policy({ name: 'del', command: 'DELETE', roles: ['authenticated'], using: '(a AND b)' }),
          policy({ name: 'ins', command: 'INSERT', roles: ['authenticated'], withCheck: 'is_actor()' }),
        ],
        ['SELECT'],
        ['SELECT', 'INSERT'],
      ),
    );
    expect(ms.filter((m) => m.name.startsWith('drop-conjunct-t-del')).every((m) => /no API role holds DELETE/.test(m.equivalent ?? ''))).toBe(true);
    expect(ms.find((m) => m.name === 'widen-roles-t-ins')?.equivalent).toMatch(/anon holds no INSERT/);
  });

  it('widening an owner policy (`auth.uid() = col` in every clause) to anon, which holds the privilege: equivalent, anon has no uid', () => {
    const widened = (p: CatalogPolicy) => deriveMutants(catalog([p], ['SELECT', 'INSERT', 'UPDATE', 'DELETE'], ['SELECT', 'INSERT', 'UPDATE', 'DELETE'])).find((m) => m.kind === 'widen-roles')!;
    const owner = { name: 'own', command: 'ALL' as const, roles: ['authenticated'] };
    expect(widened(policy({ ...owner, using: '(auth.uid() = user_id)', withCheck: '(auth.uid() = user_id)' })).equivalent).toMatch(/auth\.uid\(\) = …/);
    expect(widened(policy({ ...owner, using: '((( SELECT auth.uid() AS uid) = owner_id) AND (archived = false))' })).equivalent).toMatch(/null for anon/);
    // A third-party auth's user id (Clerk's `sub`, text): `(select auth.jwt()->>'sub') = (user_id)::text`, as Postgres deparses it.
    expect(widened(policy({ ...owner, using: "(( SELECT (auth.jwt() ->> 'sub'::text)) = user_id)" })).equivalent).toMatch(/null for anon/);
    expect(widened(policy({ ...owner, using: "((auth.jwt() ->> 'sub'::text) = (user_id)::text)" })).equivalent).toMatch(/null for anon/);
    // "Any signed-in user" (the social starter's profile search): `auth.uid() IS NOT NULL`, false for anon too.
    expect(widened(policy({ ...owner, command: 'SELECT', using: '(auth.uid() IS NOT NULL)' })).equivalent).toMatch(/auth\.uid\(\) IS NOT NULL.*null for anon/);
    expect(widened(policy({ ...owner, command: 'SELECT', using: '(( SELECT auth.uid() AS uid) IS NOT NULL)' })).equivalent).toMatch(/null for anon/);
    // Anon passes these: the widening is a real change.
    expect(widened(policy({ ...owner, using: "((auth.jwt() ->> 'role'::text) = owner_role)" })).equivalent).toBeUndefined();
    expect(widened(policy({ ...owner, using: '((auth.uid() = user_id) OR is_public)' })).equivalent).toBeUndefined();
    expect(widened(policy({ ...owner, using: '(auth.uid() = user_id)', withCheck: '(shared = true)' })).equivalent).toBeUndefined();
    expect(widened(policy({ ...owner, using: '(auth.uid() IS DISTINCT FROM user_id)' })).equivalent).toBeUndefined();
    expect(widened(policy({ ...owner, command: 'SELECT', using: '(auth.uid() IS NULL)' })).equivalent).toBeUndefined();
  });

  it('an `auth.uid() IS NOT NULL` check made always true, or dropped, in a policy for authenticated alone: equivalent (every authenticated token has a sub); for anon or public too, or beside another check, not', () => {
    const variants = (p: CatalogPolicy) => deriveMutants(catalog([p], ['SELECT', 'INSERT'], ['SELECT', 'INSERT'])).filter((m) => m.kind === 'always-true' || m.kind === 'drop-conjunct');
    const signedIn = { name: 'signed_in_read', command: 'SELECT' as const, roles: ['authenticated'] };
    const [alwaysTrue] = variants(policy({ ...signedIn, using: '(auth.uid() IS NOT NULL)' }));
    expect(alwaysTrue).toMatchObject({ kind: 'always-true', equivalent: expect.stringMatching(/authenticated only.*`sub`.*`auth\.uid\(\) IS NOT NULL` is true for every request/) });
    expect(variants(policy({ ...signedIn, using: '(( SELECT auth.uid() AS uid) IS NOT NULL)' }))[0].equivalent).toMatch(/authenticated only/);
    expect(variants(policy({ ...signedIn, command: 'INSERT', withCheck: '(auth.uid() IS NOT NULL)' }))[0].equivalent).toMatch(/authenticated only/);
    // Dropping the uid check beside another: equivalent; dropping the other check: a real change.
    const [dropUid, dropOther] = variants(policy({ ...signedIn, using: '((auth.uid() IS NOT NULL) AND is_published)' }));
    expect(dropUid.equivalent).toMatch(/authenticated only/);
    expect(dropOther.equivalent).toBeUndefined();
    // anon has no uid: for anon or every role the check decides something.
    expect(variants(policy({ ...signedIn, roles: ['anon', 'authenticated'], using: '(auth.uid() IS NOT NULL)' }))[0].equivalent).toBeUndefined();
    expect(variants(policy({ ...signedIn, roles: ['public'], using: '(auth.uid() IS NOT NULL)' }))[0].equivalent).toBeUndefined();
    // Other uid checks still decide: an owner test, a null test.
    expect(variants(policy({ ...signedIn, using: '(auth.uid() = user_id)' }))[0].equivalent).toBeUndefined();
    expect(variants(policy({ ...signedIn, using: '(auth.uid() IS NULL)' }))[0].equivalent).toBeUndefined();
  });

  it("dropping `auth.role() = 'authenticated'` beside an owner check, false without a uid: equivalent; alone, or beside a check anon can pass, not", () => {
    // Re-created after supabase-comments-extension: `to public with check ((auth.role() = 'authenticated'::text) AND (user_id = auth.uid()))`,
    // whose role conjunct dropped survived as "an equivalent variant, or a gap".
    const variants = (withCheck: string, roles = ['public']) =>
      deriveMutants(catalog([policy({ name: 'own_insert', command: 'INSERT', roles, withCheck })], ['SELECT', 'INSERT'], ['SELECT', 'INSERT'])).filter((m) => m.kind === 'drop-conjunct' || m.kind === 'always-true');
    const [dropRole, dropOwner] = variants("((auth.role() = 'authenticated'::text) AND (user_id = auth.uid()))");
    expect(dropRole.equivalent).toMatch(/^`auth\.role\(\) = 'authenticated'::text` stands beside `user_id = auth\.uid\(\)`, false without a uid: anon .* admits no one new$/);
    expect(dropOwner.equivalent).toBeUndefined();
    expect(variants("((( SELECT auth.role() AS role) = 'authenticated'::text) AND (EXISTS ( SELECT 1 FROM members WHERE (members.user_id = auth.uid()))))")[0].equivalent).toMatch(/admits no one new/);
    expect(variants("(((auth.jwt() ->> 'role'::text) = 'authenticated'::text) AND (owner = auth.uid()))", ['authenticated'])[0].equivalent).toMatch(/admits no one new/);
    // Anon passes the rest: the role check was what refused it.
    expect(variants("((auth.role() = 'authenticated'::text) AND (topic IS NOT NULL))")[0].equivalent).toBeUndefined();
    expect(variants("(auth.role() = 'authenticated'::text)")[0].equivalent).toBeUndefined();
    // A role of the project's own, which a request may act as: not claimed.
    expect(variants("((auth.role() = 'authenticated'::text) AND (user_id = auth.uid()))", ['editor'])[0].equivalent).toBeUndefined();
  });

  it('widening a membership policy (an EXISTS lookup on the caller, alone or beside an owner check) to anon: equivalent; a lookup anon can pass is not', () => {
    // Re-created after Tambo: `exists (select 1 from members where members.project_id = projects.id and members.user_id = (select auth.uid()))`, as pg_policies prints it.
    const widened = (using: string) => deriveMutants(catalog([policy({ name: 'members', command: 'SELECT', roles: ['authenticated'], using })], ['SELECT'], ['SELECT'])).find((m) => m.kind === 'widen-roles')!;
    const lookup = 'EXISTS ( SELECT 1\n   FROM members\n  WHERE ((members.project_id = t.id) AND (members.user_id = ( SELECT auth.uid() AS uid))))';
    expect(widened(`(${lookup})`).equivalent).toMatch(/EXISTS lookup, null for anon/);
    expect(widened(`((${lookup}) OR ((creator_id IS NOT NULL) AND (creator_id = ( SELECT auth.uid() AS uid))))`).equivalent).toMatch(/null for anon/);
    // Anon passes these: a public alternative, a lookup not on the caller, NOT EXISTS, a UNION beside the lookup.
    expect(widened(`((${lookup}) OR is_public)`).equivalent).toBeUndefined();
    expect(widened('(EXISTS ( SELECT 1\n   FROM members\n  WHERE (members.project_id = t.id)))').equivalent).toBeUndefined();
    expect(widened(`(NOT ${lookup})`).equivalent).toBeUndefined();
    expect(widened('(EXISTS ( SELECT 1\n   FROM members\n  WHERE (members.user_id = auth.uid())\nUNION\n SELECT 1\n   FROM open_projects))').equivalent).toBeUndefined();
  });
});

describe('widening an UPDATE or DELETE policy', () => {
  // supabase-swift's examples: buckets updated and deleted `using (true)` by authenticated, seen by authenticated alone.
  const all = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'];
  const widen = (policies: CatalogPolicy[], name: string) => deriveMutants(catalog(policies, all, all)).find((m) => m.name === `widen-roles-t-${name}`)!;
  const seenBySignedIn = policy({ name: 'see', command: 'SELECT', roles: ['authenticated'], using: 'true' });

  it('to roles no SELECT policy shows a row: equivalent (a filtered write reaches only rows a SELECT policy shows)', () => {
    for (const command of ['UPDATE', 'DELETE'] as const) {
      const m = widen([seenBySignedIn, policy({ name: 'w', command, roles: ['authenticated'], using: 'true' })], 'w');
      expect(m.equivalent).toBe(`no SELECT policy on public.t applies to anon, and a filtered ${command} (PostgREST's always are: pg-safeupdate) reaches only rows a SELECT policy shows, so a policy for every role admits no one new`);
    }
  });

  it('not when a permissive SELECT policy (or one for all commands) shows the added role rows, nor for an INSERT', () => {
    const update = policy({ name: 'w', command: 'UPDATE', roles: ['authenticated'], using: 'true' });
    expect(widen([policy({ name: 'see', command: 'SELECT', roles: ['public'], using: 'is_public' }), update], 'w').equivalent).toBeUndefined();
    expect(widen([policy({ name: 'see', command: 'SELECT', roles: ['anon'], using: 'true' }), update], 'w').equivalent).toBeUndefined();
    expect(widen([policy({ name: 'any', command: 'ALL', roles: ['public'], using: 'is_public' }), update], 'w').equivalent).toBeUndefined();
    expect(widen([seenBySignedIn, policy({ name: 'ins', command: 'INSERT', roles: ['authenticated'], withCheck: 'true' })], 'ins').equivalent).toBeUndefined();
    // A restrictive SELECT policy shows nothing by itself: still equivalent.
    expect(widen([seenBySignedIn, policy({ name: 'live', command: 'SELECT', roles: ['public'], permissive: 'RESTRICTIVE', using: 'live' }), update], 'w').equivalent).toMatch(/^no SELECT policy/);
  });
});

describe('a filtered-write equivalence beside an invoker function writing the table', () => {
  // Review of session 19: an invoker RPC's `delete from t where true` (or `where p_flag`) reads no column, so no SELECT
  // policy applies to it (engine/mutants/auto/derive.test.ts checks the fact on Postgres): the filtered-write premise fails.
  const all = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'];
  const fn = (name: string, body: string, options: { definer?: boolean; anon?: boolean; authenticated?: boolean; triggerTables?: string[]; sqlStandard?: boolean } = {}): CatalogFunction => ({
    schema: 'public',
    name,
    signature: `"public"."${name}"()`,
    definition: options.sqlStandard
      ? `CREATE OR REPLACE FUNCTION public.${name}()\n RETURNS void\n LANGUAGE sql\n${options.definer ? ' SECURITY DEFINER\n' : ''}BEGIN ATOMIC\n ${body};\nEND\n`
      : `CREATE OR REPLACE FUNCTION public.${name}()\n RETURNS void\n LANGUAGE plpgsql\n${options.definer ? ' SECURITY DEFINER\n' : ''}AS $function$\nbegin\n  ${body};\nend;\n$function$\n`,
    executableByAnon: options.anon ?? true,
    executableByAuthenticated: options.authenticated ?? true,
    ...(options.triggerTables ? { triggerTables: options.triggerTables } : {}),
  });
  const seenBySignedIn = policy({ name: 'see', command: 'SELECT', roles: ['authenticated'], using: 'true' });
  const widen = (command: 'UPDATE' | 'DELETE', functions: CatalogFunction[]) =>
    deriveMutants({ ...catalog([seenBySignedIn, policy({ name: 'w', command, roles: ['authenticated'], using: 'true' })], all, all), functions }).find((m) => m.name === 'widen-roles-t-w')!;

  it('widening an UPDATE or DELETE policy to roles no SELECT policy shows a row: not equivalent when an invoker function the API reaches writes the table', () => {
    expect(widen('DELETE', [fn('purge', 'delete from public.t where true')]).equivalent).toBeUndefined();
    expect(widen('DELETE', [fn('purge', 'delete from only "t" where p_flag')]).equivalent).toBeUndefined();
    expect(widen('UPDATE', [fn('close_all', "update t set status = 'closed'")]).equivalent).toBeUndefined();
    expect(widen('UPDATE', [fn('sync', 'merge into public.t using s on true when matched then update set n = s.n')]).equivalent).toBeUndefined();
    // Dynamic SQL may name any table; a trigger function runs whatever the grants; a SQL-standard body is read too.
    expect(widen('DELETE', [fn('purge_any', "execute format('delete from %I', p_table)")]).equivalent).toBeUndefined();
    expect(widen('DELETE', [fn('cascade', 'delete from t where true', { anon: false, authenticated: false, triggerTables: ['public.parents'] })]).equivalent).toBeUndefined();
    expect(widen('DELETE', [fn('purge', 'delete from public.t where true', { sqlStandard: true })]).equivalent).toBeUndefined();
    // Still equivalent: a definer function (row security does not apply to its owner), one no API role may call and no
    // trigger runs, a write of another command or another table, a table merely read.
    for (const functions of [
      [fn('purge', 'delete from public.t where true', { definer: true })],
      [fn('purge', 'delete from public.t where true', { definer: true, sqlStandard: true })],
      [fn('purge', 'delete from public.t where true', { anon: false, authenticated: false })],
      [fn('close_all', "update public.t set status = 'closed'")],
      [fn('purge_other', 'delete from public.t_archive where true'), fn('purge_s', 'delete from s.t where true')],
      [fn('count', 'perform count(*) from public.t')],
    ]) {
      expect(widen('DELETE', functions).equivalent, functions.map((f) => f.definition).join('\n')).toMatch(/^no SELECT policy on public\.t applies to anon/);
    }
  });

  it('a DELETE or UPDATE loosened by what the SELECT policy keeps: not equivalent when an invoker function writes the table', () => {
    const locked = [policy({ name: 'see', command: 'SELECT', roles: ['authenticated'], using: '(NOT locked)' })];
    const dropLocked = (command: 'UPDATE' | 'DELETE', functions: CatalogFunction[]) =>
      deriveMutants({ ...catalog([...locked, policy({ name: 'w', command, roles: ['authenticated'], using: '((owner = auth.uid()) AND (NOT locked))' })], all, all), functions }).find((m) => m.name === 'drop-conjunct-t-w-using-2')!;
    expect(dropLocked('DELETE', []).equivalent).toMatch(/reaches only rows its SELECT policy see shows/);
    expect(dropLocked('DELETE', [fn('purge_mine', 'delete from t where p_all')]).equivalent).toBeUndefined();
    expect(dropLocked('UPDATE', [fn('touch_mine', 'update public.t set seen = true')]).equivalent).toBeUndefined();
  });

  it("a definer is read off the function's options, never its body: an invoker body naming SECURITY DEFINER in a comment gets no definer mutant and still counts as writing", () => {
    const commented = fn('purge', "-- was SECURITY DEFINER once\n  delete from public.t where p_id = id and p_flag");
    const mutants = deriveMutants({ ...catalog([seenBySignedIn, policy({ name: 'w', command: 'DELETE', roles: ['authenticated'], using: 'true' })], all, all), functions: [commented] });
    expect(mutants.filter((m) => m.kind === 'function-drop-conjunct')).toEqual([]);
    expect(mutants.find((m) => m.name === 'widen-roles-t-w')!.equivalent).toBeUndefined();
    const definer = fn('purge', 'delete from public.t where p_id = id and p_flag', { definer: true });
    expect(deriveMutants({ ...catalog([], all, all), functions: [definer] }).filter((m) => m.kind === 'function-drop-conjunct').length).toBe(2);
  });
});

describe('propertiesFor', () => {
  it('runs the owning rule first: R14 for an ilike lookup, then the others naming the function', async () => {
    const { propertiesFor } = await import('./run-auto.ts');
    const { dataProperties } = await import('../../../packs/reference/properties.ts');
    const [mutant] = deriveMutants({
      policies: [],
      rowSecurityTables: [],
      views: [],
      functions: [
        {
          schema: 'public',
          name: 'vs_transfer_dept',
          signature: 'public.vs_transfer_dept(p_id text, p_dept text, p_remarks jsonb)',
          definition: 'create function public.vs_transfer_dept() as $$ update t set x = 1 where t.id = p_id $$',
          executableByAnon: false,
          executableByAuthenticated: true,
        },
      ],
    });
    expect(mutant.kind).toBe('equality-to-ilike');
    const { list, covered } = propertiesFor(mutant, dataProperties);
    expect(covered).toBe(true);
    expect(list[0].id).toBe('R14');
    expect(list.map((p) => p.id)).toContain('R06');
  });

  it('a helper called by a table’s policies is tried by that table’s properties; on a mapped project, through the target’s names', async () => {
    const { propertiesFor } = await import('./run-auto.ts');
    const { dataProperties } = await import('../../../packs/reference/properties.ts');
    const helper = { name: 'h', kind: 'function-drop-conjunct' as const, target: 'public.addressed(p uuid)', description: '', sql: '' };
    expect(propertiesFor({ ...helper, calledByPoliciesOf: ['public.project_files'] }, dataProperties).list.map((p) => p.id)).toContain('R10');
    expect(propertiesFor(helper, dataProperties).covered).toBe(false);
    const mapping = { tables: { project_files: { name: 'uploads' } }, functions: { get_pr_ticket_by_id: { name: 'lookup_press_request' } } };
    expect(propertiesFor({ ...helper, calledByPoliciesOf: ['public.uploads'] }, dataProperties, mapping).list.map((p) => p.id)).toContain('R10');
    expect(propertiesFor({ ...helper, target: 'public.lookup_press_request(p_ref text)' }, dataProperties, mapping).list.map((p) => p.id)).toContain('R14');
  });
});

describe('a trigger function', () => {
  it('is covered through the table its trigger is on, and a survivor says so (not "no property names it")', async () => {
    const { propertiesFor, survivedCovering } = await import('./run-auto.ts');
    const { dataProperties } = await import('../../../packs/reference/properties.ts');
    const mutants = deriveMutants({
      policies: [],
      rowSecurityTables: [],
      views: [],
      functions: [
        {
          schema: 'private',
          name: 'guard_pr_tickets_owner_update',
          signature: 'private.guard_pr_tickets_owner_update()',
          definition: "create function private.guard_pr_tickets_owner_update() returns trigger language plpgsql as $$ begin if auth.uid() is null then return new; end if; return new; end $$",
          executableByAnon: false,
          executableByAuthenticated: false,
          triggerTables: ['public.pr_tickets'],
        },
      ],
    });
    const guard = mutants.find((m) => m.kind === 'if-guard')!;
    expect(guard.triggerOn).toEqual(['public.pr_tickets']);
    const { list, covered } = propertiesFor(guard, dataProperties);
    expect(covered).toBe(true);
    expect(list.length).toBeLessThan(dataProperties.length);
    expect(list.every((p) => p.tables.includes('pr_tickets'))).toBe(true);
    const reason = survivedCovering(guard, list);
    expect(reason).toContain('through the table its trigger is on, public.pr_tickets');
    expect(reason).toMatch(/^survived R\d+.*: an equivalent variant, or a gap in th(at property|ose properties)$/);
  });
});

describe('a trigger function whose every trigger is disabled', () => {
  it("has equivalent variants, naming the disabled trigger's table (GaryAustin1/custom-properties: on_custom_role_change's guard variants survived as a gap)", () => {
    const sync = (tables: { triggerTables?: string[]; disabledTriggerTables?: string[] }): CatalogFunction => ({
      schema: 'public',
      name: 'custom_roles_update_to_app_metadata',
      signature: 'public.custom_roles_update_to_app_metadata()',
      definition: "CREATE OR REPLACE FUNCTION public.custom_roles_update_to_app_metadata()\n RETURNS trigger\n LANGUAGE plpgsql\n SECURITY DEFINER\nAS $function$ begin if (TG_OP = 'DELETE') then return old; end if; return new; end; $function$",
      executableByAnon: true,
      executableByAuthenticated: true,
      ...tables,
    });
    const variants = (f: CatalogFunction) => deriveMutants({ policies: [], rowSecurityTables: [], views: [], functions: [f] });
    const idle = variants(sync({ disabledTriggerTables: ['public.custom_user_roles'] }));
    expect(idle.length).toBeGreaterThan(0);
    for (const m of idle) expect(m.equivalent).toBe('it runs only from a disabled trigger (on public.custom_user_roles): no request runs it');
    // Enabled on one table, it is reached there: not equivalent.
    for (const m of variants(sync({ triggerTables: ['public.custom_user_roles'], disabledTriggerTables: ['public.archive'] }))) expect(m.equivalent).toBeUndefined();
  });
});

describe('equality-to-ilike equivalence', () => {
  const fn = (args: string) => ({
    schema: 'public',
    name: 'f',
    signature: `public.f(${args})`,
    definition: 'create function public.f() as $$ select 1 from t where t.id = p_id $$',
    executableByAnon: true,
    executableByAuthenticated: true,
  });
  const ilike = (args: string) => deriveMutants({ policies: [], rowSecurityTables: [], views: [], functions: [fn(args)] }).find((m) => m.kind === 'equality-to-ilike')!;

  it('a uuid or integer key: ilike on its text form is equality (equivalent)', () => {
    expect(ilike('p_id uuid').equivalent).toMatch(/p_id is uuid/);
    expect(ilike('p_other text, p_id bigint').equivalent).toMatch(/bigint/);
  });

  it('a text key: wildcards and case matter (not equivalent)', () => {
    expect(ilike('p_id text').equivalent).toBeUndefined();
    expect(ilike('p_id character varying').equivalent).toBeUndefined();
  });
});

describe('policy names in what a variant says', () => {
  it('a name that is no plain identifier is quoted, as Postgres prints it, so it does not run into the sentence', () => {
    const mutants = deriveMutants(
      catalog(
        [
          policy({ name: 'Can view own pages.', command: 'SELECT', using: '(auth.uid() = user_id)' }),
          policy({ name: 'Can update own pages.', command: 'UPDATE', using: '(auth.uid() = user_id)' }),
          policy({ name: 'pages_delete', command: 'DELETE', using: '(auth.uid() = user_id)' }),
        ],
        ['SELECT', 'UPDATE', 'DELETE'],
        ['SELECT', 'UPDATE', 'DELETE'],
      ),
    );
    const update = mutants.find((m) => m.kind === 'always-true' && m.sql.includes('Can update own pages.'))!;
    expect(update.description).toBe('policy "Can update own pages." on public.t: USING (true) instead of `auth.uid() = user_id`');
    expect(update.equivalent).toMatch(/reaches only rows its SELECT policy "Can view own pages\." shows,/);
    // A plain identifier stays as it is.
    expect(mutants.find((m) => m.sql.includes('pages_delete'))!.description).toBe('policy pages_delete on public.t: USING (true) instead of `auth.uid() = user_id`');
  });
});
