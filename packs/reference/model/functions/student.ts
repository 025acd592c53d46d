/**
 * get_my_student_record (spec §4.2; rule 18): signed in only. The caller's own record (the
 * person model, model/functions/identity.ts) and the outcomes of their own change requests,
 * newest first (created_at, then id as settings.students.historyTieBreak says; rows the case
 * wrote itself in any order among themselves: historyOrder), capped at
 * settings.students.historyLimit, each with the admin's verdict (status), note and applied_value,
 * under the keys settings.students.recordOutput names. No person: record null, no requests.
 */
import type { FunctionModel } from '../../../../engine/model/function-model.ts';
import type { Json, Row } from '../../../../engine/model/json.ts';
import { allowed, secureReading } from '../../../../engine/model/outcome.ts';
import { rowsOf, type World } from '../../../../engine/model/world.ts';
import { tiedInAnyOrder } from '../../../../engine/model/ties.ts';
import { idAsTarget } from '../../../../engine/model/target-ids.ts';
import type { ModelSettings } from '../settings.ts';
import { myPersonId, ruleContext } from './identity.ts';
import { currentUserRole } from '../identity.ts';
import { refusal } from '../refusals.ts';
import { callerUid, type Caller } from '../../../../engine/model/caller.ts';

/** The columns of the caller's record and of each change-request outcome get_my_student_record answers. */
const RECORD_COLUMNS = ['id', 'email', 'student_id', 'full_name', 'year', 'major'] as const;
const REQUEST_COLUMNS = ['id', 'field', 'requested_value', 'status', 'admin_note', 'applied_value'] as const;
const picked = (row: Row, columns: readonly string[]): Row => Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));

/** What get_my_student_record answers. */
export function myStudentRecord(world: World, caller: Caller, settings: ModelSettings): Row {
  const me = myPersonId(ruleContext(world, caller, settings));
  const record = me === null ? undefined : rowsOf(world, 'student_records').find((s) => s.id === me);
  // Linked by user id, change requests are keyed by the caller's id, with or without a record row.
  const own = settings.students.personLink === 'user-id' ? callerUid(caller) : me;
  const mine = own === null ? [] : rowsOf(world, 'student_change_requests').filter((c) => c.student_record_id === own);
  const keys = settings.students.recordOutput;
  return {
    [keys.record]: record ? picked(record, RECORD_COLUMNS) : null,
    [keys.requests]: historyOrder(mine, settings)
      .slice(0, settings.students.historyLimit)
      .map((c) => picked(c, REQUEST_COLUMNS)),
  };
}

/**
 * Newest first, ties by id as settings.students.historyTieBreak says. A change request this case
 * wrote without created_at (server-assigned: now()) is newer than every drawn one (drawn in 2024);
 * those all hold the case's one now() (engine/model/ties.ts), so their order among themselves is
 * open: the model lists them newest-written first (production's, one request each), and
 * get_my_student_record compares them in any order (comparedAs).
 */
export function historyOrder(rows: Row[], settings: ModelSettings): Row[] {
  const tieBreak = (a: Row, b: Row) => idOrder(a, b, settings.students.historyIdAs) * (settings.students.historyTieBreak === 'id asc' ? 1 : -1);
  const drawn = rows.filter((r) => !writtenThisCase(r)).sort((a, b) => Date.parse(String(b.created_at)) - Date.parse(String(a.created_at)) || tieBreak(a, b));
  return [...rows.filter(writtenThisCase).reverse(), ...drawn];
}

/** A change request whose created_at the server set (now()) in this case: no drawn value. */
const writtenThisCase = (r: Row) => typeof r.created_at !== 'string';

/** Ids in ascending order as the target keeps them (a uuid as Postgres compares it: its text, lower-case hex; a bigint as a number). */
function idOrder(a: Row, b: Row, idAs: ModelSettings['students']['historyIdAs']): number {
  const key = (r: Row) => (idAs === 'model' ? String(r.id) : idAsTarget(idAs, String(r.id)));
  const [x, y] = [key(a), key(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The reading of an identity-gated function refusing a signed-in caller with no role (§7: a null role fails closed). */
export const NO_ROLE_REFUSED = 'identity-refused-to-no-role';

/** The reading of get_my_student_record refusing a caller with no session (rule 20) where its body runs for anon. */
export const RECORD_REFUSED_TO_ANON = 'students.record-refused-to-anon';

/**
 * The reading of get_my_student_record answering null (a jsonb function finding no row) for a
 * caller with no record and no change request: nothing of theirs to show, nobody else's shown.
 * The spec names the answer's content, not its shape when there is none.
 */
export const NO_RECORD_AS_NULL = 'students.no-record-as-null';

export const studentFunctions: FunctionModel[] = [
  {
    name: 'get_my_student_record',
    args: [],
    executableBy: ['authenticated', 'service_role'],
    columnsSetting: 'students.recordOutput',
    answerRows: { record: RECORD_COLUMNS, requests: REQUEST_COLUMNS },
    valueSettings: { requests: 'students.historyTieBreak, students.historyIdAs', record: 'students.personLink, students.callerEmail' },
    predict: (world, caller, _args, settings) => {
      const mine = myStudentRecord(world, caller, settings);
      const answer = allowed([mine], 1);
      const notAuthorized = refusal(settings, 'not-authorized', 'NOT_AUTHORIZED');
      // The server context is no signed-in person ("signed in", §4.2): refusing it, as
      // identity-gated functions refuse a caller with no session (rule 20), is as secure. So is
      // refusing anon, that very caller (a target keeping Supabase's default EXECUTE runs the body
      // for it), and a signed-in caller with no role (§7: a function guard with a null role fails closed).
      const reading = caller.kind === 'service' ? 'students.record-refused-to-server' : caller.kind === 'anon' ? RECORD_REFUSED_TO_ANON : caller.kind === 'user' && currentUserRole(ruleContext(world, caller, settings)) === null ? NO_ROLE_REFUSED : undefined;
      const keys = settings.students.recordOutput;
      const nothingOfTheirs = mine[keys.record] === null && Array.isArray(mine[keys.requests]) && (mine[keys.requests] as Json[]).length === 0;
      const orElse = [...(reading ? [secureReading(reading, notAuthorized)] : []), ...(nothingOfTheirs ? [secureReading(NO_RECORD_AS_NULL, allowed([{ value: null }], 1))] : [])];
      const outcome = orElse.length ? { ...answer, orElse } : answer;
      return { outcome, world };
    },
    // The change requests this case wrote tie on now(): any order of them, in their places, is the answer.
    comparedAs: (rows, world, settings) => {
      const key = settings.students.recordOutput.requests;
      const written = new Set(rowsOf(world, 'student_change_requests').filter(writtenThisCase).map((r) => String(r.id)));
      return rows.map((row) => {
        const list = row[key];
        if (!Array.isArray(list)) return row;
        return { ...row, [key]: tiedInAnyOrder(list, (r) => isRow(r) && written.has(String(r.id)), (r) => (isRow(r) ? String(r.id) : '')) };
      });
    },
  },
];

const isRow = (v: Json): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);
