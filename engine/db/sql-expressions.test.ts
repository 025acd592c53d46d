import { describe, expect, it } from 'vitest';
import { caseBranches, ifConditions, stripOuterParens, topLevelConjuncts, topLevelDisjuncts, whereConditions, withoutConjunct } from './sql-expressions.ts';

describe('policy conjuncts', () => {
  it('splits top-level AND only', () => {
    expect(topLevelConjuncts("((deleted_at IS NULL) AND ((submitter_id = auth.uid()) OR current_user_is_staff()))")).toEqual([
      '(deleted_at IS NULL)',
      '((submitter_id = auth.uid()) OR current_user_is_staff())',
    ]);
  });

  it('ignores AND inside strings, identifiers and parentheses', () => {
    expect(topLevelConjuncts(`(label = 'a AND b'::text) AND ("x AND y" = 1) AND (f(a AND b))`)).toEqual([`(label = 'a AND b'::text)`, `("x AND y" = 1)`, '(f(a AND b))']);
  });

  it('a single predicate is one conjunct', () => {
    expect(topLevelConjuncts('(id = auth.uid())')).toEqual(['id = auth.uid()']);
  });

  it('an AND or OR inside a CASE … END is its branch’s, not the expression’s', () => {
    expect(topLevelDisjuncts("case when a or has_permission('vs') or b then p_dept = d end or c")).toEqual(["case when a or has_permission('vs') or b then p_dept = d end", 'c']);
    expect(topLevelConjuncts('x and CASE WHEN a AND b THEN c ELSE d END')).toEqual(['x', 'CASE WHEN a AND b THEN c ELSE d END']);
    // A column or field named like a keyword is no keyword: `r.end`, `"case"`.
    expect(topLevelDisjuncts('r.end or "case" = 1')).toEqual(['r.end', '"case" = 1']);
  });

  it('reads the branches of an expression that is one searched CASE, nested CASEs kept whole', () => {
    expect(caseBranches("(case when role = 'a' then true when p or q then case when x then y end else false end)")).toEqual([
      { condition: "role = 'a'", result: 'true' },
      { condition: 'p or q', result: 'case when x then y end' },
    ]);
    // A simple CASE, a CASE beside another term, or one that does not close at the end: no branches.
    expect(caseBranches("case role when 'a' then true end")).toBeUndefined();
    expect(caseBranches('case when a then b end or c')).toBeUndefined();
    expect(caseBranches('case when a then b end and case when c then d end')).toBeUndefined();
    expect(caseBranches('when a then b')).toBeUndefined();
  });

  it('drops one conjunct', () => {
    expect(withoutConjunct('((a = 1) AND (b = 2) AND (c = 3))', 1)).toBe('(a = 1) AND (c = 3)');
  });

  it('strips only matching outer parentheses', () => {
    expect(stripOuterParens('(a) OR (b)')).toBe('(a) OR (b)');
    expect(stripOuterParens('((a OR b))')).toBe('a OR b');
  });

  it('finds each WHERE condition of a function body, up to the end of its own clause', () => {
    const conditions = (sql: string) => whereConditions(sql).map(({ start, end }) => sql.slice(start, end).trim());
    expect(conditions(`select * into d from t where t.id = p_id and t.deleted_at is null; if not found then raise; end if;`)).toEqual(['t.id = p_id and t.deleted_at is null']);
    expect(conditions(`select coalesce(x, false) and exists (select 1 from r where r.a = p and r.b = auth.uid()) `)).toEqual(['r.a = p and r.b = auth.uid()']);
    expect(conditions(`select a from t where a > 1 and b order by a limit 3`)).toEqual(['a > 1 and b']);
    expect(conditions(`update t set n = 'where x' where id = 1 and /* where */ ok -- where\n returning 1`)).toEqual(['id = 1 and /* where */ ok -- where']);
    expect(conditions(`select 1 from t where a in (select b from u where c) and d;`)).toEqual(['a in (select b from u where c) and d', 'c']);
    expect(conditions(`for r in select * from t where a and b loop null; end loop;`)).toEqual(['a and b']);
  });
});

describe('plpgsql IF conditions', () => {
  const conditions = (sql: string) => ifConditions(sql).map(({ start, end }) => sql.slice(start, end).trim());

  it('finds each IF and ELSIF condition up to its own THEN, not END IF', () => {
    expect(conditions(`begin if auth.uid() is null or r is null then raise exception 'x'; elsif not ok() then return; end if; end`)).toEqual(['auth.uid() is null or r is null', 'not ok()']);
  });

  it('keeps a CASE, a string and a comment inside the condition whole, and skips DDL IF EXISTS', () => {
    expect(conditions(`begin drop table if exists t; if (case when a then b else c end) and x = 'then' /* then */ then null; end if; end`)).toEqual([
      `(case when a then b else c end) and x = 'then' /* then */`,
    ]);
  });

  it('finds an IF nested in a THEN branch or a loop', () => {
    expect(conditions(`begin if a then if b then null; end if; end if; for e in select 1 loop if c then null; end if; end loop; end`)).toEqual(['a', 'b', 'c']);
  });
});
