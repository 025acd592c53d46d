import { describe, it, expect } from 'vitest';
import { bearerTokenOf } from './bearer.ts';

describe('bearerTokenOf', () => {
  it('reads one Bearer header, scheme case-insensitive', () => {
    expect(bearerTokenOf(['Bearer abc.def-1'])).toBe('abc.def-1');
    expect(bearerTokenOf(['bearer abc'])).toBe('abc');
  });
  it('refuses every malformed variant', () => {
    for (const v of [[], ['Bearer'], ['Bearer '], ['Basic abc'], ['Bearer  abc'], [' Bearer abc'], ['Bearer abc '], ['Bearer a b'], ['Bearer abc', 'Bearer abc'], ['abc']]) {
      expect(bearerTokenOf(v), JSON.stringify(v)).toBeNull();
    }
  });
});
