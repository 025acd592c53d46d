/**
 * A custom access token hook answering a `role` claim that names a Postgres role of the project's
 * own (after supasheet: `claims.role = app_metadata.role` where such a role exists, the role
 * granted to authenticator and given authenticated's rights): PostgREST switches to the role the
 * token names, so policies reading `pg_has_role(current_user, '<role>', 'member')` see it. Before,
 * every signed-in request was sent as authenticated whatever the hook answered: the project's
 * auditors were filtered out of every row they may read, a false alarm on every read.
 * Here a ledger is read by its owner, and by any caller the hook makes `pf_auditor`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defineProperty, defineTable, type Caller, type DataCase } from '../../api/index.ts';
import { openEnvironment, EXPOSED_SCHEMAS, type Environment } from '../runner/environment.ts';
import { runDataProperty } from '../runner/run-data-property.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { runCase } from '../../testing/sql-environment.ts';
import { SUPABASE_EXTRA_SEARCH_PATH } from './schema-cache.ts';

const MIGRATION = `
do $$ begin
  if not exists (select 1 from pg_roles where rolname = 'pf_auditor') then create role pf_auditor nologin; end if;
end $$;
grant pf_auditor to authenticator;
grant authenticated to pf_auditor;
create table public.ledgers (id uuid primary key, owner_id uuid not null, memo text not null default '');
alter table public.ledgers enable row level security;
revoke all on public.ledgers from anon;
grant select on public.ledgers to authenticated;
create policy ledgers_read on public.ledgers for select to authenticated
  using (owner_id = (select auth.uid()) or pg_has_role(current_user, 'pf_auditor', 'member'));
create function public.tier_token_hook(event jsonb) returns jsonb language plpgsql stable set search_path = '' as $$
declare
  tier text := event -> 'claims' -> 'app_metadata' ->> 'tier';
begin
  if tier is not null and exists (select 1 from pg_roles where rolname = tier) then
    return jsonb_set(event, '{claims,role}', to_jsonb(tier));
  end if;
  return event;
end $$;
grant usage on schema public to supabase_auth_admin;
grant execute on function public.tier_token_hook(jsonb) to supabase_auth_admin;
revoke execute on function public.tier_token_hook(jsonb) from public, anon, authenticated;
`;

const isAuditor = (c: Caller) => c.kind === 'user' && c.appMetadata?.tier === 'pf_auditor';

const ledgers = defineTable({
  table: 'ledgers',
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'owner_id', type: 'uuid', nullable: false },
    { name: 'memo', type: 'text', nullable: false, default: '' },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select'] },
  rowSecurity: true,
  rules: { select: (row, ctx) => row.owner_id === ctx.uid || isAuditor(ctx.caller) },
});

const L01 = defineProperty({
  id: 'L01',
  rule: 1,
  title: 'ledgers: read by their owner, and by every auditor',
  tables: ['ledgers'],
  cases: () =>
    fc.tuple(fc.uuid({ version: 4 }), fc.uuid({ version: 4 }), fc.boolean()).filter(([a, b]) => a !== b).map(
      ([owner, other, auditor]): DataCase => ({
        world: { 'auth.users': [{ id: owner, email: 'o@l.test' }, { id: other, email: 'x@l.test' }], ledgers: [{ id: owner, owner_id: owner, memo: '' }] },
        steps: [{ caller: { kind: 'user', id: other, ...(auditor ? { appMetadata: { tier: 'pf_auditor' } } : {}) }, request: { kind: 'select', table: 'ledgers', columns: '*', filters: [] } }],
      }),
    ),
});

const oracle = { model: { tables: { ledgers }, functions: {}, fixtureOrder: ['auth.users', 'ledgers'] }, settings: {} };
/** A model that forgot the auditors: its owner-only read disagrees with the database on an auditor's read. */
const ownerOnly = defineTable({ ...ledgers, rules: { select: (row, ctx) => row.owner_id === ctx.uid } });
const forgetful = { ...oracle, model: { ...oracle.model, tables: { ledgers: ownerOnly } } };

const opened: Environment[] = [];
afterAll(async () => {
  for (const e of opened) await e.close();
});

/** One environment for both cases (the model is the run's, not the environment's). */
let shared: Promise<Environment> | undefined;
function ledgerEnvironment(): Promise<Environment> {
  shared ??= sharedServer().then((server) => openEnvironment({
    server,
    migrations: [{ name: '20250101000000_ledgers.sql', path: '(test) 20250101000000_ledgers.sql', sql: MIGRATION }],
    supabaseCompat: true,
    workers: 1,
    fixtures: { users: 'direct', bypassTriggers: [] },
    api: { exposedSchemas: EXPOSED_SCHEMAS, extraSearchPath: SUPABASE_EXTRA_SEARCH_PATH, accessTokenHook: 'public.tier_token_hook' },
  })).then((env) => {
    opened.push(env);
    return env;
  });
  return shared;
}

describe('a token hook answering a custom Postgres role: the request is sent as that role', () => {
  it('an auditor the hook names reads every ledger, as PostgREST would switch to pf_auditor', async () => {
    const r = await runDataProperty(await ledgerEnvironment(), L01, { seed: 1, runs: 20, oracle });
    expect(r.failure?.message).toBeUndefined();
    expect(r.status).toBe('passed');
    // Both sides reached: auditors allowed, others filtered (the hook's answer changed who reads).
    expect(r.counts.allowed).toBeGreaterThan(0);
    expect(r.counts.filtered).toBeGreaterThan(0);
  });

  it("a disagreement on such a request names the role it ran as (the caller's line says authenticated)", async () => {
    const r = await runDataProperty(await ledgerEnvironment(), L01, { seed: 1, runs: 20, oracle: forgetful });
    expect(r.status).toBe('failed');
    expect(r.failure?.message).toMatch(/\(run as role "pf_auditor", the token hook's role claim\)/);
  });

  it('only a signed-in token is composed by the hook: anon and the service key run as their own role, no hook role named; a user the hook leaves alone none either', async () => {
    const env = await ledgerEnvironment();
    const owner = '00000000-0000-4000-8000-00000000000a';
    const read = { kind: 'select' as const, table: 'ledgers', columns: '*' as const, filters: [] };
    const fixtures = [{ table: 'ledgers', row: null, sql: `insert into public.ledgers (id, owner_id) values ('${owner}', '${owner}')` }];
    const callers: Caller[] = [{ kind: 'anon' }, { kind: 'service' }, { kind: 'user', id: owner }, { kind: 'user', id: '00000000-0000-4000-8000-00000000000b', appMetadata: { tier: 'pf_auditor' } }];
    const [anon, service, plain, auditor] = await runCase(env, fixtures, callers.map((caller) => ({ caller, request: read })));
    // anon holds no SELECT (its key's role, not a hook's); the service key reads past row security.
    expect(anon.error?.code).toBe('42501');
    expect(service.body).toHaveLength(1);
    for (const r of [anon, service]) expect([r.tokenRole, r.tokenAppMetadata]).toEqual([undefined, undefined]);
    expect(plain.tokenRole).toBeUndefined();
    expect(plain.tokenAppMetadata).toBeDefined();
    expect(auditor.tokenRole).toBe('pf_auditor');
  });
});
