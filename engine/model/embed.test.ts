/**
 * PostgREST v12.2's relationship rule (SchemaCache.hs allM2OandO2ORels, addInverseRels;
 * Relationship.hs relIsToOne) and an embed's order=, on the model's side.
 */
import { describe, expect, it } from 'vitest';
import { couldBeSorted, foreignKeyEdge, resolveRelationship, sortRows } from './embed.ts';
import { predictTableRequest } from './engine.ts';
import type { TableModel } from './table-model.ts';

describe('relationships', () => {
  const seatKey = { columns: ['org', 'team'], references: 'teams', referencedColumns: ['org', 'id'] };

  it('a foreign key is one-to-one when its columns, as a set, are the primary key or a UNIQUE constraint of its table', () => {
    expect(foreignKeyEdge('seats', seatKey, [['id']]).unique).toBeUndefined();
    expect(foreignKeyEdge('seats', seatKey, [['id'], ['team', 'org']]).unique).toBe(true);
    // A superset is not the key: (org, team, id) unique says nothing of (org, team).
    expect(foreignKeyEdge('seats', seatKey, [['org', 'team', 'id']]).unique).toBeUndefined();
    expect(foreignKeyEdge('badges', { column: 'board_id', references: 'boards', referencedColumn: 'id' }, [['id'], ['board_id']])).toEqual({ table: 'badges', columns: ['board_id'], references: 'boards', referencedColumns: ['id'], unique: true, name: 'badges_board_id_fkey' });
  });

  it('embedding the referencing table is to-many unless its key is unique; the referenced one is always to-one', () => {
    const many = foreignKeyEdge('seats', seatKey, [['id']]);
    expect(resolveRelationship([many], 'teams', 'seats')).toMatchObject({ kind: 'O2M', toOne: false, table: 'seats', parentColumns: ['org', 'id'], embeddedColumns: ['org', 'team'] });
    expect(resolveRelationship([many], 'seats', 'teams')).toMatchObject({ kind: 'M2O', toOne: true, table: 'teams', parentColumns: ['org', 'team'], embeddedColumns: ['org', 'id'] });
    expect(resolveRelationship([{ ...many, unique: true }], 'teams', 'seats')).toMatchObject({ kind: 'O2O', toOne: true });
    expect(resolveRelationship([many, { ...many, columns: ['org', 'other_team'], name: 'seats_org_other_team_fkey' }], 'teams', 'seats')).toMatchObject({ code: 'PGRST201' });
    expect(resolveRelationship([many], 'teams', 'boards')).toEqual({ code: 'PGRST200' });
  });

  it('a child row pairs when every key column equals; a null in the key pairs with nothing', () => {
    const int = (name: string) => ({ name, type: 'integer' as const, nullable: true });
    const teams: TableModel = { table: 'teams', columns: [int('org'), int('id')], primaryKey: ['org', 'id'], grants: { anon: ['select'], authenticated: [] }, rowSecurity: false, rules: {} };
    const seats: TableModel = { table: 'seats', columns: [int('id'), int('org'), int('team')], primaryKey: ['id'], grants: { anon: ['select'], authenticated: [] }, rowSecurity: false, rules: {}, foreignKeys: [seatKey] };
    const world = { teams: [{ org: 1, id: 1 }, { org: null, id: 2 }], seats: [{ id: 1, org: 1, team: 1 }, { id: 2, org: 2, team: 1 }, { id: 3, org: null, team: 2 }] };
    const read = predictTableRequest(teams, world, { kind: 'anon' }, { kind: 'select', table: 'teams', columns: ['id'], filters: [], embeds: [{ table: 'seats', columns: ['id'] }] }, undefined, { teams, seats }).outcome;
    expect(read).toMatchObject({ kind: 'allowed', rows: [{ id: 1, seats: [{ id: 1 }] }, { id: 2, seats: [] }] });
  });
});

