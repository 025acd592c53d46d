/**
 * get_my_student_record (spec §4.2; rule 18): signed in only. The caller's own record (the
 * person model, model/functions/identity.ts) and the outcomes of their own change requests,
 * newest first (created_at, then id as settings.students.historyTieBreak says; rows the case
 * wrote itself as historyOrders says), capped at
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

/**
 * What get_my_student_record answers: one answer, or several when the case wrote more than one of
 * the caller's change requests with a server-set created_at (see historyOrders), each accepted.
 */
export function myStudentRecords(world: World, caller: Caller, settings: ModelSettings): Row[] {
  const me = myPersonId(ruleContext(world, caller, settings));
  const record = me === null ? undefined : rowsOf(world, 'student_records').find((s) => s.id === me);
  const mine = me === null ? [] : rowsOf(world, 'student_change_requests').filter((c) => c.student_record_id === me);
  const keys = settings.students.recordOutput;
  return historyOrders(mine, settings).map((ordered): Row => ({
    [keys.record]: record
      ? { id: record.id, email: record.email, student_id: record.student_id, full_name: record.full_name, year: record.year ?? null, major: record.major ?? null }
      : null,
    [keys.requests]: ordered.slice(0, settings.students.historyLimit).map((c): Row => ({
      id: c.id,
      field: c.field,
      requested_value: c.requested_value ?? null,
      status: c.status,
      admin_note: c.admin_note ?? null,
      applied_value: c.applied_value ?? null,
    })),
  }));
}

/**
 * Newest first, ties by id as settings.students.historyTieBreak says. A change request this case
 * wrote without created_at (server-assigned: now()) is newer than every drawn one (drawn in 2024).
 * In production each request has its own now(), so those rows come newest-written first; here a
 * case is one transaction and now() is frozen for all of it (engine/executor/case-transaction.ts:
 * Postgres cannot give a savepoint its own transaction time), so they tie and the tie-break
 * orders them. Both orders are accepted: the first is production's.
 */
export function historyOrders(rows: Row[], settings: ModelSettings): Row[][] {
  const tieBreak = (a: Row, b: Row) => idOrder(a, b) * (settings.students.historyTieBreak === 'id asc' ? 1 : -1);
  const timed = (r: Row) => typeof r.created_at === 'string';
  const drawn = rows.filter(timed).sort((a, b) => Date.parse(String(b.created_at)) - Date.parse(String(a.created_at)) || tieBreak(a, b));
  const written = rows.filter((r) => !timed(r));
  const newestWrittenFirst = [...written].reverse();
  const tied = [...written].sort(tieBreak);
  const orders = [[...newestWrittenFirst, ...drawn], [...tied, ...drawn]];
  return sameOrder(orders[0], orders[1]) ? [orders[0]] : orders;
}

const sameOrder = (a: Row[], b: Row[]) => a.every((r, i) => r === b[i]);

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
    predict: (world, caller, _args, settings) => {
      const [answer, ...others] = myStudentRecords(world, caller, settings).map((record) => allowed([record], 1));
      return { outcome: others.length ? { ...answer, orElse: others } : answer, world };
    },
  },
];
