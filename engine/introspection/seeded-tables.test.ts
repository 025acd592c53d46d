/**
 * readSeededTables asks only the tables that may hold a row: a plain table of no blocks is left
 * out unasked. Whatever it leaves out must be empty: a table emptied again (blocks, no rows), a
 * partitioned table (no blocks of its own, its rows in a partition) and a view are still asked.
 */
import { describe, expect, it } from 'vitest';
import { schemaInTransaction } from '../../testing/schema-in-transaction.ts';
import { readSeededTables, readTableShapes } from './table-shapes.ts';

const SCHEMA = `
  create schema seeded_t;
  create table seeded_t.filled (id int primary key);
  insert into seeded_t.filled values (1);
  create table seeded_t.emptied (id int primary key);
  insert into seeded_t.emptied values (1);
  delete from seeded_t.emptied;
  create table seeded_t.never (id int primary key);
  create table seeded_t.parted (id int not null, kind text not null) partition by list (kind);
  create table seeded_t.parted_a partition of seeded_t.parted for values in ('a');
  create table seeded_t.parted_b partition of seeded_t.parted for values in ('b');
  insert into seeded_t.parted values (1, 'a');
  create table seeded_t.base (id int primary key);
  create table seeded_t.child () inherits (seeded_t.base);
  insert into seeded_t.child values (1);
`;

describe('readSeededTables', () => {
  const client = schemaInTransaction(SCHEMA);

  it('names the tables holding rows, a partitioned one by its partition too, and no empty one', async () => {
    const shapes = await readTableShapes(client(), ['seeded_t']);
    expect([...shapes.keys()].sort()).toEqual(['seeded_t.base', 'seeded_t.child', 'seeded_t.emptied', 'seeded_t.filled', 'seeded_t.never', 'seeded_t.parted', 'seeded_t.parted_a', 'seeded_t.parted_b']);
    expect((await readSeededTables(client(), shapes)).sort()).toEqual(['seeded_t.base', 'seeded_t.child', 'seeded_t.filled', 'seeded_t.parted', 'seeded_t.parted_a']);
  });
});
