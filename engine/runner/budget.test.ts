import { describe, expect, it } from 'vitest';
import { budgetVerdict, joinPasses, shareOfBudget } from './budget.ts';
import type { PropertyResult } from './result.ts';

const result = (over: Partial<PropertyResult>): PropertyResult => ({ id: 'R02', title: 't', area: 'data', status: 'passed', cases: 300, counts: { allowed: 1 }, durationMs: 10, seed: 1, planned: 300, ...over });

describe('a budget cut short is never a pass below the minimum, never a failure', () => {
  it('all cases: passed as it was', () => {
    expect(budgetVerdict(result({}), 100)).toEqual(result({}));
  });
  it('no case: not reached', () => {
    expect(budgetVerdict(result({ cases: 0, stopped: 'time budget' }), 100)).toMatchObject({ status: 'not-reached', note: 'not reached: the time budget ran out before its first case' });
  });
  it('below the minimum: partial, saying how much ran', () => {
    expect(budgetVerdict(result({ cases: 28, stopped: 'time budget' }), 100)).toMatchObject({ status: 'partial', note: 'partial (28 of 300 cases): the time budget ran out below its minimum of 100' });
  });
  it('the minimum reached: passed, saying how much ran', () => {
    expect(budgetVerdict(result({ cases: 150, stopped: 'time budget' }), 100)).toMatchObject({ status: 'passed', note: '150 of 300 cases: the time budget ran out after its minimum of 100' });
  });
  it('interrupted: partial whatever ran', () => {
    expect(budgetVerdict(result({ cases: 150, stopped: 'interrupted' }), 100)).toMatchObject({ status: 'partial' });
  });
  it('a failure found before the cut stays a failure', () => {
    expect(budgetVerdict(result({ status: 'failed', cases: 3, stopped: 'time budget' }), 100).status).toBe('failed');
  });
});

describe('sharing the budget', () => {
  it('gives the next of n properties an equal share of what remains', () => {
    expect(shareOfBudget(10_000, 4, 2_000)).toBe(4_000);
    expect(shareOfBudget(2_000, 4, 2_000)).toBe(2_001);
  });
  it('joins two passes: cases and counts add up, the second pass decides', () => {
    const joined = joinPasses(result({ cases: 100, counts: { allowed: 60, rejected: 40 } }), result({ cases: 50, counts: { allowed: 30, filtered: 20 }, stopped: 'time budget', note: 'x' }));
    expect(joined).toMatchObject({ cases: 150, counts: { allowed: 90, rejected: 40, filtered: 20 }, stopped: 'time budget', durationMs: 20 });
  });
  it('joins two passes: model-branch tallies add up', () => {
    const branches = (a: number, b: number) => [{ id: 'R99.a', label: 'a', taken: a }, { id: 'R99.b', label: 'b', taken: b }];
    expect(joinPasses(result({ branches: branches(3, 0) }), result({ branches: branches(1, 0) })).branches).toEqual(branches(4, 0));
  });
});
