import fc from 'fast-check';
import { registeredRedirectUrls, type ClientRegistration } from '../model/schemas.ts';

/** Generated near-misses and hostile inputs shared by several properties. */

const EVIL = ['https://evil.example/cb', '//evil.example/x', 'https:%2F%2Fevil.example', 'https%3A%2F%2Fevil.example%2Fcb', 'javascript:alert(1)', 'http://127.0.0.1:1/steal', '/\\evil.example'];

/** Parameters that popular servers wrongly honour as a redirect target. */
export const REDIRECT_PARAM_NAMES = ['redirect_uri', 'redirectUrl', 'redirect', 'returnTo', 'return_to', 'next', 'url', 'continue', 'post_logout_redirect_uri', 'code'];

/** Path, query and fragment characters: unreserved and sub-delimiters, and percent-encodings a lax matcher may decode (/ . \\ @ : % é, a right-to-left override). */
const URL_PIECES = [...'abcxyzABCXYZ0189-._~!$&\'()*+,;=:@', '%2F', '%2E', '%5C', '%40', '%3A', '%25', '%C3%A9', '%E2%80%AE'];

/**
 * Some other site's URL: http(s), a domain, a short path, maybe a query and a fragment. Not
 * fc.webUrl(): its path characters come from a table of every Unicode code point, built on first
 * use — 1.5 to 4.6 s of every run's SSO half (measured) for letters no redirect check looks at.
 */
