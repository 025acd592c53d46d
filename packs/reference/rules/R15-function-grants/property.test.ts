import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareFunctions, POLICY_HELPER_ABOUT_CALLER, POLICY_HELPER_EXECUTE, PUBLIC_EXECUTE_EVERY_API_ROLE, SERVICE_ROLE_EXECUTE } from '../../../../engine/checker/catalog.ts';
import { runCatalogProperty } from '../../../../engine/runner/catalog-property.ts';
import type { Environment } from '../../../../engine/runner/environment.ts';
import { describeBothHalvesHold } from '../../../../testing/property-holds.ts';
import { referenceEnvironment } from '../../../../testing/reference.ts';
import { referenceOracle } from '../../model/index.ts';
import { R15, R15_CATALOG } from './property.ts';
import { underModelNames } from '../../../../engine/checker/catalog.ts';

describeBothHalvesHold(R15, R15_CATALOG, {
  data: 'holds, and its calls reach both the granted and the refused side',
  catalog: 'every function in public, passport and private is executable exactly as the model says',
});

describe('compareFunctions', () => {
  const fn = (name: string, executable: Partial<Record<'anon' | 'authenticated' | 'service_role' | 'public', boolean>>, schema = 'public') => ({
    name: schema === 'public' ? name : `${schema}.${name}`,
    schema,
    signature: `${schema}.${name}()`,
    executable: { anon: false, authenticated: false, service_role: false, public: false, ...executable },
  });
  // Re-created after stranger-app-17 (one API schema, `api`): its functions were not read at all, and read, a model
  // function kept there under a schema-prefixed name would be judged as one the model does not know.
  it('a model function the mapping names in another API schema is judged by the model’s grants (underModelNames)', () => {
    const kept = fn('who_handles', { authenticated: true, service_role: true }, 'gateway');
    const expected = new Map([['who_handles', ['authenticated', 'service_role'] as const]]);
    const mapping = { functions: { who_handles: { name: 'gateway.who_handles' } } };
    expect(compareFunctions(underModelNames([kept], mapping), expected).findings).toEqual([]);
    expect(compareFunctions([kept], expected).findings).toEqual([expect.stringMatching(/gateway\.who_handles\(\): not in the model/)]);
    // Executable by anon there, where the model withholds it: the finding rule 15 asks for.
    expect(compareFunctions(underModelNames([fn('who_handles', { anon: true, authenticated: true, service_role: true }, 'gateway')], mapping), expected).findings).toHaveLength(1);
  });

  it('an unknown function anon, authenticated or PUBLIC may execute is a finding; one they may not holds rule 15', () => {
    for (const who of ['anon', 'authenticated', 'public'] as const) expect(compareFunctions([fn('later_helper', { [who]: true })], new Map()).findings).toHaveLength(1);
    expect(compareFunctions([fn('server_only', { service_role: true }), fn('trigger_body', {})], new Map())).toEqual({ granted: 0, withheld: 2, findings: [] });
  });
  // Re-created after stranger-app-5: its guard trigger functions (created after the revoke, PUBLIC
  // keeps EXECUTE) and its own policy helper in public (current_user_can_handle_vs(), no argument,
  // which policies call as the caller) were findings.
  it('a trigger function is no finding; an argument-less policy helper in an exposed schema is a named reading, one taking arguments a finding', () => {
    expect(compareFunctions([{ ...fn('guard_update', { anon: true, authenticated: true, public: true }), trigger: true }], new Map())).toEqual({ granted: 0, withheld: 1, findings: [] });
    const about = (args: string, readsCaller = true) => ({ ...fn('current_user_can_handle_vs', { anon: true, authenticated: true }), signature: `public.current_user_can_handle_vs(${args})`, readsCaller });
    const callers = (args: string) => ({ calledBy: new Map([[`public.current_user_can_handle_vs(${args})`, ['policy p on vs_tickets']]]), exposedSchemas: ['public'] });
    expect(compareFunctions([about('')], new Map(), callers(''))).toEqual({ granted: 1, withheld: 0, findings: [], readings: { [POLICY_HELPER_ABOUT_CALLER]: ['public.current_user_can_handle_vs()'] } });
    expect(compareFunctions([about('p_email text')], new Map(), callers('p_email text')).findings).toHaveLength(1);
    // A department only (stranger-app-5's current_user_can_handle_vs(p_dept text), as the spec's vs_in_scope(p_dept)): about the caller still.
    expect(compareFunctions([about('p_dept text')], new Map(), callers('p_dept text'))).toMatchObject({ findings: [], readings: { [POLICY_HELPER_ABOUT_CALLER]: ['public.current_user_can_handle_vs(p_dept text)'] } });
    for (const args of ['p_user uuid', 'p_dept text, p_user_id uuid', 'p_ticket text']) expect(compareFunctions([about(args)], new Map(), callers(args)).findings, args).toHaveLength(1);
    // One whose body reads no caller (`admin_ids()`, `list_by_role(p_role text)`) answers about others, whatever its arguments.
    for (const args of ['', 'p_role text']) expect(compareFunctions([about(args, false)], new Map(), callers(args)).findings, args).toEqual([expect.stringMatching(/reads no caller/)]);
  });
  // After stranger-app-6: `grant execute on all functions in schema private to service_role` made its
  // private.changed_columns and touch_updated_at findings (the model's namesakes withhold service_role).
  it('service_role holding EXECUTE the model withholds is a named reading (rule 15 names anon, authenticated, PUBLIC); anon holding it stays a finding, service_role lacking one the model grants too', () => {
    const model = new Map([['private.changed_columns', [] as const]]);
    expect(compareFunctions([fn('changed_columns', { service_role: true }, 'private')], model)).toEqual({ granted: 0, withheld: 3, findings: [], readings: { [SERVICE_ROLE_EXECUTE]: ['private.changed_columns()'] } });
    expect(compareFunctions([fn('changed_columns', { anon: true, service_role: true }, 'private')], model).findings).toEqual(['private.changed_columns(): anon may execute it, the model says it may not']);
    expect(compareFunctions([fn('f', { anon: true })], new Map([['f', ['anon', 'service_role'] as const]])).findings).toEqual(['public.f(): service_role may not execute it, the model says it may']);
  });
  it('a PUBLIC grant is a finding where the model withholds an API role, a named reading where it grants every one', () => {
    const r = compareFunctions([fn('f', { anon: true, authenticated: true, service_role: true, public: true })], new Map([['f', ['anon', 'authenticated'] as const]]));
    expect(r.findings.some((f) => f.includes('PUBLIC'))).toBe(true);
    const all = compareFunctions([fn('f', { anon: true, authenticated: true, service_role: true, public: true })], new Map([['f', ['anon', 'authenticated', 'service_role'] as const]]));
    expect(all).toEqual({ granted: 3, withheld: 0, findings: [], readings: { [PUBLIC_EXECUTE_EVERY_API_ROLE]: ['public.f()'] } });
  });
  it('agreement counts granted and withheld grants', () => {
    const r = compareFunctions([fn('f', { service_role: true })], new Map([['f', ['service_role'] as const]]));
    expect(r).toEqual({ granted: 1, withheld: 3, findings: [] });
  });
  it('an unknown helper a policy calls, executable by the API roles: accepted outside the API, a finding as an RPC taking arguments or with PUBLIC', () => {
    const calledBy = new Map([['private.is_moderator()', ['policy p on table t']], ['public.is_moderator()', ['policy p on table t']]]);
    const callers = { calledBy, exposedSchemas: ['public'] };
    const helper = fn('is_moderator', { anon: true, authenticated: true }, 'private');
    expect(compareFunctions([helper], new Map(), callers)).toEqual({ granted: 1, withheld: 0, findings: [], readings: { [POLICY_HELPER_EXECUTE]: ['private.is_moderator()'] } });
    // In public it is an RPC too: argument-less it answers only about the caller (policy-helper-about-caller); asked about a person, a finding.
    expect(compareFunctions([{ ...fn('is_moderator', { authenticated: true }), readsCaller: true }], new Map(), callers).readings).toEqual({ [POLICY_HELPER_ABOUT_CALLER]: ['public.is_moderator()'] });
    const aboutAnyone = { ...fn('is_moderator', { authenticated: true }), signature: 'public.is_moderator(p_user uuid)', readsCaller: true };
    expect(compareFunctions([aboutAnyone], new Map(), { calledBy: new Map([['public.is_moderator(p_user uuid)', ['policy p on table t']]]), exposedSchemas: ['public'] }).findings).toEqual([expect.stringMatching(/calls it, but public is exposed and it takes arguments: anyone holding EXECUTE may ask it about another person as an RPC/)]);
    // PUBLIC while some API role lacks it (a revoke naming service_role alone): the grants are not the named ones, a finding.
    expect(compareFunctions([{ ...helper, executable: { ...helper.executable, public: true } }], new Map(), callers).findings).toEqual([expect.stringMatching(/not PUBLIC \(revoke it from public\)$/)]);
  });
  // After stranger-app-8: its policy helpers (current_user_can_handle_vs(p_dept), request_user_id()) were never
  // revoked from PUBLIC. Every API role holds EXECUTE anyway: PUBLIC reaches no API caller more (as for a
  // function the model grants every API role), so the helper's own reading decides; one about another
  // person, or reading no caller, stays a finding with PUBLIC as without.
  it('a policy helper executable by PUBLIC and every API role: accepted as the helper it is, named; a helper about others is a finding still', () => {
    const every = { anon: true, authenticated: true, service_role: true, public: true };
    const calledBy = (signature: string) => ({ calledBy: new Map([[signature, ['policy p on table t']]]), exposedSchemas: ['public'] });
    const aboutCaller = { ...fn('current_user_can_handle_vs', every), signature: 'public.current_user_can_handle_vs(p_dept text)', readsCaller: true };
    expect(compareFunctions([aboutCaller], new Map(), calledBy(aboutCaller.signature))).toEqual({ granted: 1, withheld: 0, findings: [], readings: { [POLICY_HELPER_ABOUT_CALLER]: [aboutCaller.signature], [PUBLIC_EXECUTE_EVERY_API_ROLE]: [aboutCaller.signature] } });
    const outside = fn('is_moderator', every, 'private');
    expect(compareFunctions([outside], new Map(), { calledBy: new Map([['private.is_moderator()', ['policy p on table t']]]), exposedSchemas: ['public'] }).readings).toEqual({ [POLICY_HELPER_EXECUTE]: ['private.is_moderator()'], [PUBLIC_EXECUTE_EVERY_API_ROLE]: ['private.is_moderator()'] });
    const aboutOthers = { ...fn('on_board', every), signature: 'public.on_board(p_ticket_id text)', readsCaller: false };
    expect(compareFunctions([aboutOthers], new Map(), calledBy(aboutOthers.signature)).findings).toEqual([expect.stringMatching(/not PUBLIC \(revoke it from public\)$/)]);
    const aboutPerson = { ...fn('is_admin_of', every), signature: 'public.is_admin_of(p_user uuid)', readsCaller: true };
    expect(compareFunctions([aboutPerson], new Map(), calledBy(aboutPerson.signature)).findings).toHaveLength(1);
  });
});

