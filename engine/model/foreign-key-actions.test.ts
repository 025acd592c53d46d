/** ON DELETE as the model applies it (pure): cascades recurse, restricting keys are judged on what remains. */
import { describe, expect, it } from 'vitest';
import { afterDelete, type ForeignKeyAction } from './foreign-key-actions.ts';
import { predictTableRequest } from './engine.ts';
import type { TableModel } from './table-model.ts';

const fk = (table: string, references: string, onDelete: ForeignKeyAction['onDelete'], extra: Partial<ForeignKeyAction> = {}): ForeignKeyAction => ({ table, column: 'parent_id', references, referencedColumn: 'id', onDelete, ...extra });

describe('afterDelete', () => {
  it('cascades through grandchildren and nulls what a SET NULL key names, leaving other rows alone', () => {
    const world = { a: [{ id: 2 }], b: [{ id: 10, parent_id: 1 }, { id: 20, parent_id: 2 }], c: [{ id: 100, parent_id: 10 }, { id: 200, parent_id: 20 }], d: [{ id: 7, parent_id: 10 }] };
    const after = afterDelete(world, 'a', [{ id: 1 }], [fk('b', 'a', 'cascade'), fk('c', 'b', 'cascade'), fk('d', 'b', 'set null')]);
    expect(after).toEqual({ world: { a: [{ id: 2 }], b: [{ id: 20, parent_id: 2 }], c: [{ id: 200, parent_id: 20 }], d: [{ id: 7, parent_id: null }] } });
  });

  it('a NO ACTION key refuses only when a row still references a removed key at the end; a deferred one is left to the commit', () => {
    const world = { a: [], b: [{ id: 10, parent_id: 1 }], p: [{ id: 5, parent_id: 10 }] };
    expect(afterDelete(world, 'a', [{ id: 1 }], [fk('b', 'a', 'no action')])).toEqual({ violation: fk('b', 'a', 'no action') });
    // A row the cascade removes is still guarded by the keys that reference it.
    expect(afterDelete(world, 'a', [{ id: 1 }], [fk('p', 'b', 'restrict'), fk('b', 'a', 'cascade')])).toEqual({ violation: fk('p', 'b', 'restrict') });
    expect(afterDelete({ a: [], b: [{ id: 10, parent_id: 1 }] }, 'a', [{ id: 1 }], [fk('b', 'a', 'no action', { deferred: true })])).toEqual({ world: { a: [], b: [{ id: 10, parent_id: 1 }] } });
  });

  it("a SET NULL is not predicted on a table whose model has a BEFORE UPDATE trigger (a guard may refuse it or not): the row stays", () => {
    const table = (name: string, guarded: boolean): TableModel => ({
      table: name,
      columns: [{ name: 'id', type: 'integer', nullable: false }, { name: 'parent_id', type: 'integer', nullable: true }],
      primaryKey: ['id'],
      grants: { anon: [], authenticated: ['select', 'delete'] },
      rowSecurity: false,
      rules: {},
      ...(guarded ? { beforeUpdate: () => ({ reject: { kind: 'raised', code: 'P0001' } as never }) } : {}),
    });
    const tables = { a: table('a', false), b: table('b', true), c: table('c', false) };
    const world = { a: [{ id: 1, parent_id: null }], b: [{ id: 10, parent_id: 1 }], c: [{ id: 20, parent_id: 1 }] };
    const del = { kind: 'delete' as const, table: 'a', filters: [{ column: 'id', op: 'eq' as const, value: 1 }], returning: 'minimal' as const };
    const p = predictTableRequest(tables.a, world, { kind: 'service' }, del, {}, tables, undefined, [fk('b', 'a', 'set null'), fk('c', 'a', 'set null')]);
    expect(p.world).toEqual({ a: [], b: [{ id: 10, parent_id: 1 }], c: [{ id: 20, parent_id: null }] });
  });
});
