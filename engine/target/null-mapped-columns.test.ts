/**
 * Re-created after stranger-app-5: public comments kept in their own table, so
 * `vs_tickets.public_comments` is mapped to null; the world's comments were never written, yet the
 * model answered them in get_public_vs_problem (R07, R13 "returned rows differ").
 */
import { describe, expect, it } from 'vitest';
import { referencePack } from '../../packs/reference/index.ts';
import type { World } from '../model/world.ts';
import { nullMappedListsAtDefault } from './null-mapped-columns.ts';

const mapping = { tables: { vs_tickets: { columns: { public_comments: null, submitter_label: null } } } };

describe('a list column the target keeps elsewhere', () => {
  it('is taken at the model default (empty) in the world; a scalar mapped to null (a label a rule compares) keeps its value', () => {
    const world: World = { vs_tickets: [{ id: 'VS-1', submitter_label: 'Student 9', public_comments: [{ by: 'member', body: 'same here' }] }] };
    expect(nullMappedListsAtDefault(world, mapping, referencePack.model).vs_tickets).toEqual([{ id: 'VS-1', submitter_label: 'Student 9', public_comments: [] }]);
  });

  it('a world holding the default already, or no mapping, is the same object', () => {
    const world: World = { vs_tickets: [{ id: 'VS-1', public_comments: [] }] };
    expect(nullMappedListsAtDefault(world, mapping, referencePack.model)).toBe(world);
    expect(nullMappedListsAtDefault({ vs_tickets: [{ id: 'VS-1', public_comments: [{ body: 'x' }] }] }, undefined, referencePack.model).vs_tickets[0].public_comments).toEqual([{ body: 'x' }]);
  });
});
