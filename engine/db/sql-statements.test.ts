import { describe, expect, it } from 'vitest';
import { splitStatements } from './sql-statements.ts';

const texts = (sql: string) => splitStatements(sql).map((s) => s.text.trim());

describe('splitStatements cuts where psql would', () => {
  it('at top-level semicolons, keeping offsets into the file', () => {
    const sql = 'create table a (x int);\n\ninsert into a values (1);  -- trailing\n';
    const st = splitStatements(sql);
    expect(st.map((s) => s.text.trim())).toEqual(['create table a (x int);', 'insert into a values (1);']);
    expect(sql.slice(st[1]!.offset).trimStart().startsWith('insert')).toBe(true);
  });

  it('not inside quotes, E-strings, quoted names, dollar quotes or comments', () => {
    const sql = [
      `select 'a;b', 'it''s;';`,
      `select E'x\\';y';`,
      `select 1 as "we;ird";`,
      `create function f() returns int language plpgsql as $body$ begin return 1; end; $body$;`,
      `do $$ begin perform 1; end $$;`,
      `/* a; /* nested; */ b; */ select 2; -- c; d`,
      `select $1;`,
    ].join('\n');
    expect(texts(sql)).toEqual([
      `select 'a;b', 'it''s;';`,
      `select E'x\\';y';`,
      `select 1 as "we;ird";`,
      `create function f() returns int language plpgsql as $body$ begin return 1; end; $body$;`,
      `do $$ begin perform 1; end $$;`,
      `/* a; /* nested; */ b; */ select 2;`,
      // A comment after a statement leads the next one.
      `-- c; d\nselect $1;`,
    ]);
  });

  it('not inside parentheses (CREATE RULE … DO (a; b)) nor a BEGIN ATOMIC body (CASE … END within)', () => {
    const rule = 'create rule r as on insert to a do also (insert into b values (1); insert into c values (2));';
    const atomic = 'create or replace function g(x int) returns int language sql begin atomic select case when x > 0 then 1 else 0 end; select 2; end;';
    expect(texts(`${rule}\n${atomic}\nselect 3;`)).toEqual([rule, atomic, 'select 3;']);
    // BEGIN outside a routine definition is a transaction statement of its own.
    expect(texts('begin; select 1; end;')).toEqual(['begin;', 'select 1;', 'end;']);
  });

  it('a file it cannot cut (an unclosed quote) is one statement, for Postgres to report; blank files are none', () => {
    expect(texts(`select 'oops; select 1;`)).toEqual([`select 'oops; select 1;`]);
    expect(splitStatements('  -- only a comment\n/* and another */\n')).toEqual([]);
  });
});
