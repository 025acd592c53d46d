/**
 * R17 — identity_conflicts is readable by admins and by the person whose record it is
 * (person_id = my_person_id()); the lookup goes through a definer helper, so it does not depend
 * on the row rules of student_records or users. And identity that changes under the caller:
 * what the identity-gated functions give a user follows from who they are (their auth
 * identity), not from a column they can edit themselves.
 * Cases: people with student records (their auth e-mail written with case flips and padding),
 * strangers' records, conflicts on any record, team members with the people's e-mails. Either a
 * read of identity_conflicts or my_person_id, or a sequence: the caller PATCHes their own users
 * row (e-mail set to someone else's record or membership e-mail, display name set to a member's
 * name, …; staff get through the guard with any column) and then calls sync_my_team_permissions,
 * get_my_student_record, my_person_id or reads identity_conflicts.
 */
import fc from 'fast-check';
import type { Caller } from '../../../../engine/model/caller.ts';
import type { Person } from '../../generators/identities.ts';
import type { Row } from '../../../../engine/model/json.ts';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { teamMembers, teamTree } from '../../generators/team.ts';
import { callerFrom, identityConflicts, peopleRows, peopleWithRoles, storedEmail, studentRecords } from '../../generators/student.ts';
import { callerOf } from '../../generators/identities.ts';
import type { DataCase, DataStep } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { withReadBack } from '../../generators/read-back.ts';
import { readClause } from '../clauses.ts';
import { rolesByMeaning, firstOf } from '../../generators/roles.ts';

const IDENTITY_READS: ApiRequest[] = [
  { kind: 'rpc', fn: 'sync_my_team_permissions', args: {} },
  { kind: 'rpc', fn: 'get_my_student_record', args: {} },
  { kind: 'rpc', fn: 'my_person_id', args: {} },
  { kind: 'select', table: 'identity_conflicts', columns: '*', filters: [] },
];

/** The people who signed up with an e-mail (records and memberships are theirs). */
const withEmail = (list: Person[]) => list.filter((p) => !p.isAnonymous);

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  const roles = rolesByMeaning(settings);
  const signedUp = peopleWithRoles(settings, [null, ...roles.plain, ...roles.plain, ...firstOf(roles.staff, roles.vsUnrestricted, roles.admin, roles.professor)], 2, 4);
  // Sometimes an anonymous sign-in too (auth e-mail null): signed in, yet no person.
  const anonymous = fc.option(fc.noShrink(fc.uuid({ version: 4 })).map((id): Person => ({ id, email: '', isAnonymous: true })), { nil: undefined, freq: 3 });
  return fc.tuple(signedUp, anonymous).map(([people, anon]) => (anon ? [...people, anon] : people)).chain((list) =>
    fc
      .record({ records: studentRecords(withEmail(list), settings), nodes: teamTree(3) })
      .chain(({ records, nodes }) =>
        fc.record({
          records: fc.constant(records),
          nodes: fc.constant(nodes),
          conflicts: identityConflicts(records, settings),
          members: teamMembers(settings, nodes, withEmail(list), 5),
        }),
      )
      .chain(({ records, nodes, conflicts, members }) => {
        const world = { ...peopleRows(list), student_records: records, identity_conflicts: conflicts, team_nodes: nodes, team_members: members };
        const read = (caller: Caller): fc.Arbitrary<DataStep> =>
          fc.oneof(
            { weight: 3, arbitrary: fc.constant<ApiRequest>({ kind: 'select', table: 'identity_conflicts', columns: '*', filters: [] }) },
            { weight: 1, arbitrary: fc.constantFrom(...records.map((r) => r.id as string), ...list.map((p) => p.id)).map((id): ApiRequest => ({ kind: 'select', table: 'identity_conflicts', columns: '*', filters: [{ column: 'person_id', op: 'eq', value: id }] })) },
            { weight: 2, arbitrary: fc.constantFrom(...IDENTITY_READS) },
          ).map((request) => ({ caller, request }));
        // E-mails and names that belong to someone else: a record, a membership, another person.
        const foreignEmails = [...records.map((r) => r.email as string), ...members.map((m) => m.email as string), ...withEmail(list).map((p) => p.email)];
        const memberNames = members.map((m) => m.name as string);
        const editThenCall = () => fc.constantFrom(...list.filter((p) => p.profile)).chain((p) => {
          const caller = callerOf(p);
          const patch: fc.Arbitrary<Row> = fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom(...foreignEmails).chain(storedEmail(settings, 'users', 'email')).map((email) => ({ email })) },
            ...(memberNames.length ? [{ weight: 2, arbitrary: fc.constantFrom(...memberNames).map((display_name) => ({ display_name })) }] : []),
            { weight: 1, arbitrary: fc.constantFrom(...settings.permissions).map((perm) => ({ managed_permissions: [perm] })) },
          );
          return fc
            .tuple(patch, fc.constantFrom(...IDENTITY_READS))
            .map(([body, after]): DataStep[] => [
              { caller, request: { kind: 'update', table: 'users', patch: body, filters: [{ column: 'id', op: 'eq', value: p.id }], returning: 'minimal' } },
              { caller, request: after },
            ]);
        });
        const steps = list.some((p) => p.profile)
          ? fc.oneof({ weight: 2, arbitrary: callerFrom(list).chain(read).map((s) => [s]) }, { weight: 3, arbitrary: editThenCall() })
          : callerFrom(list).chain(read).map((s) => [s]);
        return steps.map((s): DataCase => ({ world, steps: s }));
      }),
  );
}

const CLAUSES = [
  readClause('R17.read', 'identity_conflicts'),
];

export const R17: DataProperty = {
  id: 'R17',
  rule: 17,
  title: 'identity_conflicts: admins and the person only, via definer helpers; identity follows the auth identity',
  tables: ['identity_conflicts', 'student_records', 'team_members'],
  functions: ['my_person_id', 'sync_my_team_permissions', 'get_my_student_record'],
  cases: (settings) => withReadBack(cases(settings), ['identity_conflicts']),
  clauses: CLAUSES,
};
