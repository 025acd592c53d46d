/**
 * Re-created after stranger-app-5: `vs_tickets.category bigint references vs_categories on delete
 * set null` and `submitter_id references profiles on delete set null`. Worlds naming a category or
 * a submitter they lack (rule 8's unresolvable category, a caller with no users row) were dropped:
 * 2,000+ cases across R01, R03, R06, R08, R09, R12–R14. The target holds such a ticket only with
 * the reference null, the state its own action leaves: the case is taken so, for both sides.
 */
import { describe, expect, it } from 'vitest';
import type { ColumnShape, TableShapes } from '../introspection/table-shapes.ts';
import type { ApiRequest } from '../model/request.ts';
import type { World } from '../model/world.ts';
import { sendableCase, type FixturePlan } from './fixtures.ts';
import { danglingSetNullCleared } from './set-null-references.ts';

const col = (name: string, more: Partial<ColumnShape> = {}): ColumnShape => ({ name, type: 'text', notNull: false, hasDefault: false, generated: false, unique: false, ...more });
const shapes: TableShapes = new Map([
  ['profiles', [col('id', { type: 'uuid', notNull: true, primaryKey: true, unique: true })]],
  ['vs_categories', [col('id', { type: 'citext', notNull: true, primaryKey: true, unique: true })]],
  [
    'vs_tickets',
    [
      col('id', { primaryKey: true, notNull: true }),
      col('submitter_id', { type: 'uuid', references: { table: 'profiles', column: 'id', onDelete: 'set null' } }),
      col('category', { type: 'bigint', references: { table: 'vs_categories', column: 'id', onDelete: 'set null' } }),
      col('duplicate_of', { references: { table: 'vs_tickets', column: 'id', onDelete: 'restrict' } }),
    ],
  ],
  ['shop_orders', [col('id', { primaryKey: true }), col('buyer_id', { type: 'uuid', notNull: true, references: { table: 'profiles', column: 'id', onDelete: 'cascade' } })]],
]);
const mapping = { tables: { users: { name: 'profiles' } } };

describe('a dangling `on delete set null` reference', () => {
  it('is taken as null (the model names; a mapped parent table); a held reference stays', () => {
    const world: World = {
      users: [{ id: 'u1' }],
      vs_categories: [{ id: 'wifi' }],
      vs_tickets: [
        { id: 'VS-1', submitter_id: 'u1', category: 'WIFI', duplicate_of: null },
        { id: 'VS-2', submitter_id: 'u2', category: 'exam', duplicate_of: null },
      ],
    };
    expect(danglingSetNullCleared(world, shapes, mapping).vs_tickets).toEqual([
      { id: 'VS-1', submitter_id: 'u1', category: 'WIFI', duplicate_of: null },
      { id: 'VS-2', submitter_id: null, category: null, duplicate_of: null },
    ]);
  });

  it('a text key folds no case: `WIFI` dangles where only `wifi` is held (citext, above, holds it)', () => {
    const textKeyed: TableShapes = new Map([...shapes, ['vs_categories', [col('id', { type: 'text', notNull: true, primaryKey: true, unique: true })]]]);
    expect(danglingSetNullCleared({ vs_categories: [{ id: 'wifi' }], vs_tickets: [{ id: 'VS-1', category: 'WIFI' }] }, textKeyed, mapping).vs_tickets).toEqual([{ id: 'VS-1', category: null }]);
  });

  it('a parent table the world has no rows of leaves every reference to it null', () => {
    expect(danglingSetNullCleared({ vs_tickets: [{ id: 'VS-1', category: 'wifi' }] }, shapes, mapping).vs_tickets).toEqual([{ id: 'VS-1', category: null }]);
  });

  it('a NOT NULL, cascading or restricting key is left for its case to be dropped; a world with none dangling is the same object', () => {
    const world: World = { users: [], vs_tickets: [{ id: 'VS-1', duplicate_of: 'VS-9' }], shop_orders: [{ id: 'o', buyer_id: 'u2' }] };
    expect(danglingSetNullCleared(world, shapes, mapping)).toBe(world);
  });

  it('sendableCase sends (and the model predicts) the case so', () => {
    const plan: FixturePlan = { users: 'direct', bypassTriggers: false, shapes, mapping };
    const read: ApiRequest = { kind: 'select', table: 'vs_tickets', columns: '*', filters: [] };
    const given = { world: { users: [], vs_tickets: [{ id: 'VS-1', submitter_id: 'u2' }] } as World, steps: [{ request: read }] };
    expect(sendableCase(plan, given).testCase?.world.vs_tickets).toEqual([{ id: 'VS-1', submitter_id: null }]);
  });
});
