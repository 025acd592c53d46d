/** Every table the model knows, by name (`schema.table` outside public), and the order fixtures are written in. */
import { grantsOf, type Grants, type TableModel } from '../../../../engine/model/table-model.ts';
import type { ModelSettings } from '../settings.ts';
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

/** The table's grants: the reference's (its model), overridden per role by settings.tableGrants. */
function grantsFromSettings(model: TableModel<ModelSettings>): TableModel<ModelSettings> {
  const reference = grantsOf(model, undefined as never);
  return {
    ...model,
    grants: (settings: ModelSettings) => ({ ...reference, ...settings.tableGrants[model.table] }) as Grants,
    grantsSetting: `tableGrants.${model.table}`,
  };
}

export const tableModels: Record<string, TableModel> = Object.fromEntries(
  [usersTable, prTicketsTable, shopOrdersTable, vsCategoriesTable, vsTicketsTable, ...projectTables, teamNodesTable, teamMembersTable, ...studentTables, identityConflictsTable, ...passportTables].map((t) => [
    t.table,
    grantsFromSettings(t),
  ]),
);

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
