import { describe, expect, it } from 'vitest';
import { PreparedStatements } from './prepared-statements.ts';
import { SqlParams } from './sql-text.ts';

function query(value: string) {
  const p = new SqlParams();
  return p.statement(`select ${p.bind(value)}::text as v`);
}

describe('PreparedStatements', () => {
  it('runs a shape as is once, prepares it on the second use, then only executes it', () => {
    const prepared = new PreparedStatements();
    expect(prepared.sqlFor(query("it's"))).toBe(`select 'it''s'::text as v`);
    expect(prepared.sqlFor(query('b'))).toBe(`prepare pf_0 as select $1::text as v; execute pf_0('b')`);
    prepared.settle(prepared.takePending(), 1);
    expect(prepared.sqlFor(query('c'))).toBe(`execute pf_0('c')`);
  });

  it('prepares a statement once per role it runs as, so callers taking turns do not re-plan one statement', () => {
    const prepared = new PreparedStatements();
    const sent = (runsAs: string) => {
      const text = prepared.sqlFor(query(runsAs), runsAs);
      prepared.settle(prepared.takePending(), (text.match(/prepare /g) ?? []).length);
      return text;
    };
    const turns = ['authenticated', 'anon', 'authenticated', 'anon', 'authenticated', 'anon'].map(sent);
    expect(turns.slice(0, 2)).toEqual([`select 'authenticated'::text as v`, `select 'anon'::text as v`]);
    expect(turns.slice(2, 4)).toEqual([`prepare pf_0 as select $1::text as v; execute pf_0('authenticated')`, `prepare pf_1 as select $1::text as v; execute pf_1('anon')`]);
    expect(turns.slice(4)).toEqual([`execute pf_0('authenticated')`, `execute pf_1('anon')`]);
    // A statement no role rewrites (the settings, a fixture) stays one whoever the caller.
    expect(prepared.sqlFor(query('x'))).toBe(`select 'x'::text as v`);
  });

  it('forgets the PREPAREs that did not run, so the next use prepares again', () => {
    const prepared = new PreparedStatements();
    const other = () => {
      const p = new SqlParams();
      return p.statement(`select ${p.bind('x')}::int as n`);
    };
    for (const q of [query('a'), other()]) prepared.sqlFor(q);
    expect(prepared.sqlFor(query('a'))).toMatch(/^prepare pf_0 /);
    expect(prepared.sqlFor(other())).toMatch(/^prepare pf_1 /);
    prepared.settle(prepared.takePending(), 1); // only pf_0 ran
    expect(prepared.sqlFor(query('a'))).toBe(`execute pf_0('a')`);
    expect(prepared.sqlFor(other())).toMatch(/^prepare pf_2 as select \$1::int as n; execute pf_2\('x'\)$/);
  });

  it('past its limit, asks for `deallocate all` once and starts over', () => {
    const prepared = new PreparedStatements(2);
    const shape = (n: number) => new SqlParams().statement(`select ${n}`);
    for (const n of [1, 2, 1, 2]) prepared.sqlFor(shape(n));
    prepared.settle(prepared.takePending(), 2);
    expect(prepared.takeReset()).toBe('deallocate all');
    expect(prepared.takeReset()).toBeUndefined();
    expect(prepared.sqlFor(shape(1))).toBe('select 1'); // seen before the reset, but the reset forgot it
  });

  it('runs a shape inline while its PREPARE is written but not answered, and executes it once it is', () => {
    const prepared = new PreparedStatements();
    prepared.sqlFor(query('a'));
    expect(prepared.sqlFor(query('b'))).toMatch(/^prepare pf_0 /);
    const first = prepared.takePending();
    // A second message built before the first is answered: neither EXECUTE (may not exist yet) nor a second PREPARE.
    expect(prepared.sqlFor(query('c'))).toBe(`select 'c'::text as v`);
    expect(prepared.takePending().shapes).toEqual([]);
    prepared.settle(first, 1);
    expect(prepared.sqlFor(query('d'))).toBe(`execute pf_0('d')`);
  });

  it('settles nothing from a message built before a `deallocate all`', () => {
    const prepared = new PreparedStatements(1);
    prepared.sqlFor(query('a'));
    prepared.sqlFor(query('b'));
    const before = prepared.takePending();
    expect(prepared.takeReset()).toBe('deallocate all');
    prepared.settle(before, 1); // its PREPARE ran, but the deallocate behind it dropped it
    expect(prepared.sqlFor(query('c'))).toBe(`select 'c'::text as v`);
  });
});