describe('order=', () => {
  const rows = [{ id: 1, rank: 2 }, { id: 2, rank: null }, { id: 3, rank: 10 }];
  const ids = (r: { id?: unknown }[]) => r.map((x) => x.id);

  it('sorts as Postgres: numbers by value, nulls last ascending and first descending unless told', () => {
    expect(ids(sortRows(rows, [{ column: 'rank' }]))).toEqual([1, 3, 2]);
    expect(ids(sortRows(rows, [{ column: 'rank', direction: 'desc' }]))).toEqual([2, 3, 1]);
    expect(ids(sortRows(rows, [{ column: 'rank', direction: 'desc', nulls: 'last' }]))).toEqual([3, 1, 2]);
    expect(ids(sortRows(rows, [{ column: 'rank', nulls: 'first' }]))).toEqual([2, 1, 3]);
  });

  it('sorts a uuid by its bytes (lower-case hex), text by code point (C collation), ties by the next term', () => {
    const u = [{ id: 'B0000000-0000-4000-8000-000000000000' }, { id: 'a0000000-0000-4000-8000-000000000000' }, { id: '10000000-0000-4000-8000-000000000000' }];
    expect(ids(sortRows(u, [{ column: 'id' }]))).toEqual([u[2].id, u[1].id, u[0].id]);
    expect(ids(sortRows([{ id: 1, t: 'b' }, { id: 2, t: 'B' }, { id: 3, t: 'a' }], [{ column: 't' }]))).toEqual([2, 3, 1]);
    expect(ids(sortRows([{ id: 1, a: 1, b: 1 }, { id: 2, a: 1, b: 2 }, { id: 3, a: 0, b: 3 }], [{ column: 'a' }, { column: 'b', direction: 'desc' }]))).toEqual([3, 2, 1]);
  });

  it('text under a collation not known: any order some collation gives, the known terms and nulls still holding', () => {
    const t = (...values: (string | null)[]) => values.map((v, i) => ({ id: i, t: v }));
    const byT = [{ column: 't' }];
    expect(couldBeSorted(t('a', 'b', 'B'), byT, ['t'])).toBe(true);
    expect(couldBeSorted(t('B', 'a', 'b'), byT, ['t'])).toBe(true);
    expect(couldBeSorted(t('a', 'b', 'B'), byT, [])).toBe(false); // C: 'B' first
    expect(couldBeSorted(t('a', 'a', 'b'), byT, ['t'])).toBe(true);
    expect(couldBeSorted(t('a', 'b', 'a'), byT, ['t'])).toBe(false); // 'a' both before and after 'b'
    expect(couldBeSorted(t(null, 'a'), byT, ['t'])).toBe(false); // nulls last ascending, whatever the collation
    const rows = (...pairs: [string, number][]) => pairs.map(([s, n]) => ({ t: s, n }));
    const byTThenN = [{ column: 't' }, { column: 'n' }];
    // An unknown first term decides the pair: the second says nothing about it…
    expect(couldBeSorted(rows(['x', 2], ['y', 1]), byTThenN, ['t'])).toBe(true);
    // …but decides ties of the first.
    expect(couldBeSorted(rows(['x', 2], ['x', 1]), byTThenN, ['t'])).toBe(false);
    const byNThenT = [{ column: 'n' }, { column: 't' }];
    // One collation for the column: p before q for n = 1 and q before p for n = 2 cannot both be.
    expect(couldBeSorted(rows(['p', 1], ['q', 1], ['q', 2], ['p', 2]), byNThenT, ['t'])).toBe(false);
    expect(couldBeSorted(rows(['q', 1], ['p', 2], ['q', 2]), byNThenT, ['t'])).toBe(true);
    expect(couldBeSorted(rows(['q', 2], ['p', 1]), byNThenT, ['t'])).toBe(false);
  });

  it("the model's embedded array comes in the embed's order, under the child's row rules; an unknown order column is 42703", () => {
    const parent: TableModel = { table: 'boards', columns: [{ name: 'id', type: 'integer', nullable: false }], primaryKey: ['id'], grants: { anon: ['select'], authenticated: [] }, rowSecurity: false, rules: {} };
    const child: TableModel = {
      table: 'cards',
      columns: [{ name: 'id', type: 'integer', nullable: false }, { name: 'board_id', type: 'integer', nullable: false }, { name: 'rank', type: 'integer', nullable: true }],
      primaryKey: ['id'],
      grants: { anon: ['select'], authenticated: [] },
      rowSecurity: true,
      rules: { select: (r) => r.id !== 3 },
      foreignKeys: [{ column: 'board_id', references: 'boards', referencedColumn: 'id' }],
    };
    const world = { boards: [{ id: 1 }], cards: [{ id: 1, board_id: 1, rank: 1 }, { id: 2, board_id: 1, rank: 5 }, { id: 3, board_id: 1, rank: 9 }] };
    const tables = { boards: parent, cards: child };
    const read = (order: { column: string; direction?: 'desc' }[]) => predictTableRequest(parent, world, { kind: 'anon' }, { kind: 'select', table: 'boards', columns: '*', filters: [], embeds: [{ table: 'cards', columns: ['id'], order }] }, undefined, tables).outcome;
    expect(read([{ column: 'rank', direction: 'desc' }])).toMatchObject({ kind: 'allowed', rows: [{ id: 1, cards: [{ id: 2 }, { id: 1 }] }] });
    expect(read([{ column: 'nope' }])).toMatchObject({ kind: 'error', code: '42703' });
  });
});
