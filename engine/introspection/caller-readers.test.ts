/**
 * "Does this body call that name": read once a body (calledNamesSql) and looked up by name
 * (callsNameSql), it answers exactly as the pattern built from each name that it replaced (one
 * compiled pattern a pair made rule 15's catalog read cost the server 0.5–0.9 s on the reference).
 */
import { describe, expect, it } from 'vitest';
import { schemaInTransaction } from '../../testing/schema-in-transaction.ts';
import { calledNamesSql, callsNameSql } from './caller-readers.ts';

const BODIES = [
  'select foo(1)',
  'select Foo (1)',
  'select FOO\n  (1)',
  'select xfoo(1)',
  'select foo_bar(1)',
  'select foo',
  'a(b(c(',
  'select x.foo(1), x."bar"(2)',
  '-- foo(\nselect 1',
  "select 'foo('",
  'select café_fn(1)',
  'select x$foo(1), y$z (2)',
  'select "Mixed"(1)',
  'select s1.fn2_x(3)',
  '',
];
const NAMES = ['foo', 'Foo', 'bar', 'a', 'b', 'c', 'x', 'café_fn', 'fn', 'x$foo', 'y$z', 'z', 'Mixed', 'fn2_x', 's1', 'select'];

describe('callsNameSql', () => {
  const client = schemaInTransaction('select 1');
  it('answers as the per-name pattern for every body and name, names with $ and non-ASCII letters included', async () => {
    const { rows } = await client().query<{ body: string; name: string; looked_up: boolean; pattern: boolean }>(
      `select b.body, n.name,
              ${callsNameSql('b.body', 'b.names', 'n.name')} as looked_up,
              b.body ~* ('(^|[^a-z0-9_])' || n.name || '\\s*\\(') as pattern
         from (select body, ${calledNamesSql('body')} as names from unnest($1::text[]) body) b cross join unnest($2::text[]) n(name)`,
      [BODIES, NAMES],
    );
    expect(rows).toHaveLength(BODIES.length * NAMES.length);
    expect(rows.filter((r) => r.looked_up !== r.pattern)).toEqual([]);
    const calls = (body: string) => rows.filter((r) => r.body === body && r.looked_up).map((r) => r.name);
    // Adjacent calls each count; a longer name or a name without `(` does not; a comment's or a string's does (as before).
    expect(calls('a(b(c(')).toEqual(['a', 'b', 'c']);
    expect(calls('select xfoo(1)')).toEqual([]);
    expect(calls('select foo_bar(1)')).toEqual([]);
    expect(calls('select foo')).toEqual([]);
    expect(calls('select FOO\n  (1)')).toEqual(['foo', 'Foo']);
    expect(calls("select 'foo('")).toEqual(['foo', 'Foo']);
    expect(calls('select café_fn(1)')).toEqual(['café_fn']);
    // A name with `$` is the pattern it always was (`$` an end of text there): never found; `z` after the `$` is.
    expect(calls('select x$foo(1), y$z (2)')).toEqual(['foo', 'Foo', 'z']);
  });
});
