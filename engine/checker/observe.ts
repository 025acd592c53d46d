/**
 * The database's answer, read back into the model's terms (an Outcome), so prediction and
 * observation compare like for like. 42501 is told apart by message: a missing grant says
 * "permission denied for …", a row rule "… violates row-level security policy …".
 */
import type { Json, Row } from '../model/json.ts';
import type { Outcome } from '../model/outcome.ts';
import type { ApiRequest } from '../model/request.ts';
import type { ApiResponse } from '../executor/response.ts';

export function observedOutcome(request: ApiRequest, response: ApiResponse): Outcome {
  if (response.error) {
    const { code, message } = response.error;
    if (code === '42501') {
      return { kind: 'rejected', code: '42501', by: /row-level security/.test(message) ? 'policy' : 'grant', detail: message };
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
