/**
 * The helper functions the rules are written with (current_user_role, current_user_dept,
 * current_user_is_staff, current_user_has_permission, …), as pure functions of the world.
 * They fail closed: no session, no users row or a null role yields null / false.
 */
import type { Json, Row } from '../../../engine/model/json.ts';
import type { RuleContext } from '../../../engine/model/table-model.ts';
import { rowsOf } from '../../../engine/model/world.ts';

export function currentUserRow(ctx: RuleContext): Row | undefined {
  if (ctx.uid === null) return undefined;
  // settings.anonymousSignIns: an anonymous sign-in's users row counts for nothing under 'no-role'.
  if (ctx.caller.kind === 'user' && ctx.caller.isAnonymous && ctx.settings.anonymousSignIns === 'no-role') return undefined;
  return rowsOf(ctx.world, 'users').find((u) => u.id === ctx.uid);
}

export function currentUserRole(ctx: RuleContext): string | null {
  const role = currentUserRow(ctx)?.role;
  return typeof role === 'string' ? role : null;
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
  return role !== null && ctx.settings.adminRoles.includes(role);
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
