/**
 * vs_categories (spec §2; rules 8, 13): readable by everyone. A flag that is null counts as
 * unknown, so as confidential and not public-eligible; a category id that does not resolve
 * counts the same (vsCategoryPublic).
 */
import { take } from '../branches.ts';
import type { Json } from '../../../../engine/model/json.ts';
import type { TableModel } from '../../../../engine/model/table-model.ts';
import type { World } from '../../../../engine/model/world.ts';
import { rowsOf } from '../../../../engine/model/world.ts';

export const vsCategoriesTable: TableModel = {
  table: 'vs_categories',
  columns: [
    { name: 'id', type: 'text', nullable: false },
    { name: 'name', type: 'text', nullable: false, default: '' },
    { name: 'is_confidential', type: 'boolean', nullable: true, default: true },
    { name: 'public_eligible', type: 'boolean', nullable: true, default: false },
  ],
  primaryKey: ['id'],
  grants: { anon: ['select'], authenticated: ['select'] },
  rowSecurity: true,
  rules: {
    select: () => true,
  },
};

/** Rules 8 and 13: the category exists, is known not confidential and known public-eligible. */
export function vsCategoryPublic(world: World, category: Json | undefined): boolean {
  if (typeof category !== 'string') return take('R13.category.none'), false;
  const c = rowsOf(world, 'vs_categories').find((r) => r.id === category);
  // Each flag on its own: null is unknown, which counts as the unsafe value.
  if (c === undefined) return take('R13.category.unknown'), false;
  if (c.is_confidential !== false) return take(c.is_confidential === true ? 'R13.category.confidential' : 'R13.category.confidential-null'), false;
  if (c.public_eligible !== true) return take(c.public_eligible === false ? 'R13.category.not-eligible' : 'R13.category.eligible-null'), false;
  take('R13.category.public');
  return true;
}
