/**
 * The database's answer, read back into the model's terms (an Outcome), so prediction and
 * observation compare like for like. A 42501 is told apart by the Postgres routine that raised
 * it (aclcheck_error: a missing grant; ExecWithCheckOptions: a row rule); a function or trigger
 * that raises 42501 itself (exec_stmt_raise) is neither, whatever its text says. Without the
 * routine (an answer read over HTTP), only Postgres' own message templates, matched whole, count.
 */
import type { Json, Row } from '../model/json.ts';
import type { Outcome } from '../model/outcome.ts';
import type { ApiRequest } from '../model/request.ts';
import type { ApiResponse } from '../executor/response.ts';

export function observedOutcome(request: ApiRequest, response: ApiResponse): Outcome {
  if (response.error) {
    const { code, message } = response.error;
    if (code === '42501') {
      const by = rejectedBy(message, response.routine);
      if (by) return { kind: 'rejected', code: '42501', by, detail: message };
    }
    return { kind: 'error', code, detail: message };
  }
  const affected = response.affected ?? 0;
  if (request.kind === 'rpc') {
    // 204: a void function; 200 with a JSON null: a scalar function that returned NULL.
    return { kind: 'allowed', rows: response.status === 204 ? null : response.body === null ? [{ value: null }] : rpcRows(response.body), affected };
  }
  const rows = response.body === null ? null : Array.isArray(response.body) ? (response.body as Row[]) : [response.body as Row];
  return { kind: 'allowed', rows, affected };
}

/** A function's answer as rows: a set is its elements, one object one row, a scalar `{value}`. */
export function rpcRows(body: Json): Row[] | null {
  if (body === null) return null;
  if (Array.isArray(body)) return body.map((v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Row) : { value: v }));
  if (typeof body === 'object') return [body as Row];
  return [{ value: body }];
}

const GRANT_ROUTINES = new Set(['aclcheck_error', 'aclcheck_error_col', 'aclcheck_error_type']);
const POLICY_ROUTINES = new Set(['ExecWithCheckOptions']);
/** Postgres' own texts (src/backend/catalog/aclchk.c, executor/execMain.c), matched whole. */
const GRANT_TEXT = /^permission denied for (table|view|sequence|function|procedure|routine|schema|column|relation|materialized view|foreign table|type|database|language|large object) [^\n]+$/;
const POLICY_TEXT = /^new row violates row-level security policy( "[^"]*"| \(USING expression\))? for table "[^"]+"$/;

/** Who refused a 42501: a grant, a row rule, or neither (a RAISE with that code: undefined). */
export function rejectedBy(message: string, routine: string | undefined): 'grant' | 'policy' | undefined {
  if (routine !== undefined) return GRANT_ROUTINES.has(routine) ? 'grant' : POLICY_ROUTINES.has(routine) ? 'policy' : undefined;
  return GRANT_TEXT.test(message) ? 'grant' : POLICY_TEXT.test(message) ? 'policy' : undefined;
}
