/**
 * PR ticket functions (spec §4.2; rules 7, 8, 14) and the PR/shop policy helpers.
 * - get_pr_ticket_by_id(p_id): anon and signed in; case-insensitive exact match on the id after
 *   trimming whitespace (both sides); no pattern matching; deleted tickets excluded; returns
 *   the sanitized row {id, submitter_label, brief, file_url, status}.
 * - soft_delete_pr_ticket(p_id): signed-in staff only (null role rejected, NOT_AUTHORIZED),
 *   then the DELETE policy's predicate (a PR handler) re-checked; sets deleted_at of the live
 *   ticket whose id equals p_id exactly; answers whether one was deleted.
 */
import { callerUid } from '../../../../engine/model/caller.ts';
import type { FunctionModel, PrivateFunction } from '../../../../engine/model/function-model.ts';
import { currentUserIsStaff, currentUserRole } from '../identity.ts';
import type { Json, Row } from '../../../../engine/model/json.ts';
import { allowed } from '../../../../engine/model/outcome.ts';
import { NOT_FOUND_SETTING, notFoundAnswer, refusal } from '../refusals.ts';
import type { ModelSettings } from '../settings.ts';
import type { RuleContext } from '../../../../engine/model/table-model.ts';
import { isPrHandler } from '../tables/pr-tickets.ts';
import { isShopHandler } from '../tables/shop-orders.ts';
import { rowsOf, withRows } from '../../../../engine/model/world.ts';
import { helper } from './helpers.ts';
import { take } from '../branches.ts';
import { notDeleted } from '../soft-delete.ts';

/** What the model stores for deleted_at = now(); the column is server-assigned (never compared). */
export const SOFT_DELETED_AT = '2000-01-01T00:00:00+00:00';

/** Rule 14: the lookup key of a PR id — trimmed of settings.pr.trimmedCharacters, lower-cased. */
export function prLookupKey(id: string, settings: ModelSettings): string {
  const trim = new Set(settings.pr.trimmedCharacters);
  let start = 0;
  let end = id.length;
  while (start < end && trim.has(id[start])) start++;
  while (end > start && trim.has(id[end - 1])) end--;
  return id.slice(start, end).toLowerCase();
}

/** Rule 14: what made key `p` match one of the stored ids `ids` (a model branch). */
function prMatchBranch(p: string, ids: string[]) {
  if (ids.includes(p)) return 'R14.pr.exact' as const;
  if (ids.some((id) => id.toLowerCase() === p.toLowerCase())) return 'R14.pr.case-only' as const;
  const spaces = (s: string) => s.replace(/^ +| +$/g, '').toLowerCase();
  return ids.some((id) => spaces(id) === spaces(p)) ? ('R14.pr.trim-spaces' as const) : ('R14.pr.trim-control' as const);
}

export const getPrTicketById: FunctionModel = {
  name: 'get_pr_ticket_by_id',
  args: ['p_id'],
  executableBy: ['anon', 'authenticated', 'service_role'],
  rowsOf: 'pr_tickets',
  predict(world, _caller, args, settings) {
    const p = args.p_id;
    if (typeof p !== 'string') return { outcome: allowed([], 0), world };
    const key = prLookupKey(p, settings);
    const found = rowsOf(world, 'pr_tickets').filter((t) => notDeleted(t) && typeof t.id === 'string' && prLookupKey(t.id, settings) === key);
    take(found.length === 0 ? 'R14.pr.no-match' : prMatchBranch(p, found.map((t) => t.id as string)));
    const rows = found
      .map((t): Row => ({ id: t.id, submitter_label: t.submitter_label, brief: t.brief, file_url: t.file_url ?? null, status: t.status }));
    return { outcome: allowed(rows, rows.length), world };
  },
};

export const softDeletePrTicket: FunctionModel = {
  name: 'soft_delete_pr_ticket',
  args: ['p_id'],
  executableBy: ['authenticated', 'service_role'],
  outcomeSetting: NOT_FOUND_SETTING,
  predict(world, caller, args, settings) {
    const ctx: RuleContext = { world, caller, uid: callerUid(caller), settings };
    const denied = { outcome: refusal(settings, 'not-authorized', 'NOT_AUTHORIZED'), world };
    if (ctx.uid === null || currentUserRole(ctx) === null || !currentUserIsStaff(ctx) || !isPrHandler(ctx)) {
      take('R07.pr-delete.not-authorized');
      return denied;
    }
    const p: Json = args.p_id ?? null;
    const all = rowsOf(world, 'pr_tickets');
    const target = all.find((t) => notDeleted(t) && p !== null && t.id === p);
    take(target ? 'R07.pr-delete.deleted' : 'R07.pr-delete.not-found');
    if (!target) return { outcome: notFoundAnswer(settings, 'soft_delete_pr_ticket', 'soft delete: ticket not found'), world };
    const rows = all.map((t) => (t === target ? { ...t, deleted_at: SOFT_DELETED_AT } : t));
    return { outcome: allowed([{ value: true }], 1), world: withRows(world, 'pr_tickets', rows) };
  },
};

export const prFunctions: FunctionModel[] = [
  getPrTicketById,
  softDeletePrTicket,
  helper('current_user_is_pr_handler', (ctx) => isPrHandler(ctx)),
  helper('current_user_is_shop_handler', (ctx) => isShopHandler(ctx)),
];

export const prPrivateFunctions: PrivateFunction[] = [
  { name: 'private.guard_pr_tickets_owner_update', executableBy: [] },
  { name: 'private.guard_shop_orders_owner_update', executableBy: [] },
];
