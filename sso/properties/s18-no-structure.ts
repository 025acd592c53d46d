import fc from 'fast-check';
import type { UserRecord } from '../model/schemas.ts';
import { Disagreement, expectSuccessfulExchange, freshLogin, goodTokenRequest, pickClient, pickUser, runFcProperty, type SsoProperty } from './kit.ts';

/**
 * Codes and access tokens from many logins carry enough entropy and show no structure: they do
 * not decode to user ids, names or counters, two of them never share a long prefix, and
 * consecutive ones are not numerically close. A token that is a signed JWT is decodable by
 * design: setting accessTokenFormat "jwt" then checks only its signature part.
 */

const LEAST_BITS = 64;
/** Leading bits two random values share with odds of 2^-32 per pair. */
const SHARED_PREFIX_BITS = 32;

export function bitsPerChar(value: string): number {
  return /^[0-9a-f-]+$/i.test(value) ? 4 : 6;
}

/** The bytes a value encodes (hex, base64url or base64), or null when it is neither. */
export function decodedBytes(value: string): Buffer | null {
  const hex = value.replace(/-/g, '');
  if (/^[0-9a-f]+$/i.test(hex) && hex.length % 2 === 0) return Buffer.from(hex, 'hex');
  if (/^[A-Za-z0-9_-]+$/.test(value)) return Buffer.from(value, 'base64url');
  if (/^[A-Za-z0-9+/]+=*$/.test(value)) return Buffer.from(value, 'base64');
  return null;
}

/** The structure a value gives away about `users`, or null. */
export function visibleStructure(value: string, users: readonly UserRecord[]): string | null {
  const bytes = decodedBytes(value);
  const texts = [value];
  if (bytes && bytes.length >= 4) {
    const printable = [...bytes].filter((b) => b >= 0x20 && b < 0x7f).length;
    if (printable / bytes.length >= 0.9) texts.push(bytes.toString('latin1'));
  }
  for (const text of texts) {
    for (const u of users) {
      for (const id of [u.username, u.immutableId, u.employeeId, u.email, u.citizenId, u.profile.userId]) {
        // In the raw value only ids of 6+ characters count: a random 43-char token holds a given
        // 3-char string by chance about once in 6,000 tokens.
        if (id.length >= (text === value ? 6 : 3) && text.includes(id)) return `it contains ${u.username}'s ${id === u.username ? 'username' : 'identifier'} ${JSON.stringify(id)}${text === value ? '' : ` once decoded (${JSON.stringify(text)})`}`;
      }
    }
    if (text !== value && /(^|[^0-9])\d{1,6}$/.test(text)) return `it decodes to text ending in a number, like a counter (${JSON.stringify(text)})`;
  }
  return null;
}

function sharedPrefixChars(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function closeness(a: Buffer, b: Buffer): bigint | null {
  if (a.length !== b.length || a.length < 8) return null;
  const x = BigInt(`0x${a.toString('hex')}`);
  const y = BigInt(`0x${b.toString('hex')}`);
  return x > y ? x - y : y - x;
}

interface Series {
  kind: 'code' | 'access token';
  values: string[];
}

function checkNew(series: Series, value: string, users: readonly UserRecord[], settingHint?: string): void {
  const what = series.kind;
  const earlierValues = [...series.values];
  // Counted before it is judged: the note's figures include the value of a finding.
  series.values.push(value);
  const bits = value.length * bitsPerChar(value);
  if (bits < LEAST_BITS) throw new Disagreement(`an issued ${what} can carry at most ${bits} bits (${value.length} chars)`, `at least ${LEAST_BITS} bits`, value, settingHint);
  const structure = visibleStructure(value, users);
  if (structure) throw new Disagreement(`an issued ${what} is predictable: ${structure}`, `an opaque random ${what}`, value, settingHint);
  const prefixChars = Math.ceil(SHARED_PREFIX_BITS / bitsPerChar(value));
  const bytes = decodedBytes(value);
  for (const earlier of earlierValues) {
    const shared = sharedPrefixChars(earlier.replace(/-/g, ''), value.replace(/-/g, ''));
    if (shared >= prefixChars) throw new Disagreement(`two issued ${what}s share their first ${shared} characters`, `no shared prefix of ${prefixChars}+ characters`, { earlier, later: value }, settingHint);
    const other = decodedBytes(earlier);
    const delta = bytes && other ? closeness(bytes, other) : null;
    if (delta !== null && delta < 1n << BigInt(bytes!.length * 8 - SHARED_PREFIX_BITS)) {
      throw new Disagreement(`two issued ${what}s are numerically close (they differ by ${delta})`, 'values far apart', { earlier, later: value }, settingHint);
    }
  }
}

export const S18: SsoProperty = {
  id: 'S18',
  title: 'Codes and access tokens carry ≥ 64 bits and show no structure (no user ids or counters, no shared prefixes, no small steps)',
  severity: 'M',
  needsTokenResult: true,
  run: async (ctx, opts) => {
    const codes: Series = { kind: 'code', values: [] };
    const tokens: Series = { kind: 'access token', values: [] };
    const jwt = ctx.config.settings.accessTokenFormat === 'jwt';
    const result = await runFcProperty(S18, opts, fc.record({ client: pickClient(ctx), user: pickUser(ctx) }), async ({ client, user }, counts) => {
      const { code } = await freshLogin(ctx, client, user);
      checkNew(codes, code, ctx.config.users);
      const { reply, parsed } = await ctx.client.exchange(goodTokenRequest(client, code));
      expectSuccessfulExchange(reply, parsed);
      const accessToken = (parsed as { accessToken: string }).accessToken;
      const token = jwt ? (accessToken.split('.')[2] ?? '') : accessToken;
      checkNew(tokens, token, ctx.config.users, jwt ? undefined : 'accessTokenFormat ("opaque"; set "jwt" if the service issues signed JWTs)');
      counts.add('issued');
    },
    // Shared prefixes and closeness rest on the values earlier cases saw: the first finding, unshrunk.
    { shrink: false });
    const n = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`;
    const note = `${n(codes.values.length, 'code')}, ${n(tokens.values.length, 'token')}${jwt ? ' (JWT signatures)' : ''} checked`;
    return { ...result, note: [result.note, note].filter(Boolean).join('; ') };
  },
};
