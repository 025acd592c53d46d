/** Every table the model knows, by name (`schema.table` outside public), and the order fixtures are written in. */
import type { TableModel } from '../table-model.ts';
import { usersTable } from './users.ts';

export const tableModels: Record<string, TableModel> = {
  [usersTable.table]: usersTable,
};

/** Foreign-key order: a row's references are written before it. */
export const fixtureOrder: readonly string[] = ['auth.users', 'users'];
