/**
 * users (spec §2; rules 1 and 2): a user reads their own row, staff read all; the owner or an
 * admin updates; the owner's changes are limited to the allow-list unless they are staff.
 */
import { take } from '../branches.ts';
import { currentUserIsAdmin, currentUserIsStaff } from '../identity.ts';
import { applyOwnerGuard, type OwnerGuard } from '../../../../engine/model/owner-guard.ts';
import type { TableModel } from '../../../../engine/model/table-model.ts';
import { refusal } from '../refusals.ts';

export const usersGuard: OwnerGuard = {
  table: 'users',
  isOwner: (row, ctx) => row.id === ctx.uid,
  isExempt: (_row, ctx) => currentUserIsStaff(ctx),
  // Rule 2 refuses non-staff; rule 1 exempts handlers and admins, and users has no handler: a
  // guard exempting admins only (refusing other staff their own role) is as secure.
  exemptionOptional: (_row, ctx) => !currentUserIsAdmin(ctx),
  editable: (ctx) => [...ctx.settings.users.ownerEditableColumns, ...ctx.settings.users.guardExcludedColumns],
  ownersCannotUpdate: (ctx) => ctx.settings.users.ownerEditableColumns.length === 0,
  refusal: (ctx, changed) => refusal(ctx.settings, 'privileged-column', `users: ${changed.join(', ')}`),
  // Rule 1's guard on users is rule 2's too (role is guarded): one decision, counted for both.
  branch: (decision) => {
    take(`R01.users.${decision}`);
    take(`R02.owner.${decision}`);
  },
};

export const usersTable: TableModel = {
  table: 'users',
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'email', type: 'text', nullable: false, format: 'email' },
    { name: 'display_name', type: 'text', nullable: true, default: null },
    { name: 'avatar_url', type: 'text', nullable: true, default: null },
    { name: 'phone', type: 'text', nullable: true, default: null, format: 'phone' },
    { name: 'role', type: 'text', nullable: true, default: 'user', check: (v, s) => typeof v === 'string' && s.roles.includes(v) },
    { name: 'department', type: 'text', nullable: true, default: null },
    { name: 'permissions', type: 'text[]', nullable: false, default: [] },
    { name: 'managed_permissions', type: 'text[]', nullable: false, default: [] },
    { name: 'updated_at', type: 'timestamptz', nullable: false, serverAssigned: true },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select', 'update'] },
  rowSecurity: true,
  rules: {
    select: (row, ctx) => row.id === ctx.uid || currentUserIsStaff(ctx),
    updateUsing: (row, ctx) => {
      const own = row.id === ctx.uid;
      const mayUpdate = own || currentUserIsAdmin(ctx);
      take(own ? 'R02.row.own' : mayUpdate ? 'R02.row.admin' : 'R02.row.other');
      return mayUpdate;
    },
    updateCheck: (row, ctx) => row.id === ctx.uid || currentUserIsAdmin(ctx),
  },
  beforeUpdate: (oldRow, newRow, ctx) => applyOwnerGuard(usersGuard, oldRow, newRow, ctx),
};
