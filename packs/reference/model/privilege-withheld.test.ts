/**
 * A table privilege withheld from a caller the model shows nothing to (PRIVILEGE_WITHHELD,
 * predict.ts): stranger-app-12 revokes all of `team_members` from anon (rule 11 gives anon no row
 * of it); anon's read, which the model answers with no rows, met the grant's 42501 and was a FAIL
 * ("database answered 42501 (grant), model expected success"). Where the model shows the caller a
 * row, the grant's refusal still disagrees.
 */
import { describe, expect, it } from 'vitest';
import { compareOutcomes } from '../../../engine/checker/compare.ts';
import { PRIVILEGE_WITHHELD, predict } from '../../../engine/model/predict.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import type { Outcome } from '../../../engine/model/outcome.ts';
import { acceptedBy } from '../../../engine/runner/check-case.ts';
import { referenceOracle } from './index.ts';

const byGrant: Outcome = { kind: 'rejected', code: '42501', by: 'grant' };
const read = (table: string): ApiRequest => ({ kind: 'select', table, columns: '*', filters: [] }) as ApiRequest;
const project = { id: 'p1', title: 'Capstone', owner_id: null };
const expectedFor = (caller: Parameters<typeof predict>[2], world: Record<string, unknown[]>, request: ApiRequest) => predict(referenceOracle, world as never, caller, request).outcome;

describe('a table privilege withheld where the model shows nothing', () => {
  it('anon reading team_members (rule 11: no row): the grant’s refusal is accepted, named', () => {
    const expected = expectedFor({ kind: 'anon' }, { team_members: [] }, read('team_members'));
    expect(expected).toMatchObject({ kind: 'allowed', rows: [] });
    expect(compareOutcomes(expected, byGrant)).toBeUndefined();
    expect(acceptedBy({ predicted: expected, observed: byGrant, masked: [], comparedAs: undefined, hints: {} })).toEqual({ reading: PRIVILEGE_WITHHELD });
  });

  it('anon reading projects that rule 10 shows them: the grant’s refusal withholds them, a finding', () => {
    const expected = expectedFor({ kind: 'anon' }, { projects: [project] }, read('projects'));
    expect(expected).toMatchObject({ kind: 'allowed', affected: 1 });
    expect(compareOutcomes(expected, byGrant)).toBeDefined();
  });

  it('the server (service_role) gets no such reading', () => {
    const expected = expectedFor({ kind: 'service' }, { team_members: [] }, read('team_members'));
    expect(compareOutcomes(expected, byGrant)).toBeDefined();
  });
});
