/**
 * Silent-spec settings `policyfuzz init` reads off a function's body (Pack.sourceSettings), on
 * bodies written the way stranger-app-9 writes them: a ticket not found tested as the row
 * variable's key left null (`v_ticket.id is null`), a category compared by its key
 * (`category_id is not distinct from`), soft_delete raising on an id no live ticket has. Each was
 * proposed by none of the patterns, so the run failed on the model's defaults (R09, R14: "42501
 * where the model raises P0001/P0002", "P0002 on an unknown id where the model answers success").
 * The patterns are the ones init applies (engine/config/init.ts, case-insensitive as there).
 */
import { describe, expect, it } from 'vitest';
import { referencePack } from './index.ts';

/** The value init proposes at `path` from `fn`'s body, or undefined where no pattern matches. */
function proposed(path: string, fn: string, body: string): string | undefined {
  const reads = (referencePack.sourceSettings ?? []).filter((r) => r.path === path && 'fn' in r && r.fn === fn);
  expect(reads.length, `no sourceSettings entry for ${path} on ${fn}`).toBeGreaterThan(0);
  for (const read of reads) {
    const m = new RegExp(read.pattern, 'i').exec(body);
    if (m) return read.value ?? m[1];
  }
  return undefined;
}

const findSimilar = `
declare src core.tickets;
begin
  select * into src from core.tickets where core.tickets.id = p_id;
  if src.id is null or not core.handles(src.dept) then
    raise exception 'NOT_AUTHORIZED';
  end if;
  return query select o.id from core.tickets o
   where o.id <> src.id and o.category_id is not distinct from src.category_id;
end`;

const merge = `
begin
  select * into keep from core.tickets where id = p_keep;
  select * into dup from core.tickets where id = p_dup;
  if keep.id is null or dup.id is null then
    raise exception 'NOT_AUTHORIZED';
  end if;
end`;

const softDelete = `
begin
  update core.tickets set removed_at = now() where id = p_id and removed_at is null;
  if not found then raise exception 'no such ticket' using errcode = 'no_data_found'; end if;
end`;

describe('the leaderboard length a body states (stranger-app-12)', () => {
  const leaderboard = `
begin
  if auth.uid() is null or not public.current_user_is_admin() then raise exception 'NOT_AUTHORIZED' using errcode = '42501'; end if;
  return query select p.user_id, p.points from passport.profiles p order by p.points desc limit 100;
end`;
  it('is its last query’s limit, and none where the body states none', () => {
    expect(proposed('passport.leaderboardSize', 'passport.admin_leaderboard', leaderboard)).toBe('100');
    expect(proposed('passport.leaderboardSize', 'passport.admin_leaderboard', leaderboard.replace(' limit 100', ''))).toBeUndefined();
  });
});

describe('silent-spec settings read off a body (sourceSettings)', () => {
  it('find_similar_vs_tickets: a ticket whose key is null refused with the out-of-scope one, and an uncategorized ticket alike by its category key', () => {
    expect(proposed('vs.similarForUnhandledTicket', 'find_similar_vs_tickets', findSimilar)).toBe('refused');
    expect(proposed('vs.similarUncategorized', 'find_similar_vs_tickets', findSimilar)).toBe('alike');
  });

  it('merge_vs_tickets: a missing ticket refused as NOT_AUTHORIZED (refusals.notFoundAs)', () => {
    expect(proposed('refusals.notFoundAs.merge_vs_tickets', 'merge_vs_tickets', merge)).toBe('not-authorized');
    // The caller's own row missing refuses an unknown caller: no reading of a missing ticket.
    const callerOnly = merge.replace('if keep.id is null or dup.id is null then', 'if v_caller.id is null or not core.handles(keep.dept) then');
    expect(proposed('refusals.notFoundAs.merge_vs_tickets', 'merge_vs_tickets', callerOnly)).toBeUndefined();
  });

  it('soft_delete_*: raising on an id no live ticket has is refusals.notFound raise, per function', () => {
    expect(proposed('refusals.notFound.soft_delete_vs_ticket', 'soft_delete_vs_ticket', softDelete)).toBe('raise');
    expect(proposed('refusals.notFound.soft_delete_pr_ticket', 'soft_delete_pr_ticket', softDelete.replaceAll('core.tickets', 'core.requests'))).toBe('raise');
  });

  it('bodies that answer or test something else propose nothing', () => {
    const answers = `begin update app.vs_tickets set deleted_at = now() where id = p_id; return found; end`;
    expect(proposed('refusals.notFound.soft_delete_vs_ticket', 'soft_delete_vs_ticket', answers)).toBeUndefined();
    // A null category (not its comparison) and a null argument (not a row's key) are other tests.
    const other = `begin if p_id is null or not private.is_staff() then raise exception 'NOT_AUTHORIZED'; end if;
      return query select t.id from app.vs_tickets t where t.category_id = v.category_id; end`;
    expect(proposed('vs.similarForUnhandledTicket', 'find_similar_vs_tickets', other)).toBeUndefined();
    expect(proposed('vs.similarUncategorized', 'find_similar_vs_tickets', other)).toBeUndefined();
  });
});
