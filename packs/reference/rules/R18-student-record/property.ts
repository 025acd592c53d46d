/**
 * R18 — a student sees an admin's verdict, note and applied_value only through
 * get_my_student_record: their own record and their own change-request outcomes, newest 10.
 * The tables themselves are admin-only.
 * Cases: people with student records (the caller's often with more than 10 requests, others'
 * too), a caller among them, anon or the server: the function, or a direct read of
 * student_change_requests or student_records.
 */
import fc from 'fast-check';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { callerFrom, changeRequests, peopleRows, peopleWithRoles, studentRecords } from '../../generators/student.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { withReadBack } from '../../generators/read-back.ts';
import { readClause } from '../clauses.ts';
import { rolesByMeaning, firstOf } from '../../generators/roles.ts';

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  const limit = settings.students.historyLimit;
  const roles = rolesByMeaning(settings);
  return peopleWithRoles(settings, [null, ...roles.plain, ...roles.plain, ...firstOf(roles.staff, roles.admin)], 1, 3).chain((list) =>
    fc.tuple(studentRecords(list), callerFrom(list)).chain(([records, caller]) => {
      // The caller's own record, when they have one, often carries more outcomes than the cap.
      const mine = caller.kind === 'user' ? records.filter((r) => typeof r.email === 'string' && r.email.trim().toLowerCase() === caller.email?.toLowerCase()) : [];
      const others = records.filter((r) => !mine.includes(r));
      const own = mine.length
        ? fc.oneof({ weight: 3, arbitrary: changeRequests(settings, mine, limit + 6, limit - 1) }, { weight: 1, arbitrary: changeRequests(settings, mine, 3) })
        : fc.constant([]);
      return fc
        .record({
          own,
          theirs: changeRequests(settings, others, 4),
          request: fc.oneof(
            { weight: 5, arbitrary: fc.constant<ApiRequest>({ kind: 'rpc', fn: 'get_my_student_record', args: {} }) },
            { weight: 2, arbitrary: fc.constant<ApiRequest>({ kind: 'select', table: 'student_change_requests', columns: '*', filters: [] }) },
            { weight: 1, arbitrary: fc.constant<ApiRequest>({ kind: 'select', table: 'student_records', columns: '*', filters: [] }) },
          ),
        })
        .map(({ own: a, theirs, request }): DataCase => ({
          world: { ...peopleRows(list), student_records: records, student_change_requests: [...a, ...theirs] },
          steps: [{ caller, request }],
        }));
    }),
  );
}

const CLAUSES = [
  readClause('R18.read-records', 'student_records'),
  readClause('R18.read-requests', 'student_change_requests'),
];

export const R18: DataProperty = {
  id: 'R18',
  rule: 18,
  title: 'student change requests: outcomes only through get_my_student_record, own and newest 10',
  tables: ['student_records', 'student_change_requests'],
  functions: ['get_my_student_record'],
  cases: (settings) => withReadBack(cases(settings), ['student_records', 'student_change_requests']),
  clauses: CLAUSES,
};
