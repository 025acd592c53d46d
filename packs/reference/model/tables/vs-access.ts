/**
 * Who handles VS tickets (settings.vs), stated once for the table rules and the functions:
 * - a VS handler has a non-null role that is a handler role, or holds the `vs` permission;
 * - dept-scoped handlers (vp_admin, and handlers only through the permission unless
 *   vs.permissionScope is every-department) act only on tickets whose target_dept equals their
 *   own department (none when it is null);
 * - the other handlers act on every department.
 * All fail closed: no session, no users row or a null role is never a handler (rule 8).
 */
import { currentUserDept, currentUserHasPermission, currentUserIsStaff, currentUserRole } from '../identity.ts';
import { decide, take } from '../branches.ts';
import type { Json } from '../../../../engine/model/json.ts';
import type { RuleContext } from '../../../../engine/model/table-model.ts';

export function isVsHandler(ctx: RuleContext): boolean {
  const role = currentUserRole(ctx);
  if (role === null) return false;
  return ctx.settings.vs.handlerRoles.includes(role) || currentUserHasPermission(ctx, ctx.settings.vs.handlerPermission);
}

/** Handlers whose scope is every department: by role, or by the permission where settings.vs.permissionScope says so. */
export function isUnrestrictedVsHandler(ctx: RuleContext): boolean {
  const role = currentUserRole(ctx);
  if (!isVsHandler(ctx) || role === null || ctx.settings.vs.deptScopedRoles.includes(role)) return false;
  return ctx.settings.vs.handlerRoles.includes(role) || ctx.settings.vs.permissionScope === 'every-department';
}

/** Rule 9: is a ticket of this department within the caller's handler scope? */
export function vsInScope(ctx: RuleContext, targetDept: Json | undefined): boolean {
  if (!isVsHandler(ctx)) return false;
  if (isUnrestrictedVsHandler(ctx)) return take('R09.scope.unrestricted'), true;
  const dept = currentUserDept(ctx);
  if (dept === null) return take('R09.scope.no-dept'), false;
  return decide(typeof targetDept === 'string' && targetDept === dept, 'R09.scope.own-dept', 'R09.scope.other-dept');
}

/** The DELETE policy's predicate (re-checked by soft_delete_vs_ticket). */
export function vsCanDelete(ctx: RuleContext, targetDept: Json | undefined): boolean {
  return currentUserIsStaff(ctx) && vsInScope(ctx, targetDept);
}