/**
 * Rule 15's policy helpers on a database (stranger-app-3's `private.is_admin()`, called by its
 * policies as the caller): which functions a policy, a view or an invoker body calls is read from
 * the catalog. A re-creation on the reference, in a transaction rolled back after.
 */
describe('R15:catalog and the helpers policies call (readInvokerCallers)', () => {
  let env: Environment;
  beforeAll(async () => {
    env = await referenceEnvironment({ workers: 1 });
  });
  afterAll(() => env?.close());

  const helper = (name: string, role: string, definer = true) => `
    create function private.${name}() returns boolean language sql stable ${definer ? 'security definer' : ''} set search_path = '' as $$ select false $$;
    revoke execute on function private.${name}() from public, anon, authenticated;
    grant execute on function private.${name}() to ${role};`;
  async function catalogWith(sql: string) {
    const client = env.workers[0].client;
    await client.query('begin');
    try {
      await client.query(sql);
      return await runCatalogProperty(env, R15_CATALOG, { seed: 1, ...referenceOracle });
    } finally {
      await client.query('rollback');
    }
  }

  it('a private helper a policy calls, executable by authenticated, passes, named; the same helper no policy calls fails', async () => {
    const policy = `create policy projects_moderated on public.projects for select to authenticated using (private.is_moderator());`;
    const called = await catalogWith(helper('is_moderator', 'authenticated') + policy);
    expect(called.failure?.message).toBeUndefined();
    expect(called.status).toBe('passed');
    expect(called.note).toMatch(/accepted as secure readings: policy-helper-execute \(1: private\.is_moderator\(\)\)/);
    const uncalled = await catalogWith(helper('is_moderator', 'anon'));
    expect(uncalled.failure?.message).toMatch(/private\.is_moderator\(\): not in the model \(executable by anon\); no policy, view or default calls it/);
  });

  it('an argument-less helper in public a policy calls: named when its body reads the caller (through a helper too), a finding when it reads none', async () => {
    const exposed = (body: string) => `
      create function public.pf_may_moderate() returns boolean language sql stable security definer set search_path = '' as $$ ${body} $$;
      revoke execute on function public.pf_may_moderate() from public;
      grant execute on function public.pf_may_moderate() to anon, authenticated;
      create policy projects_moderated on public.projects for select to authenticated using (public.pf_may_moderate());`;
    const throughHelper = await catalogWith(exposed(`select public.current_user_role() = 'admin'`));
    expect(throughHelper.failure?.message).toBeUndefined();
    expect(throughHelper.note).toMatch(/policy-helper-about-caller \(1: public\.pf_may_moderate\(\)\)/);
    const aboutNobody = await catalogWith(exposed(`select exists (select 1 from public.users where role = 'admin')`));
    expect(aboutNobody.failure?.message).toMatch(/public\.pf_may_moderate\(\): not in the model .*reads no caller/);
    // Two helpers deep (stranger-app-8: current_user_can_handle_pr() → current_user_role() → request_user_id(),
    // which reads request.jwt.claims): read as the caller's too; one level only, it was "reads no caller".
    const twoDeep = await catalogWith(`
      create function public.pf_request_user() returns text language sql stable set search_path = '' as $$ select current_setting('request.jwt.claims', true)::json ->> 'sub' $$;
      create function public.pf_request_role() returns text language sql stable security definer set search_path = '' as $$ select role from public.users where id::text = public.pf_request_user() $$;
      revoke execute on function public.pf_request_user(), public.pf_request_role() from public, anon, authenticated;
      ${exposed(`select public.pf_request_role() = 'admin'`)}`);
    expect(twoDeep.failure?.message).toBeUndefined();
    expect(twoDeep.note).toMatch(/policy-helper-about-caller \(1: public\.pf_may_moderate\(\)\)/);
  });

  it('a helper an invoker trigger body calls is reached; one only a definer body calls is not (it runs as the owner)', async () => {
    const trigger = (definer: boolean) => `
      create function private.check_project() returns trigger language plpgsql ${definer ? 'security definer' : ''} set search_path = '' as $$
      begin if not private.may_write_project() then raise exception 'no (private.not_a_call())'; end if; return new; end $$;
      revoke execute on function private.check_project() from public, anon, authenticated;
      create trigger projects_checked before insert on public.projects for each row execute function private.check_project();`;
    const invoker = await catalogWith(helper('may_write_project', 'authenticated') + trigger(false));
    expect(invoker.failure?.message).toBeUndefined();
    const definer = await catalogWith(helper('may_write_project', 'authenticated') + trigger(true));
    expect(definer.failure?.message).toMatch(/private\.may_write_project\(\): not in the model \(executable by authenticated\)/);
  });

  /**
   * A body without `set search_path` resolves a bare name on the request's path: the schema the
   * request targets (any exposed one) and db-extra-search-path, not `public` alone. Before, a
   * helper of another exposed schema called that way was "not called" (a false finding).
   */
  it('a bare call in an invoker body without its own search_path is read on the API\'s path (the exposed schemas, then the extra search path)', async () => {
    const sql = (setPath: string) => `
      create function passport.pf_may_write() returns boolean language sql stable set search_path = '' as $$ select auth.uid() is not null $$;
      revoke execute on function passport.pf_may_write() from public;
      grant execute on function passport.pf_may_write() to anon, authenticated;
      create function private.check_project() returns trigger language plpgsql ${setPath} as $$
      begin if not pf_may_write() then raise exception 'no'; end if; return new; end $$;
      revoke execute on function private.check_project() from public, anon, authenticated;
      create trigger projects_checked before insert on public.projects for each row execute function private.check_project();`;
    const onApiPath = await catalogWith(sql(''));
    expect(onApiPath.failure?.message).toBeUndefined();
    expect(onApiPath.note).toMatch(/policy-helper-about-caller \(1: passport\.pf_may_write\(\)\)/);
    // Its own search_path, when set, is the one read: passport not on it, the call is not passport's helper.
    const ownPath = await catalogWith(sql('set search_path = public'));
    expect(ownPath.failure?.message).toMatch(/passport\.pf_may_write\(\): not in the model .*no policy, view or default calls it/);
  });
});
