/**
 * Automatic mutants derived from the reference database's own catalog: each kind appears,
 * and every variant applies cleanly on top of the migrations.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceEnvironment } from '../../../testing/reference.ts';
import type { Environment } from '../../runner/environment.ts';
import { readCatalog } from './catalog.ts';
import { deriveMutants, type AutoMutant } from './derive.ts';

let env: Environment;
let mutants: AutoMutant[];

beforeAll(async () => {
  env = await referenceEnvironment();
  mutants = deriveMutants(await readCatalog(env.workers[0].client, ['public', 'passport', 'private']));
});
afterAll(() => env?.close());

describe('automatic mutants of the reference database', () => {
  it('derive the kinds the catalog allows', () => {
    const kinds = new Set(mutants.map((m) => m.kind));
    for (const kind of ['disable-row-security', 'drop-revoke', 'allow-list-drop', 'widen-roles'] as const) expect(kinds).toContain(kind);
    expect(mutants.find((m) => m.name === 'allow-list-drop-guard-users-owner-update-display-name')?.sql).not.toMatch(/'display_name'/);
  });

  it('mark row security on the read-only vs_categories (select using true) equivalent, and not on projects', () => {
    expect(mutants.find((m) => m.name === 'disable-row-security-public-vs-categories')?.equivalent).toMatch(/always true/);
    expect(mutants.find((m) => m.name === 'disable-row-security-public-projects')?.equivalent).toBeUndefined();
    expect(mutants.filter((m) => m.kind === 'disable-row-security' && m.equivalent).map((m) => m.name)).toEqual(['disable-row-security-public-vs-categories']);
  });

  it('a single check made always true, and each OR alternative dropped', () => {
    expect(mutants.find((m) => m.name === 'always-true-student-change-requests-student-change-requests-admin-insert-check')).toMatchObject({ kind: 'always-true', sql: expect.stringMatching(/with check \(true\);$/) });
    expect(mutants.filter((m) => m.name.startsWith('drop-disjunct-users-users-select-using-')).map((m) => m.sql)).toEqual([
      expect.stringMatching(/using \(\(current_user_is_staff\(\)\)\);$/),
      expect.stringMatching(/using \(\(id = auth\.uid\(\)\)\);$/),
    ]);
  });

  it('a loosened UPDATE or DELETE USING that the SELECT policy still enforces is equivalent (REST writes are always filtered); one it does not enforce is run', () => {
    // pr_tickets: SELECT and UPDATE share `deleted_at IS NULL AND (submitter or handler)`.
    for (const name of ['drop-conjunct-pr-tickets-pr-tickets-update-using-1', 'drop-conjunct-pr-tickets-pr-tickets-update-using-2', 'always-true-student-change-requests-student-change-requests-admin-delete-using']) {
      expect(mutants.find((m) => m.name === name)?.equivalent, name).toMatch(/reaches only rows its SELECT policy .* shows/);
    }
    // A filtered UPDATE's new row must pass the SELECT policy too; an INSERT's need not (return=minimal reads nothing).
    expect(mutants.find((m) => m.name === 'drop-conjunct-pr-tickets-pr-tickets-update-check-1')?.equivalent).toMatch(/must leave each new row visible to its SELECT policy pr_tickets_select, and it keeps `deleted_at IS NULL`/);
    expect(mutants.find((m) => m.name === 'always-true-student-change-requests-student-change-requests-admin-insert-check')?.equivalent).toBeUndefined();
    // users: the SELECT policy (own row or staff) is wider than the UPDATE's (own row or admin).
    const usersUpdate = mutants.find((m) => m.name === 'always-true-users-users-update-using');
    expect(usersUpdate?.kind).toBe('always-true');
    expect(usersUpdate?.equivalent).toBeUndefined();
  });

  it('the Postgres fact it rests on: a filtered UPDATE checks the new row against the SELECT policy, an unfiltered one does not; a DELETE reading no column (an invoker function\'s `where true`) reaches rows no SELECT policy shows', async () => {
    const client = new pg.Client({ connectionString: env.template.url });
    await client.connect();
    const attempt = async (sql: string) => {
      await client.query('begin');
      try {
        await client.query(`create role pf_probe_role; create table pf_probe (id int, dept text); insert into pf_probe values (1, 'a'), (2, 'b');
          alter table pf_probe enable row level security; grant select, update, delete on pf_probe to pf_probe_role;
          create policy s on pf_probe for select to pf_probe_role using (dept = 'a');
          create policy u on pf_probe for update to pf_probe_role using (dept = 'a') with check (true);
          create policy d on pf_probe for delete to pf_probe_role using (true);
          set local role pf_probe_role`);
        return (await client.query(sql)).rowCount;
      } catch (e) {
        return (e as pg.DatabaseError).code;
      } finally {
        await client.query('rollback');
      }
    };
    try {
      expect(await attempt(`update pf_probe set dept = 'b' where id = 1 returning 1`)).toBe('42501');
      expect(await attempt(`update pf_probe set dept = 'b' returning 1`)).toBe(1);
      expect(await attempt(`delete from pf_probe where id = 2`)).toBe(0);
      expect(await attempt(`delete from pf_probe where true`)).toBe(2);
    } finally {
      await client.end();
    }
  });

  it('drop each conjunct of a WHERE in a definer function rpc reaches, and know which tables’ policies call the function', () => {
    const merge = mutants.filter((m) => m.kind === 'function-drop-conjunct' && m.name.startsWith('function-drop-conjunct-merge-vs-tickets-1-'));
    expect(merge.map((m) => m.description.match(/without `(.*)`/)?.[1])).toEqual(['t.id = p_duplicate', 't.deleted_at is null', 'public.vs_in_scope(t.target_dept)']);
    expect(merge[2].sql).toMatch(/where \(t\.id = p_duplicate\) AND \(t\.deleted_at is null\);\n/);
    expect(merge[2].sql).toMatch(/\$function\$;$/);
    expect(mutants.find((m) => m.name === 'function-drop-conjunct-current-user-is-addressed-professor-1-1')?.calledByPoliciesOf).toEqual(['public.project_files']);
    // Only definer functions: an invoker's WHERE is backed by row security.
    const definers = new Set(mutants.filter((m) => m.kind === 'function-drop-conjunct').map((m) => m.target));
    expect([...definers].every((t) => !/current_user_role|get_public_vs_board\(/.test(t))).toBe(true);
  });

  it('drop, negate, and drop each OR alternative of a plpgsql IF guard; never an IF of a SQL function', () => {
    // soft_delete_pr_ticket's first guard refuses a caller with no session or no role.
    const guard = mutants.filter((m) => m.kind === 'if-guard' && /-soft-delete-pr-ticket-1(-|$)/.test(m.name));
    expect(guard.map((m) => m.name)).toEqual([
      'if-guard-drop-soft-delete-pr-ticket-1',
      'if-guard-negate-soft-delete-pr-ticket-1',
      'if-guard-drop-alternative-soft-delete-pr-ticket-1-1',
      'if-guard-drop-alternative-soft-delete-pr-ticket-1-2',
    ]);
    expect(guard[0].sql).toMatch(/\n  if false then\n    raise exception 'NOT_AUTHORIZED'/);
    expect(guard[1].sql).toMatch(/if not \(auth\.uid\(\) is null or public\.current_user_role\(\) is null\) then/);
    expect(guard[3].sql).toMatch(/if \(auth\.uid\(\) is null\) then/);
    // The third guard is the PR-handler check: dropped, VS staff soft-delete PR tickets.
    expect(mutants.find((m) => m.name === 'if-guard-drop-soft-delete-pr-ticket-3')?.description).toMatch(/`not public\.current_user_is_pr_handler\(\)` never holds/);
    const guarded = new Set(mutants.filter((m) => m.kind === 'if-guard').map((m) => m.target));
    expect([...guarded].some((t) => /current_user_role|get_pr_ticket_by_id/.test(t))).toBe(false);
    expect(guarded).toContain('private.guard_users_owner_update()');
  });

  it('have unique names', () => {
    expect(new Set(mutants.map((m) => m.name)).size).toBe(mutants.length);
  });

  it('each applies cleanly on top of the migrations', async () => {
    const client = new pg.Client({ connectionString: env.template.url });
    await client.connect();
    try {
      for (const m of mutants) {
        await client.query('begin');
        try {
          await client.query(m.sql);
        } catch (e) {
          throw new Error(`${m.name} does not apply: ${(e as Error).message}\n${m.sql}`);
        } finally {
          await client.query('rollback');
        }
      }
    } finally {
      await client.end();
    }
  });
});

describe('a policy for a role no API request acts as', () => {
  it("its clauses' variants are equivalent (no request meets them), its widening is not; a role authenticated is a member of stays reachable", async () => {
    // Re-created after Tambo: its server's own role (`create role project_api_key`, granted to postgres only) with policies reading a setting no request sets.
    const client = env.workers[0].client;
    const suffix = `${process.pid}_${Date.now()}`;
    const [server, team] = [`e_server_${suffix}`, `e_team_${suffix}`];
    await client.query('begin');
    try {
      await client.query(`create schema e_roles; create table e_roles.t (id int primary key, project_id text, owner uuid);
        alter table e_roles.t enable row level security; grant select, insert, update, delete on e_roles.t to anon, authenticated;
        create role ${server} nologin; create role ${team} nologin; grant ${team} to authenticated;
        create policy by_key on e_roles.t for select to ${server} using (project_id = current_setting('request.apikey.project_id'));
        create policy by_team on e_roles.t for select to ${team} using ((project_id = 'p') and (owner = auth.uid()));`);
      const derived = deriveMutants(await readCatalog(client, ['e_roles']));
      const of = (policy: string) => derived.filter((m) => m.name.includes(`-${policy.replace('_', '-')}`));
      expect(of('by_key').filter((m) => m.kind !== 'widen-roles').map((m) => m.equivalent)).toEqual([expect.stringMatching(new RegExp(`by_key applies only to ${server}, a role no API request acts as`))]);
      expect(of('by_key').find((m) => m.kind === 'widen-roles')?.equivalent).toBeUndefined();
      expect(of('by_team').filter((m) => m.kind === 'drop-conjunct').map((m) => m.equivalent)).toEqual([undefined, undefined]);
    } finally {
      await client.query('rollback');
    }
  });
});
