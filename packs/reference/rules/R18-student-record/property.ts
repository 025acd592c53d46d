/**
 * R18 — a student sees an admin's verdict, note and applied_value only through
 * get_my_student_record: their own record and their own change-request outcomes, newest 10.
 * The tables themselves are admin-only.
 * Cases: people with student records (the caller's often with more than 10 requests, others'
 * too), a caller among them, anon or the server: the function, a direct read of
 * student_change_requests or student_records, or a write of a change request (the table is
 * admin-only), read back by the server.
 */
import fc from 'fast-check';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { callerFrom, changeRequests, ownRecords, peopleRows, peopleWithRoles, studentRecords } from '../../generators/student.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { withReadBack } from '../../generators/read-back.ts';
import { clause, readClause } from '../clauses.ts';
import type { Row } from '../../../../engine/model/json.ts';
import { targetName } from '../../../../engine/model/request.ts';
import { rolesByMeaning, firstOf } from '../../generators/roles.ts';

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  const limit = settings.students.historyLimit;
  const roles = rolesByMeaning(settings);
  return peopleWithRoles(settings, [null, ...roles.plain, ...roles.plain, ...firstOf(roles.staff, roles.admin)], 1, 3).chain((list) =>
    fc.tuple(studentRecords(list, settings), callerFrom(list)).chain(([records, caller]) => {
      // The caller's own record, when they have one, often carries more outcomes than the cap.
      const mine = ownRecords(settings, records, caller);
      const others = records.filter((r) => !mine.includes(r));
      const own = mine.length
        ? fc.oneof({ weight: 3, arbitrary: changeRequests(settings, mine, limit + 6, limit - 1) }, { weight: 1, arbitrary: changeRequests(settings, mine, 3) })
        : fc.constant([]);
      return fc.record({ own, theirs: changeRequests(settings, others, 4), fresh: changeRequests(settings, records, 1, 1) }).chain(({ own: a, theirs, fresh }) => {
        const existing = [...a, ...theirs];
        const added = fresh.filter((r) => !existing.some((e) => e.id === r.id));
        const write = adminOnlyWrite(settings, existing, added);
        return fc
          .oneof(
            { weight: 5, arbitrary: fc.constant<ApiRequest>({ kind: 'rpc', fn: 'get_my_student_record', args: {} }) },
            { weight: 2, arbitrary: fc.constant<ApiRequest>({ kind: 'select', table: 'student_change_requests', columns: '*', filters: [] }) },
            { weight: 1, arbitrary: fc.constant<ApiRequest>({ kind: 'select', table: 'student_records', columns: '*', filters: [] }) },
            ...(write ? [{ weight: 3, arbitrary: write }] : []),
          )
          .map((request): DataCase => {
            const written = writtenId(request);
            return {
              world: { ...peopleRows(list), student_records: records, student_change_requests: existing },
              // A write's effect, seen by the server: a minimal answer says nothing about it.
              steps: [{ caller, request }, ...(written ? [{ caller: { kind: 'service' } as const, request: requestById(written) }] : [])],
            };
          });
      });
    }),
  );
}

const TABLE = 'student_change_requests';

/** The table is admin-only: a signed-in user's INSERT, PATCH or DELETE of a change request (return=minimal); none without a record to write for. */
function adminOnlyWrite(settings: ModelSettings, existing: Row[], fresh: Row[]): fc.Arbitrary<ApiRequest> | undefined {
  const options: { weight: number; arbitrary: fc.Arbitrary<ApiRequest> }[] = [];
  if (fresh.length) options.push({ weight: 1, arbitrary: fc.constant<ApiRequest>({ kind: 'insert', table: TABLE, rows: fresh, returning: 'minimal' }) });
  if (existing.length) {
    const byId = (row: Row) => [{ column: 'id', op: 'eq' as const, value: row.id as string }];
    const patch = fc.oneof(
      fc.record({ status: fc.constantFrom(...settings.students.statuses) }),
      fc.record({ admin_note: fc.constantFrom('ok', 'denied: mismatch'), applied_value: fc.option(fc.string({ maxLength: 8 }), { nil: null }) }),
    );
    options.push(
      { weight: 1, arbitrary: fc.record({ row: fc.constantFrom(...existing), patch }).map(({ row, patch }): ApiRequest => ({ kind: 'update', table: TABLE, patch, filters: byId(row), returning: 'minimal' })) },
      { weight: 1, arbitrary: fc.constantFrom(...existing).map((row): ApiRequest => ({ kind: 'delete', table: TABLE, filters: byId(row), returning: 'minimal' })) },
    );
  }
  return options.length ? fc.oneof(...options) : undefined;
}

/** The change request a write names (inserted, or filtered by id). */
function writtenId(request: ApiRequest): string | undefined {
  if (targetName(request) !== TABLE) return undefined;
  if (request.kind === 'insert') return request.rows[0]?.id as string | undefined;
  if (request.kind === 'update' || request.kind === 'delete') return request.filters.find((f) => f.column === 'id')?.value as string | undefined;
  return undefined;
}

const requestById = (id: string): ApiRequest => ({ kind: 'select', table: TABLE, columns: '*', filters: [{ column: 'id', op: 'eq', value: id }] });

const CLAUSES = [
  readClause('R18.read-records', 'student_records'),
  readClause('R18.read-requests', 'student_change_requests'),
  clause('R18.write-requests', 'INSERT/PATCH/DELETE student_change_requests: admins only', (s) => s.step.caller.kind === 'user' && writtenId(s.step.request) !== undefined),
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
