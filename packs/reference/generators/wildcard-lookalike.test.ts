import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emailAddress } from './faker.ts';
import { wildcardLookalike } from './student.ts';
import { likePatternSource } from '../../../engine/regexp.ts';

/** SQL's `value ilike pattern`: `_` any one character, `%` any run (the one LIKE reading, engine/regexp.ts). */
function ilike(value: string, pattern: string): boolean {
  return new RegExp(likePatternSource(pattern), 'is').test(value);
}

describe('wildcardLookalike: a stranger e-mail only a pattern match takes for the person', () => {
  it('is never the person under lower(trim(…)), and is under ilike one way or the other', () => {
    fc.assert(
      fc.property(emailAddress.chain((e) => fc.tuple(fc.constant(e), wildcardLookalike(e))), ([email, alike]) => {
        expect(alike.trim().toLowerCase()).not.toBe(email.trim().toLowerCase());
        if (!alike.startsWith('x.')) expect(ilike(email, alike) || ilike(alike, email)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("writes the person's own `_` as another character, which only their e-mail as a pattern takes", () => {
    fc.assert(fc.property(wildcardLookalike('ann_lee@example.com'), (alike) => {
      expect(ilike(alike, 'ann_lee@example.com') || ilike('ann_lee@example.com', alike)).toBe(true);
    }));
    expect(fc.sample(wildcardLookalike('ann_lee@example.com'), 50)).toContain('annxlee@example.com');
  });
});
