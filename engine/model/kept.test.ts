import { describe, expect, it } from 'vitest';
import { kept } from './kept.ts';

describe('kept', () => {
  it('works an answer out once per key, and empties itself when full', () => {
    const answers = new Map<string, string>();
    const made: string[] = [];
    const make = (key: string) => (made.push(key), key.toUpperCase());
    expect([kept(answers, 'a', make, 2), kept(answers, 'a', make, 2), kept(answers, 'b', make, 2)]).toEqual(['A', 'A', 'B']);
    expect(made).toEqual(['a', 'b']);
    expect(kept(answers, 'c', make, 2)).toBe('C');
    expect([...answers.keys()]).toEqual(['c']);
  });
});
