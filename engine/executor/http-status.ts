/**
 * SQLSTATE → HTTP status as PostgREST v12.2 maps it (src/PostgREST/Error.hs, pgErrorStatus).
 * 42501 is 403 only when the JWT's role differs from the anon role (`authed = role /= anon
 * role`, App.hs), so the Supabase anon key gets 401 like a request with no token at all.
 * 21000 is 400 only for pg-safeupdate's "… requires a WHERE clause", else 500.
 */
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
  // PostgREST's PTxyz convention: RAISE sqlstate 'PT403' answers 403.
  if (/^PT\d{3}$/.test(code)) return Number(code.slice(2));
  return 400;
}
