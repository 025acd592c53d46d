import { describe, expect, it } from 'vitest';
import { stripOuterParens, topLevelConjuncts, withoutConjunct } from './conjuncts.ts';

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

  it('drops one conjunct', () => {
    expect(withoutConjunct('((a = 1) AND (b = 2) AND (c = 3))', 1)).toBe('(a = 1) AND (c = 3)');
  });

  it('strips only matching outer parentheses', () => {
    expect(stripOuterParens('(a) OR (b)')).toBe('(a) OR (b)');
    expect(stripOuterParens('((a OR b))')).toBe('a OR b');
  });
});
