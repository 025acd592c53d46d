/** The plain-words line of an outcome names every refusal the model accepts, not only the first. */
import { describe, expect, it } from 'vitest';
import { anyOf, raised, rejectedByPolicy } from '../model/outcome.ts';
import { describeOutcome } from './describe.ts';

describe('describeOutcome', () => {
  it('a refusal the model accepts as a policy or a guard names both (a pack modelling "the sender stays" with a beforeUpdate guard)', () => {
    expect(describeOutcome(anyOf([rejectedByPolicy(), raised('P0001')]))).toBe('rejected: 42501 by the row-level security policy, or raised: SQLSTATE P0001 (any of them is accepted)');
  });

  it('one outcome reads as before', () => {
    expect(describeOutcome(rejectedByPolicy('insert check on answers'))).toBe('rejected: 42501 by the row-level security policy (insert check on answers)');
  });
});
