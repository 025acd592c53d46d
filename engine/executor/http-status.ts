/**
 * SQLSTATE → HTTP status as PostgREST v12.2 maps it (src/PostgREST/Error.hs, pgErrorStatus).
 * 42501 is 403 only when the JWT's role differs from the anon role (`authed = role /= anon
 * role`, App.hs), so the Supabase anon key gets 401 like a request with no token at all.
 * 21000 is 400 only for pg-safeupdate's "… requires a WHERE clause", else 500.
 */
import type { PostgrestErrorBody } from './response.ts';
import { jsonObject, optionalText, PGRST_SQLSTATE, pgrstMessageBody } from './pgrst-raise.ts';

export const POSTGREST_VERSION = 'v12.2';

export function httpStatusForSqlState(code: string, role: string, message = ''): number {
  const exact: Record<string, number> = {
    '23503': 409,
    '23505': 409,
    '25006': 405,
    '42883': 404,
    '42P01': 404,
    '42P17': 500,
    '53400': 500,
    '57P01': 503,
    P0001: 400,
  };
  if (code === '42501') return role !== 'anon' ? 403 : 401;
  if (code === '21000') return message.endsWith('requires a WHERE clause') ? 400 : 500;
  if (code in exact) return exact[code];
  const prefixes: [string, number][] = [
    ['08', 503],
    ['09', 500],
    ['0L', 403],
    ['0P', 403],
    ['25', 500],
    ['28', 403],
    ['2D', 500],
    ['38', 500],
    ['39', 500],
    ['3B', 500],
    ['40', 500],
    ['53', 503],
    ['54', 500],
    ['55', 500],
    ['57', 500],
    ['58', 500],
    ['F0', 500],
    ['HV', 500],
    ['P0', 500],
    ['XX', 500],
  ];
  for (const [prefix, status] of prefixes) if (code.startsWith(prefix)) return status;
  // PostgREST's PTxyz convention: RAISE sqlstate 'PT403' answers 403; 'PT' and what is no number (`PTabc`) 500 (Error.hs 510: readMaybe).
  if (code.startsWith('PT')) return /^\d+$/.test(code.slice(2)) ? Number(code.slice(2)) : 500;
  return 400;
}


/**
 * PostgREST v12.2's answer to a database error: the SQLSTATE's status and the error's own fields,
 * except for `RAISE SQLSTATE 'PGRST'` (Error.hs 442-452, 511-514, 566-603: "full response
 * control"): its MESSAGE is a JSON object giving the body's code, message, details and hint, its
 * DETAIL one giving the status (`{"status": 403, "headers": {}}`); either not such an object
 * answers 500 PGRST121 naming what could not be read.
 */
/** `error`: the database error's fields as Error.hs `toJSON (SQL.ResultError …)` puts them in a body. */
export function postgrestErrorAnswer(error: PostgrestErrorBody, role: string): { status: number; body: PostgrestErrorBody } {
  if (error.code !== PGRST_SQLSTATE) return { status: httpStatusForSqlState(error.code, role, error.message), body: error };
  const body = pgrstMessageBody(error.message);
  if (!body) {
    return pgrstParseError(`Invalid JSON value for MESSAGE: '${error.message}'`, "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.");
  }
  const detailHint = "DETAIL must be a JSON object with obligatory keys: 'status', 'headers' and optional key: 'status_text'.";
  if (error.details === null) return pgrstParseError('DETAIL is missing in the RAISE statement', detailHint);
  const detail = jsonObject(error.details);
  const status = detail?.status;
  const headers = detail?.headers;
  const headersOk = headers !== null && typeof headers === 'object' && !Array.isArray(headers) && Object.values(headers).every((v) => typeof v === 'string');
  if (typeof status !== 'number' || !Number.isInteger(status) || !headersOk || !optionalText(detail!.status_text)) {
    return pgrstParseError(`Invalid JSON value for DETAIL: '${error.details}'`, detailHint);
  }
  return { status, body };
}

/** Error.hs PGRSTParseError: 500, PGRST121. */
function pgrstParseError(details: string, hint: string): { status: number; body: PostgrestErrorBody } {
  return { status: 500, body: { code: 'PGRST121', message: `Could not parse JSON in the "RAISE SQLSTATE 'PGRST'" error`, details, hint } };
}
