/**
 * SELECT withheld from a caller a read shows nothing to (SELECT_WITHHELD, predict.ts):
 * stranger-app-13 revokes every privilege on team_members from anon, where the model lets anon
 * read and row security leaves it no row (rule 11: anon reads zero rows). The grant's 42501
 * refuses as much and was a FAIL of R11 and R16 ("database answered 42501 (grant), model expected
 * success"). A read that would show the caller a row (projects, rule 10) still disagrees.
 */
import { describe, expect, it } from 'vitest';
import { compareOutcomes } from '../../../engine/checker/compare.ts';
import { SELECT_WITHHELD, predict } from '../../../engine/model/predict.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import type { Outcome } from '../../../engine/model/outcome.ts';
import { acceptedBy } from '../../../engine/runner/check-case.ts';
import { referenceOracle } from './index.ts';

const anon = { kind: 'anon' as const };
const byGrant: Outcome = { kind: 'rejected', code: '42501', by: 'grant' };
const read = (table: string): ApiRequest => ({ kind: 'select', table, columns: '*', filters: [] }) as ApiRequest;
const node = { id: 'n1', parent_id: null, name: 'Board', kind: 'committee', position: 1, is_public: true };
const member = { id: 'm1', node_id: 'n1', user_id: null, email: 'a@kkumail.com', name: 'A', nickname: null, position: 'chair', student_id: '6401', year: 1, major: 'CS', permissions: [], vs_dept: null, project_seat: null };
const expectedFor = (world: Record<string, unknown[]>, request: ApiRequest, caller: Parameters<typeof predict>[2] = anon) => predict(referenceOracle, world as never, caller, request).outcome;

describe('SELECT withheld where the read shows the caller nothing', () => {
  it('anon reading team_members (no row for anon): the grant’s refusal is accepted, named', () => {
    const expected = expectedFor({ team_nodes: [node], team_members: [member] }, read('team_members'));
    expect(expected).toMatchObject({ rows: [] });
    expect(compareOutcomes(expected, byGrant)).toBeUndefined();
    expect(acceptedBy({ predicted: expected, observed: byGrant, masked: [], comparedAs: undefined, hints: {} })).toEqual({ reading: SELECT_WITHHELD });
  });

  it('anon reading projects (rule 10: readable by anon): the grant’s refusal withholds rows the rule shows, a finding', () => {
    const expected = expectedFor({ projects: [{ id: 'p1', title: 'Solar car', owner_id: null }] }, read('projects'));
    expect(expected).toMatchObject({ kind: 'allowed' });
    expect((expected as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
    expect(compareOutcomes(expected, byGrant)).toBeDefined();
  });

  it('the server (service_role) gets no such reading', () => {
    const expected = expectedFor({}, read('team_members'), { kind: 'service' });
    expect(compareOutcomes(expected, byGrant)).toBeDefined();
  });
});
