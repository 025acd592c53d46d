import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedObjects, objectsInSql, touches } from './changed-since.ts';
import { tempDir } from '../../testing/temp-dir.ts';

describe('objects a migration touches', () => {
  it('finds tables, policies, triggers, grants, views and functions', () => {
    const sql = `
      create table if not exists public.orders (id int);
      alter table only "public"."users" add column nickname text;
      create policy orders_read on public.orders for select using (true);
      create trigger t before update on public.vs_tickets for each row execute function private.guard();
      grant select on table passport.profiles to authenticated;
      create or replace function public.get_pr_ticket_by_id(p_id text) returns setof pr_tickets language sql as $$ select 1 $$;
      revoke execute on function private.helper(uuid) from public;
      create view passport.user_tiers with (security_invoker = true) as select 1;
      -- create table commented_out (id int);
    `;
    expect(objectsInSql(sql)).toEqual(['get_pr_ticket_by_id', 'orders', 'passport.profiles', 'passport.user_tiers', 'private.helper', 'users', 'vs_tickets']);
  });

  it('a property is touched through its tables or functions', () => {
    expect(touches({ tables: ['users'], functions: [] }, ['users'])).toBe(true);
    expect(touches({ tables: ['pr_tickets'], functions: ['get_pr_ticket_by_id'] }, ['get_pr_ticket_by_id'])).toBe(true);
    expect(touches({ tables: ['shop_orders'] }, ['users'])).toBe(false);
  });

  it('on a mapped project, a property is touched through the target’s names of its tables and functions', () => {
    const mapping = { tables: { users: { name: 'members' } }, functions: { get_pr_ticket_by_id: { name: 'lookup_press_request' } } };
    expect(touches({ tables: ['users'] }, ['members'], mapping)).toBe(true);
    expect(touches({ tables: ['users'] }, ['users'], mapping)).toBe(false);
    expect(touches({ tables: ['pr_tickets'], functions: ['get_pr_ticket_by_id'] }, ['lookup_press_request'], mapping)).toBe(true);
  });

  it('reads the files changed since a git ref, committed or not', () => {
    const repo = tempDir('git');
    const dir = path.join(repo, 'migrations');
    mkdirSync(dir);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
    git('init', '-q');
    writeFileSync(path.join(dir, '001.sql'), 'create table public.users (id int);');
    git('add', '.');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'base');
    writeFileSync(path.join(dir, '002.sql'), 'create policy p on public.shop_orders using (true);');
    expect(changedObjects('HEAD', [dir]).objects).toEqual(['shop_orders']);
    expect(() => changedObjects('no-such-ref', [dir])).toThrow(/--changed-since: git diff/);
  });
});
