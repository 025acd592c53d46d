/**
 * R11 — team_members has no public read rule (anon reads zero rows); the public team tree is
 * only get_public_org_chart, where a node whose ancestor is not public is hidden with its whole
 * subtree, and the output carries exactly {id, parent_id, name, kind, position} per node and
 * {node_id, name, nickname, position} per member (rows are compared key for key).
 * Cases: random trees (random depth, random is_public at any level), members with every private
 * column set; anon, people of any role or the server read the chart, team_members or team_nodes.
 */
import fc from 'fast-check';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { teamMembers, teamTree } from '../../generators/team.ts';
import { callerOf } from '../../generators/identities.ts';
import { peopleRows, peopleWithRoles } from '../../generators/student.ts';
import type { Caller } from '../../../../engine/model/caller.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { withReadBack } from '../../generators/read-back.ts';
import { readClause } from '../clauses.ts';
import { rolesByMeaning, firstOf } from '../../generators/roles.ts';

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  const roles = rolesByMeaning(settings);
  return peopleWithRoles(settings, [null, ...roles.plain, ...firstOf(roles.staff, roles.professor)], 1, 3).chain((list) =>
    teamTree().chain((nodes) =>
      fc
        .record({
          members: teamMembers(settings, nodes, list),
          caller: fc.oneof(
            { weight: 4, arbitrary: fc.constant<Caller>({ kind: 'anon' }) },
            { weight: 4, arbitrary: fc.constantFrom(...list).map(callerOf) },
            { weight: 1, arbitrary: fc.constant<Caller>({ kind: 'service' }) },
          ),
          request: fc.oneof(
            { weight: 5, arbitrary: fc.constant<ApiRequest>({ kind: 'rpc', fn: 'get_public_org_chart', args: {} }) },
            { weight: 2, arbitrary: fc.constant<ApiRequest>({ kind: 'select', table: 'team_members', columns: '*', filters: [] }) },
            { weight: 1, arbitrary: fc.constant<ApiRequest>({ kind: 'select', table: 'team_nodes', columns: '*', filters: [] }) },
          ),
        })
        .map(({ members, caller, request }): DataCase => ({
          world: { ...peopleRows(list), team_nodes: nodes, team_members: members },
          steps: [{ caller, request }],
        })),
    ),
  );
}

const CLAUSES = [
  readClause('R11.read-members', 'team_members'),
  readClause('R11.read-nodes', 'team_nodes'),
];

export const R11: DataProperty = {
  id: 'R11',
  rule: 11,
  title: 'team: anon reads no members; the public org chart hides non-public subtrees and private keys',
  tables: ['team_nodes', 'team_members'],
  functions: ['get_public_org_chart'],
  cases: (settings) => withReadBack(cases(settings), ['team_nodes', 'team_members']),
  clauses: CLAUSES,
};
