/** Every table the model knows, by name (`schema.table` outside public), and the order fixtures are written in. */
import type { TableModel } from '../../../../engine/model/table-model.ts';
import { usersTable, usersGuard } from './users.ts';
import { prTicketsGuard, prTicketsTable } from './pr-tickets.ts';
import { shopOrdersGuard, shopOrdersTable } from './shop-orders.ts';
import type { OwnerGuard } from '../../../../engine/model/owner-guard.ts';
import { projectTables } from './projects.ts';
import { teamMembersTable, teamNodesTable } from './team.ts';
import { studentTables } from './student.ts';
import { identityConflictsTable } from './identity-conflicts.ts';
import { passportTables } from './passport.ts';
import { vsCategoriesTable } from './vs-categories.ts';
import { vsTicketsGuard, vsTicketsTable } from './vs-tickets.ts';

export const tableModels: Record<string, TableModel> = {
  [usersTable.table]: usersTable,
  [prTicketsTable.table]: prTicketsTable,
  [shopOrdersTable.table]: shopOrdersTable,
  [vsCategoriesTable.table]: vsCategoriesTable,
  [vsTicketsTable.table]: vsTicketsTable,
  ...Object.fromEntries([...projectTables, teamNodesTable, teamMembersTable, ...studentTables, identityConflictsTable, ...passportTables].map((t) => [t.table, t])),
};

/** Foreign-key order: a row's references are written before it. */
export const fixtureOrder: readonly string[] = ['auth.users', 'users', 'pr_tickets', 'shop_orders', 'vs_categories', 'vs_tickets',
  'projects', 'project_documents', 'project_files', 'project_sign_requests', 'project_settings',
  'team_nodes', 'team_members', 'student_records', 'student_change_requests', 'identity_conflicts', 'passport.profiles'];

/**
 * Rule 1: every table whose owner may update their own row, with its owner guard. R01 is generic
 * over this list: a table added here is fuzzed with PATCHes of any subset of its columns.
 */
export const ownerGuardedTables: { table: string; guard: OwnerGuard }[] = [
  { table: 'users', guard: usersGuard },
  { table: 'pr_tickets', guard: prTicketsGuard },
  { table: 'shop_orders', guard: shopOrdersGuard },
  { table: 'vs_tickets', guard: vsTicketsGuard },
];
