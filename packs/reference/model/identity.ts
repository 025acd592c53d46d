/**
 * The helper functions the rules are written with (current_user_role, current_user_dept,
 * current_user_is_staff, current_user_has_permission, …), as pure functions of the world.
 * They fail closed: no session, no users row or a null role yields null / false.
 */
import { decide, take } from './branches.ts';
import type { Json, Row } from '../../../engine/model/json.ts';
import type { RuleContext } from '../../../engine/model/table-model.ts';
import { rowsOf } from '../../../engine/model/world.ts';

export function currentUserRow(ctx: RuleContext): Row | undefined {
  if (ctx.uid === null) return take('R08.identity.no-session'), undefined;
  // settings.anonymousSignIns: an anonymous sign-in's users row counts for nothing under 'no-role'.
  if (ctx.caller.kind === 'user' && ctx.caller.isAnonymous) {
    take('R08.identity.anonymous');
    if (ctx.settings.anonymousSignIns === 'no-role') return undefined;
  }
  const row = rowsOf(ctx.world, 'users').find((u) => u.id === ctx.uid);
  if (!row) take('R08.identity.no-users-row');
  return row;
}

export function currentUserRole(ctx: RuleContext): string | null {
  const row = currentUserRow(ctx);
  if (!row) return null;
  return decide(typeof row.role === 'string', 'R08.role.set', 'R08.role.null') ? (row.role as string) : null;
}

export function currentUserDept(ctx: RuleContext): string | null {
  const dept = currentUserRow(ctx)?.department;
  return typeof dept === 'string' ? dept : null;
}

export function currentUserIsStaff(ctx: RuleContext): boolean {
  const role = currentUserRole(ctx);
  return role !== null && ctx.settings.staffRoles.includes(role);
}

export function currentUserIsAdmin(ctx: RuleContext): boolean {
  const role = currentUserRole(ctx);
  if (role === null) return false;
  if (ctx.settings.adminRoles.includes(role)) return true;
  const permission = ctx.settings.adminPermission;
  return permission !== null && currentUserHasPermission(ctx, permission);
}

function asList(v: Json | undefined): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * The effective permission set is the union of permissions and managed_permissions (spec §1),
 * widened by settings.permissionImplies (a held permission implying others, `*` every one).
 */
export function currentUserHasPermission(ctx: RuleContext, permission: string): boolean {
  const row = currentUserRow(ctx);
  if (!row) return false;
  const held = [...asList(row.permissions), ...asList(row.managed_permissions)];
  return held.some((p) => p === permission || (ctx.settings.permissionImplies[p] ?? []).some((implied: string) => implied === '*' || implied === permission));
}