export function otherSiteUrl(): fc.Arbitrary<string> {
  const piece = fc.array(fc.constantFrom(...URL_PIECES), { maxLength: 6 }).map((p) => p.join(''));
  const query = fc.array(fc.tuple(piece, piece), { maxLength: 2 }).map((q) => (q.length ? `?${q.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
  const fragment = fc.option(piece, { freq: 4 }).map((f) => (f === null ? '' : `#${f}`));
  return fc
    .tuple(fc.constantFrom('http', 'https'), fc.domain(), fc.array(piece, { maxLength: 3 }), query, fragment)
    .map(([scheme, host, path, q, f]) => `${scheme}://${host}/${path.join('/')}${q}${f}`);
}

export function hostileParams(others: readonly ClientRegistration[]): fc.Arbitrary<[string, string][]> {
  const values = fc.oneof(fc.constantFrom(...EVIL), fc.constantFrom(...others.flatMap((c) => [c.redirectUrl, c.logoutUrl])), otherSiteUrl());
  const some = fc.array(fc.tuple(fc.constantFrom(...REDIRECT_PARAM_NAMES), values), { maxLength: 4 });
  // Half of the cases try every known name at once, in a shuffled order.
  const all = fc.tuple(fc.array(values, { minLength: REDIRECT_PARAM_NAMES.length, maxLength: REDIRECT_PARAM_NAMES.length }), fc.shuffledSubarray(REDIRECT_PARAM_NAMES, { minLength: REDIRECT_PARAM_NAMES.length }))
    .map(([vs, names]) => names.map((n, i) => [n, vs[i]!] as [string, string]));
  return fc.oneof(some, all);
}

/** `app` values that must name no client: missing, empty, duplicated, case, space, encoding, unknown. */
export type BadApp = { variant: string; query: [string, string][] };

/**
 * Every way to name no registered app, one arbitrary per variant (so a property can run each at
 * least once): missing, empty, duplicated, another case, padded, suffixed, percent-encoded, under
 * another parameter name, unknown. A variant that cannot differ from every registered id (no
 * letter to flip, nothing to encode) is left out.
 */
export function badAppQueries(clients: readonly ClientRegistration[]): fc.Arbitrary<BadApp>[] {
  const ids = clients.map((c) => c.appId);
  const app = fc.constantFrom(...ids);
  const isBad = ({ query }: BadApp) => !(query.length === 1 && query[0]![0] === 'app' && ids.includes(query[0]![1]));
  const flipCase = (s: string) => (s === s.toUpperCase() ? s.toLowerCase() : s.toUpperCase());
  const encode = (s: string) => encodeURIComponent(s).replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`);
  const whereDifferent = (change: (s: string) => string) => ids.filter((a) => !ids.includes(change(a)));
  const flippable = whereDifferent(flipCase);
  const encodable = whereDifferent(encode);
  const variants: fc.Arbitrary<BadApp>[] = [
    fc.constant({ variant: 'missing', query: [] }),
    fc.constant({ variant: 'empty', query: [['app', '']] }),
    fc.tuple(app, app).map(([a, b]) => ({ variant: 'duplicated', query: [['app', a], ['app', b]] })),
    ...(flippable.length ? [fc.constantFrom(...flippable).map((a): BadApp => ({ variant: 'case-flip', query: [['app', flipCase(a)]] }))] : []),
    fc.tuple(app, fc.constantFrom(' ', '\t', '\n', '\u00a0')).map(([a, w]): BadApp => ({ variant: 'whitespace', query: [['app', `${w}${a}`]] })),
    fc.tuple(app, fc.constantFrom(' ', '%20', '/')).map(([a, w]): BadApp => ({ variant: 'suffix', query: [['app', `${a}${w}`]] })),
    ...(encodable.length ? [fc.constantFrom(...encodable).map((a): BadApp => ({ variant: 'encoded', query: [['app', encode(a)]] }))] : []),
    app.map((a): BadApp => ({ variant: 'other-name', query: [['App', a]] })),
    fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !ids.includes(s)).map((s): BadApp => ({ variant: 'unknown', query: [['app', s]] })),
  ];
  return variants.map((v) => v.filter(isBad));
}

/** Strings that are not the registered Redirect URL but look like it. */
export function redirectUrlNearMiss(client: ClientRegistration, others: readonly ClientRegistration[]): fc.Arbitrary<{ variant: string; url: string }> {
  return fc.constantFrom(...redirectUrlNearMisses(client, others));
}

/** Every near-miss of `client`'s Redirect URL, one per variant. */
export function redirectUrlNearMisses(client: ClientRegistration, others: readonly ClientRegistration[]): { variant: string; url: string }[] {
  const u = client.redirectUrl;
  const parsed = new URL(u);
  const hostStart = u.indexOf(parsed.hostname);
  const variants: [string, string][] = [
    ['trailing-slash', u.endsWith('/') ? u.slice(0, -1) : `${u}/`],
    ['host-case', u.slice(0, hostStart) + parsed.hostname.toUpperCase() + u.slice(hostStart + parsed.hostname.length)],
    ['scheme-swap', parsed.protocol === 'https:' ? u.replace(/^https:/, 'http:') : u.replace(/^http:/, 'https:')],
    ['explicit-port', parsed.port ? u.replace(`:${parsed.port}`, '') : u.replace(parsed.host, `${parsed.host}:${parsed.protocol === 'https:' ? 443 : 80}`)],
    ['other-port', u.replace(parsed.host, `${parsed.hostname}:${Number(parsed.port || 443) + 1}`)],
    ['extra-query', `${u}${u.includes('?') ? '&' : '?'}x=1`],
    ['fragment', `${u}#x`],
    ['percent-encoded', u.replace(/\/([a-z])/i, (_, c: string) => `/%${c.charCodeAt(0).toString(16).toUpperCase()}`)],
    ['dot-segment', u.replace(parsed.pathname, `/.${parsed.pathname}`)],
    ['dot-dot', `${u.split('?')[0]}/../${parsed.pathname.split('/').pop() ?? ''}`],
    ['leading-space', ` ${u}`],
    ['trailing-space', `${u} `],
    ['nul', `${u}\u0000`],
    ['suffix', `${u.split('?')[0]}x${parsed.search}`],
    ['path-case', u.replace(parsed.pathname, parsed.pathname.toUpperCase())],
    ['unicode-lookalike', u.replace(/a/, '\u0430')],
    ['nfd', u.normalize('NFD') === u ? u.replace(/e/, 'e\u0301') : u.normalize('NFD')],
    ['userinfo', u.replace('://', '://user@')],
    ['prefix-extension', `${u}.evil.example`],
    ['empty', ''],
    ...others.map((o) => [`other-client:${o.appId}`, o.redirectUrl] as [string, string]),
    // Registered for the same client, but the code was sent elsewhere: a code is bound to the exact URL.
    ...registeredRedirectUrls(client).slice(1).map((url, i) => [`other-registered-url:${i + 2}`, url] as [string, string]),
  ];
  return variants.filter(([, v]) => v !== u).map(([variant, url]) => ({ variant, url }));
}

/** Client secrets that are not the secret: empty, case, whitespace, truncated, extended, random. */
/** Every near miss of a client secret, one arbitrary per variant; a variant that cannot differ from the secret is left out. */
export function secretNearMisses(secret: string): Map<string, fc.Arbitrary<string>> {
  const flip = secret.replace(/[a-z]/i, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
  // [variant, can differ from the secret, near miss]: a constant equal to the secret would be filtered forever.
  const variants: [string, boolean, fc.Arbitrary<string>][] = [
    ['empty', secret !== '', fc.constant('')],
    ['case-flip', flip !== secret, fc.constant(flip)],
    ['all-caps', secret.toUpperCase() !== secret, fc.constant(secret.toUpperCase())],
    ['whitespace', true, fc.constantFrom(' ', '\t', '\n').map((w) => `${secret}${w}`)],
    ['leading-space', true, fc.constantFrom(' ', '\t').map((w) => `${w}${secret}`)],
    ['truncated', secret.length > 0, fc.integer({ min: 1, max: Math.max(1, secret.length - 1) }).map((n) => secret.slice(0, secret.length - n))],
    ['extended', true, fc.string({ minLength: 1, maxLength: 3 }).map((x) => `${secret}${x}`)],
    ['random', true, fc.string({ minLength: 1, maxLength: 40 })],
  ];
  return new Map(variants.filter(([, possible]) => possible).map(([name, , v]) => [name, v.filter((x) => x !== secret)]));
}
