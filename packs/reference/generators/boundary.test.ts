import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneConditionBroken } from './boundary.ts';

describe('oneConditionBroken', () => {
  it('breaks exactly one breakable condition per draw, each of them in turn', () => {
    const draws = fc.sample(
      oneConditionBroken({
        kind: { met: fc.constant('signed'), broken: fc.constant('file') },
        owner: { met: fc.constant('me'), broken: fc.constantFrom('you', null) },
        note: { met: fc.constant(null) },
      }),
      { numRuns: 200, seed: 1 },
    );
    const brokenOf = (d: (typeof draws)[number]) => [...(d.kind !== 'signed' ? ['kind'] : []), ...(d.owner !== 'me' ? ['owner'] : []), ...(d.note !== null ? ['note'] : [])];
    expect(draws.every((d) => brokenOf(d).length === 1)).toBe(true);
    expect(new Set(draws.flatMap(brokenOf))).toEqual(new Set(['kind', 'owner']));
  });

  it('meets every condition when the world can break none', () => {
    const draws = fc.sample(oneConditionBroken({ kind: { met: fc.constant('signed') }, owner: { met: fc.constant('me') } }), { numRuns: 20, seed: 1 });
    expect(draws.every((d) => d.kind === 'signed' && d.owner === 'me')).toBe(true);
  });
});
