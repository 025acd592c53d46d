/**
 * PL/pgSQL raises its error two ways: `raise exception 'NOT_AUTHORIZED' using errcode = '42501'`,
 * and with every part a named option, `raise exception using errcode = '42501', message =
 * 'NOT_AUTHORIZED', hint = '…'` (stranger-app-11's guards and functions, as a team porting a legacy
 * app writes them). What init reads off a body (refusal conventions, a refusal's SQLSTATE, the
 * choices the pack's sourceSettings read) is written for the first; this rewrites the second into
 * it, the same error, before anything reads the body. Unread, every such refusal was missed and
 * init proposed the one raise written the first way, a nanoid helper's argument check (22023), as
 * the functions' refusal convention.
 */

import { bodyCodeAsErrcode, PGRST_SQLSTATE, pgrstMessageBody } from '../executor/pgrst-raise.ts';

/** `raise [exception] using …, message = '…' | format('…', …), …;` with its errcode, if any. */
const OPTIONS_RAISE = /\braise\s+(?:exception\s+)?using\b([^;]*);/gi;
/** `raise sqlstate 'PGRST' using message = '…', …;`: the SQLSTATE given first, the rest as options. */
const SQLSTATE_RAISE = /\braise\s+sqlstate\s+('(?:[^']|'')*')\s+using\b([^;]*);/gi;
const MESSAGE = /\bmessage\s*=\s*(?:format\s*\(\s*)?('(?:[^']|'')*')/i;
const ERRCODE = /\berrcode\s*=\s*('(?:[^']|'')*')/i;
/** The message-first form with its SQLSTATE PostgREST's own: `raise exception '<json>' using errcode = 'PGRST', detail = '…';`. */
const PGRST_RAISE = /\braise\s+exception\s+'((?:[^']|'')*)'\s+using\b([^;]*);/gi;

/**
 * `source` with every raise whose message is a named option (or whose SQLSTATE comes first:
 * `raise sqlstate '42501' using message = …`) written as `raise exception '<message>' using errcode
 * = '<code>';`, and every `PGRST` raise (PostgREST's "full response control", executor/pgrst-raise.ts)
 * as the code and message of MESSAGE's JSON, which is what a client, and the run, see (a code
 * that is no SQLSTATE marked so: pgrst-raise.ts bodyCodeAsErrcode).
 */
export function raisesMessageFirst(source: string): string {
  const messageFirst = source
    .replace(OPTIONS_RAISE, (whole, options: string) => {
      const message = MESSAGE.exec(options)?.[1];
      if (message === undefined) return whole;
      const errcode = ERRCODE.exec(options)?.[1];
      return `raise exception ${message}${errcode ? ` using errcode = ${errcode}` : ''};`;
    })
    .replace(SQLSTATE_RAISE, (whole, sqlstate: string, options: string) => {
      const message = MESSAGE.exec(options)?.[1];
      return message === undefined ? whole : `raise exception ${message} using errcode = ${sqlstate};`;
    });
  return messageFirst.replace(PGRST_RAISE, (whole, literal: string, options: string) => {
    if (ERRCODE.exec(options)?.[1] !== `'${PGRST_SQLSTATE}'`) return whole;
    const body = pgrstMessageBody(literal.replace(/''/g, "'"));
    return body ? `raise exception '${body.message.replace(/'/g, "''")}' using errcode = '${bodyCodeAsErrcode(body.code).replace(/'/g, "''")}';` : whole;
  });
}
