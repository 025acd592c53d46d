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

/** `raise [exception] using …, message = '…' | format('…', …), …;` with its errcode, if any. */
const OPTIONS_RAISE = /\braise\s+(?:exception\s+)?using\b([^;]*);/gi;
const MESSAGE = /\bmessage\s*=\s*(?:format\s*\(\s*)?('(?:[^']|'')*')/i;
const ERRCODE = /\berrcode\s*=\s*('(?:[^']|'')*')/i;

/** `source` with every raise whose message is a named option written as `raise exception '<message>' using errcode = '<code>';`. */
export function raisesMessageFirst(source: string): string {
  return source.replace(OPTIONS_RAISE, (whole, options: string) => {
    const message = MESSAGE.exec(options)?.[1];
    if (message === undefined) return whole;
    const errcode = ERRCODE.exec(options)?.[1];
    return `raise exception ${message}${errcode ? ` using errcode = ${errcode}` : ''};`;
  });
}
