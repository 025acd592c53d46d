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

  // PostgREST v12.2.3: SchemaCache.hs addM2MRels (580-592), addInverseRels (573-577); Plan.hs findRel (528-606); Error.hs relHint (381-392).
  const key = (table: string, column: string, references: string, primaryKey: string[], name?: string) => foreignKeyEdge(table, { column, references, referencedColumn: 'id', ...(name ? { name } : {}) }, [primaryKey]);
  const postTags = [key('post_tags', 'post_id', 'posts', ['post_id', 'tag_id']), key('post_tags', 'tag_id', 'tags', ['post_id', 'tag_id'])];

  it('a table whose two foreign keys lie in its primary key is a junction: many-to-many both ways, joined through it', () => {
    expect(resolveRelationship(postTags, 'posts', 'tags')).toEqual({
      kind: 'M2M',
      toOne: false,
      table: 'tags',
      parentColumns: ['id'],
      embeddedColumns: ['id'],
      junction: { table: 'post_tags', columns: ['post_id'], targetColumns: ['tag_id'] },
      constraint: 'post_tags_post_id_fkey',
      self: false,
    });
    expect(resolveRelationship(postTags, 'tags', 'posts')).toMatchObject({ kind: 'M2M', junction: { table: 'post_tags', columns: ['tag_id'], targetColumns: ['post_id'] } });
    // A key outside the primary key (a surrogate id): no junction.
    const links = [key('post_links', 'post_id', 'posts', ['id']), key('post_links', 'tag_id', 'tags', ['id'])];
    expect(resolveRelationship(links, 'posts', 'tags')).toEqual({ code: 'PGRST200' });
    // A key that is unique on its own (one-to-one) is no side of a junction: addM2MRels pairs many-to-one keys.
    expect(resolveRelationship([{ ...postTags[0], unique: true }, postTags[1]], 'posts', 'tags')).toEqual({ code: 'PGRST200' });
    // The junction itself still embeds each side many-to-one, and is embedded one-to-many.
    expect(resolveRelationship(postTags, 'post_tags', 'tags')).toMatchObject({ kind: 'M2O', toOne: true });
    expect(resolveRelationship(postTags, 'posts', 'post_tags')).toMatchObject({ kind: 'O2M', toOne: false });
  });

  it('two relationships between the same tables: PGRST201 with every !hint, in the schema cache order; a hint picks one', () => {
    const edges = [...postTags, key('posts', 'cover_tag_id', 'tags', ['id'])];
    expect(resolveRelationship(edges, 'posts', 'tags')).toEqual({ code: 'PGRST201', hint: "Try changing 'tags' to one of the following: 'tags!posts_cover_tag_id_fkey', 'tags!post_tags'. Find the desired relationship in the 'details' key." });
    expect(resolveRelationship(edges, 'posts', 'tags', 'post_tags')).toMatchObject({ kind: 'M2M' });
    for (const hint of ['posts_cover_tag_id_fkey', 'cover_tag_id', 'id']) expect(resolveRelationship(edges, 'posts', 'tags', hint)).toMatchObject({ kind: 'M2O', parentColumns: ['cover_tag_id'] });
    expect(resolveRelationship(edges, 'posts', 'tags', 'nope')).toEqual({ code: 'PGRST200' });
    // Without a hint the target may name the constraint or the key's column (not for many-to-many).
    expect(resolveRelationship(edges, 'posts', 'cover_tag_id')).toMatchObject({ kind: 'M2O', table: 'tags' });
    expect(resolveRelationship(edges, 'posts', 'posts_cover_tag_id_fkey')).toMatchObject({ kind: 'M2O', table: 'tags' });
    // A constraint named by the model is the hint's name; the catalog's key ('public.tags') through qualify.
    const named = [key('posts', 'author', 'users', ['id'], 'posts_author_fk'), key('posts', 'editor', 'users', ['id'])];
    expect(resolveRelationship(named, 'posts', 'users', 'posts_author_fk')).toMatchObject({ parentColumns: ['author'] });
    const qualified = named.map((e) => ({ ...e, table: `public.${e.table}`, references: `public.${e.references}` }));
    expect(resolveRelationship(qualified, 'public.posts', 'users', undefined, (n) => `public.${n}`)).toEqual({ code: 'PGRST201', hint: "Try changing 'users' to one of the following: 'users!posts_author_fk', 'users!posts_editor_fkey'. Find the desired relationship in the 'details' key." });
  });

  it('a self-referencing key: the table name (or a hint naming its key column) is the children, the column as target the parent, a constraint hint nothing', () => {
    const tree = [key('categories', 'parent_id', 'categories', ['id'])];
    expect(resolveRelationship(tree, 'categories', 'categories')).toMatchObject({ kind: 'O2M', toOne: false, parentColumns: ['id'], embeddedColumns: ['parent_id'], self: true });
    expect(resolveRelationship(tree, 'categories', 'categories', 'parent_id')).toMatchObject({ kind: 'O2M' });
    expect(resolveRelationship(tree, 'categories', 'parent_id')).toMatchObject({ kind: 'M2O', toOne: true, parentColumns: ['parent_id'], embeddedColumns: ['id'] });
    expect(resolveRelationship(tree, 'categories', 'categories', 'categories_parent_id_fkey')).toEqual({ code: 'PGRST200' });
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

describe('many-to-many and top-level order= in the model', () => {
  const uuidless = (name: string, nullable = false) => ({ name, type: 'integer' as const, nullable });
  const table = (name: string, columns: string[], primaryKey: string[], extra: Partial<TableModel> = {}): TableModel => ({ table: name, columns: columns.map((c) => uuidless(c, c === 'rank')), primaryKey, grants: { anon: ['select'], authenticated: [] }, rowSecurity: false, rules: {}, ...extra });
  const tables = (junction: Partial<TableModel> = {}) => ({
    posts: table('posts', ['id', 'rank'], ['id']),
    tags: table('tags', ['id'], ['id'], { rowSecurity: true, rules: { select: (r) => r.id !== 3 } }),
    post_tags: table('post_tags', ['post_id', 'tag_id', 'by'], ['post_id', 'tag_id', 'by'], {
      foreignKeys: [{ column: 'post_id', references: 'posts', referencedColumn: 'id' }, { column: 'tag_id', references: 'tags', referencedColumn: 'id' }],
      ...junction,
    }),
  });
  const world = { posts: [{ id: 1, rank: 2 }, { id: 2, rank: null }, { id: 3, rank: 2 }], tags: [{ id: 1 }, { id: 2 }, { id: 3 }], post_tags: [{ post_id: 1, tag_id: 1, by: 1 }, { post_id: 1, tag_id: 1, by: 2 }, { post_id: 1, tag_id: 3, by: 1 }, { post_id: 2, tag_id: 2, by: 2 }] };
  const read = (t: Record<string, TableModel>, more: object = {}) => predictTableRequest(t.posts, world, { kind: 'anon' }, { kind: 'select', table: 'posts', columns: ['id'], filters: [], embeds: [{ table: 'tags', columns: ['id'] }], ...more }, undefined, t).outcome;

  it('a row per junction row the caller reads whose target it reads (a join: duplicates kept); the junction under its own rules and grants', () => {
    expect(read(tables())).toMatchObject({ kind: 'allowed', rows: [{ id: 1, tags: [{ id: 1 }, { id: 1 }] }, { id: 2, tags: [{ id: 2 }] }, { id: 3, tags: [] }] });
    expect(read(tables({ rowSecurity: true, rules: { select: (r) => r.by === 2 } }))).toMatchObject({ rows: [{ id: 1, tags: [{ id: 1 }] }, { id: 2, tags: [{ id: 2 }] }, { id: 3, tags: [] }] });
    expect(read(tables({ grants: { anon: [], authenticated: [] } }))).toMatchObject({ kind: 'rejected', by: 'grant' });
  });

  it('sorts the rows by a top-level order= (desc: nulls first), ties in their stored order; an unknown order column is 42703', () => {
    const ids = (o: unknown) => (o as { rows: { id: number }[] }).rows.map((r) => r.id);
    expect(ids(read(tables(), { embeds: [], order: [{ column: 'rank', direction: 'desc' }] }))).toEqual([2, 1, 3]);
    expect(ids(read(tables(), { embeds: [], order: [{ column: 'rank', direction: 'desc', nulls: 'last' }, { column: 'id', direction: 'desc' }] }))).toEqual([3, 1, 2]);
    expect(read(tables(), { embeds: [], order: [{ column: 'nope' }] })).toMatchObject({ kind: 'error', code: '42703' });
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
