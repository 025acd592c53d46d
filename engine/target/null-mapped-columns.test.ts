/**
 * Re-created after stranger-app-5: public comments kept in their own table, so
 * `vs_tickets.public_comments` is mapped to null; the world's comments were never written, yet the
 * model answered them in get_public_vs_problem (R07, R13 "returned rows differ").
 */
import { describe, expect, it } from 'vitest';
import { referencePack } from '../../packs/reference/index.ts';
import type { World } from '../model/world.ts';
import { nullMappedColumnsAsHeld } from './null-mapped-columns.ts';

const mapping = { tables: { vs_tickets: { columns: { public_comments: null, submitter_label: null } } } };

describe('a list column the target keeps elsewhere', () => {
  it('is taken at the model default (empty) in the world; a scalar mapped to null (a label a rule compares) keeps its value', () => {
    const world: World = { vs_tickets: [{ id: 'VS-1', submitter_label: 'Student 9', public_comments: [{ by: 'member', body: 'same here' }] }] };
    expect(nullMappedColumnsAsHeld(world, mapping, referencePack.model).vs_tickets).toEqual([{ id: 'VS-1', submitter_label: 'Student 9', public_comments: [] }]);
  });

  it('a world holding the default already, or no mapping, is the same object', () => {
    const world: World = { vs_tickets: [{ id: 'VS-1', public_comments: [] }] };
    expect(nullMappedColumnsAsHeld(world, mapping, referencePack.model)).toBe(world);
    expect(nullMappedColumnsAsHeld({ vs_tickets: [{ id: 'VS-1', public_comments: [{ body: 'x' }] }] }, undefined, referencePack.model).vs_tickets[0].public_comments).toEqual([{ body: 'x' }]);
  });
});

/**
 * Re-created after stranger-app-9: `deleted_at` hidden behind a security_invoker view (mapped to
 * null), soft delete by rpc. A world's deleted ticket was written live, yet the model took it as
 * deleted: "rows touched: model 0, database 1" on a dev's PATCH of their own ticket (R01, R03, R06, R09).
 */
describe('a server-stamped state the target does not show', () => {
  const softDeleteHidden = { tables: { vs_tickets: { columns: { deleted_at: null, submitter_label: null } }, pr_tickets: { columns: { deleted_at: null } } } };

  it('is taken at null (the row as the target holds it: live); a scalar a client writes keeps its value', () => {
    const world: World = {
      vs_tickets: [{ id: 'VS-1', submitter_label: 'Student 9', deleted_at: '2024-03-01T09:00:00+00:00' }, { id: 'VS-2', submitter_label: 'Student 3', deleted_at: null }],
      pr_tickets: [{ id: 'PR-1', deleted_at: '2025-06-30T12:30:00+00:00' }],
    };
    const taken = nullMappedColumnsAsHeld(world, softDeleteHidden, referencePack.model);
    expect(taken.vs_tickets).toEqual([{ id: 'VS-1', submitter_label: 'Student 9', deleted_at: null }, { id: 'VS-2', submitter_label: 'Student 3', deleted_at: null }]);
    expect(taken.pr_tickets).toEqual([{ id: 'PR-1', deleted_at: null }]);
    expect(world.vs_tickets[0].deleted_at).toBe('2024-03-01T09:00:00+00:00');
  });

  it('a target that shows the stamp (mapped to a column, or not mapped) keeps the deleted rows', () => {
    const world: World = { vs_tickets: [{ id: 'VS-1', deleted_at: '2024-03-01T09:00:00+00:00' }] };
    expect(nullMappedColumnsAsHeld(world, { tables: { vs_tickets: { columns: { deleted_at: 'removed_at' } } } }, referencePack.model)).toBe(world);
    expect(nullMappedColumnsAsHeld(world, undefined, referencePack.model)).toBe(world);
  });
});
