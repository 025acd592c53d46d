/**
 * get_my_student_record (spec §4.2; rule 18): signed in only. The caller's own record (the
 * person model, model/functions/identity.ts) and the outcomes of their own change requests,
 * newest first (created_at, then id as settings.students.historyTieBreak says), capped at
 * settings.students.historyLimit, each with the admin's verdict (status), note and applied_value,
 * under the keys settings.students.recordOutput names. No person: record null, no requests.
 */
import type { FunctionModel } from '../../../../engine/model/function-model.ts';
import type { Row } from '../../../../engine/model/json.ts';
import { allowed } from '../../../../engine/model/outcome.ts';
import { rowsOf, type World } from '../../../../engine/model/world.ts';
import type { ModelSettings } from '../settings.ts';
import { myPersonId, ruleContext } from './identity.ts';
import type { Caller } from '../../../../engine/model/caller.ts';

export function myStudentRecord(world: World, caller: Caller, settings: ModelSettings): Row {
  const me = myPersonId(ruleContext(world, caller, settings));
  const record = me === null ? undefined : rowsOf(world, 'student_records').find((s) => s.id === me);
  const requests = me === null
    ? []
    : rowsOf(world, 'student_change_requests')
        .filter((c) => c.student_record_id === me)
        .sort((a, b) => Date.parse(String(b.created_at)) - Date.parse(String(a.created_at)) || idOrder(a, b) * (settings.students.historyTieBreak === 'id asc' ? 1 : -1))
        .slice(0, settings.students.historyLimit)
        .map((c): Row => ({
          id: c.id,
          field: c.field,
          requested_value: c.requested_value ?? null,
          status: c.status,
          admin_note: c.admin_note ?? null,
          applied_value: c.applied_value ?? null,
        }));
  const keys = settings.students.recordOutput;
  return {
    [keys.record]: record
      ? { id: record.id, email: record.email, student_id: record.student_id, full_name: record.full_name, year: record.year ?? null, major: record.major ?? null }
      : null,
    [keys.requests]: requests,
  };
}

/** Ids in ascending order (as Postgres compares uuids: their text, lower-case hex). */
function idOrder(a: Row, b: Row): number {
  return String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0;
}

export const studentFunctions: FunctionModel[] = [
  {
    name: 'get_my_student_record',
    args: [],
    executableBy: ['authenticated', 'service_role'],
    columnsSetting: 'students.recordOutput',
    valueSettings: { requests: 'students.historyTieBreak' },
    predict: (world, caller, _args, settings) => ({ outcome: allowed([myStudentRecord(world, caller, settings)], 1), world }),
  },
];
