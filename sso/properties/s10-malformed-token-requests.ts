import fc from 'fast-check';
import { bodyOf, type TokenCall } from '../client/client.ts';
import { expectThat, freshLogin, oneCasePerVariant, goodTokenRequest, isSuccessAnswer, isUniformFailure, pickClient, pickUser, runFcProperty, type PropertyContext, type SsoProperty } from './kit.ts';

/**
 * What a variant may answer. `uniform`: exactly the uniform failure. `transport`: a wrong method
 * or content type may also get any 4xx (issue 11.11). `ignorable`: an unknown extra member (and a
 * duplicate whose decoy comes first) may be ignored (RFC 6749 §3.2: unknown parameters MUST be
 * ignored), so a normal exchange answer is accepted too.
 */
type Reading = 'uniform' | 'transport' | 'ignorable';
/** `live`: always sent with a live code (a lax service would issue a token for it: credentials in a URL or a form body). */
type Malformation = { variant: string; reading?: Reading; live?: true; make: (good: Record<string, string>) => TokenCall };

const FIELDS = ['code', 'redirectUrl', 'clientId', 'clientSecret'] as const;
const JSON_CT = 'application/json';

/**
 * Every way a token request can be malformed, one arbitrary per variant (each content type and
 * method its own); `make` receives a well-formed body with a live code.
 */
export function malformationVariants(): fc.Arbitrary<Malformation>[] {
  const field = fc.constantFrom(...FIELDS);
  const wrongValue = fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }));
  return [
    fc.string({ maxLength: 60 }).filter((s) => { try { JSON.parse(s); return false; } catch { return true; } })
      .map((text) => ({ variant: 'not-json', make: () => ({ contentType: JSON_CT, body: text }) })),
    fc.constant({ variant: 'truncated-json', make: (g: Record<string, string>) => ({ contentType: JSON_CT, body: JSON.stringify(g).slice(0, -1) }) }),
    fc.constant({ variant: 'form-encoded', reading: 'transport' as const, live: true as const, make: (g: Record<string, string>) => ({ contentType: 'application/x-www-form-urlencoded', body: new URLSearchParams(g).toString() }) }),
    // The fields in the query string (credentials in URLs end up in logs), as a GET and as a bodiless POST.
    ...['GET', 'POST'].map((m) => fc.constant({ variant: `query-string:${m}`, reading: 'transport' as const, live: true as const, make: (g: Record<string, string>) => ({ method: m, contentType: null, body: '', query: new URLSearchParams(g).toString() }) })),
    ...(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', null, 'application/jsonp', 'application/json-patch+json'] as const).map((ct) =>
      fc.constant({ variant: `content-type:${ct}`, reading: 'transport' as const, make: (g: Record<string, string>) => ({ contentType: ct, body: JSON.stringify(g) }) }),
    ),
    ...['GET', 'PUT', 'DELETE', 'PATCH'].map((m) => fc.constant({ variant: `method:${m}`, reading: 'transport' as const, make: (g: Record<string, string>) => ({ method: m, contentType: JSON_CT, body: JSON.stringify(g) }) })),
    ...['[]', 'null', '1', '"x"', 'true', '{}'].map((t) => fc.constant({ variant: `json-${t}`, make: () => ({ contentType: JSON_CT, body: t }) })),
    fc.subarray([...FIELDS], { minLength: 1 }).map((drop) => ({
      variant: `missing:${drop.join('+')}`,
      make: (g: Record<string, string>) => ({ contentType: JSON_CT, body: JSON.stringify(Object.fromEntries(Object.entries(g).filter(([k]) => !drop.includes(k as (typeof FIELDS)[number])))) }),
    })),
    fc.tuple(fc.constantFrom('extra', 'scope', 'constructor', 'prototype', 'toString', 'ok', 'Code'), fc.jsonValue({ maxDepth: 1 })).map(([k, v]) => ({
      variant: `extra-field:${k}`,
      reading: 'ignorable' as const,
      make: (g: Record<string, string>) => ({ contentType: JSON_CT, body: JSON.stringify({ ...g, [k]: v }) }),
    })),
    fc.constantFrom('{}', '{"clientSecret":"x"}', '"x"', 'null').map((v) => ({
      variant: '__proto__-key',
      reading: 'ignorable' as const,
      make: (g: Record<string, string>) => ({ contentType: JSON_CT, body: `{"__proto__":${v},${JSON.stringify(g).slice(1)}` }),
    })),
    fc.tuple(field, wrongValue).map(([f, v]) => ({ variant: `wrong-type:${f}`, make: (g: Record<string, string>) => ({ contentType: JSON_CT, body: JSON.stringify({ ...g, [f]: v }) }) })),
    fc.tuple(field, fc.integer({ min: 17 * 1024, max: 64 * 1024 })).map(([f, n]) => ({
      variant: `huge:${f}`,
      make: (g: Record<string, string>) => ({ contentType: JSON_CT, body: JSON.stringify({ ...g, [f]: g[f] + 'A'.repeat(n) }) }),
    })),
    fc.tuple(field, fc.constantFrom('\u0000', '\u0007', '\n', '\r\n', '\u001b[31m', '\u2028', '\ufeff')).map(([f, c]) => ({
      variant: `control-char:${f}`,
      make: (g: Record<string, string>) => ({ contentType: JSON_CT, body: JSON.stringify({ ...g, [f]: `${g[f]}${c}` }) }),
    })),
    field.map((f) => ({
      // A duplicate key whose first copy is a decoy: a lax parser keeps the last (valid) one.
      variant: `duplicate-key:${f}`,
      reading: 'ignorable' as const,
      make: (g: Record<string, string>) => ({ contentType: JSON_CT, body: `{${JSON.stringify(f)}:"decoy",${JSON.stringify(g).slice(1)}` }),
    })),
    fc.constant({ variant: 'nested', make: (g: Record<string, string>) => ({ contentType: JSON_CT, body: JSON.stringify({ request: g }) }) }),
    fc.constant({ variant: 'array-wrapped', make: (g: Record<string, string>) => ({ contentType: JSON_CT, body: JSON.stringify([g]) }) }),
  ];
}

/** A malformed auth.token request gets exactly HTTP 200 `{ok:false,error:"AUTH0001"}`: no 5xx, no hint. */
export const S10: SsoProperty = {
  id: 'S10',
  title: 'Malformed token requests answer exactly HTTP 200 {ok:false, error:"AUTH0001"}',
  severity: 'M',
  run: (ctx: PropertyContext, opts) =>
    runFcProperty(
      S10,
      opts,
      caseOf(ctx, fc.oneof(...malformationVariants())),
      async ({ client, user, malformed, liveCode }, counts) => {
        // Half of the cases carry a live code, so a lax server that ignores the defect would issue a token.
        const code = liveCode || malformed.live ? (await freshLogin(ctx, client, user)).code : '00000000-0000-4000-8000-000000000000';
        const call = malformed.make(goodTokenRequest(client, code));
        const reply = await ctx.client.exchangeRaw(call);
        const reading = malformed.reading ?? 'uniform';
        const uniform = isUniformFailure(reply);
        const transport4xx = reading === 'transport' && reply.status >= 400 && reply.status < 500;
        // An ignored extra member leaves a well-formed request: its normal answer (a token for a live code) is fine.
        const ignored = reading === 'ignorable' && (liveCode || malformed.live === true) && isSuccessAnswer(reply);
        counts.add(`${malformed.variant.split(':')[0]}:${uniform ? 'AUTH0001' : ignored ? 'ignored-extra' : reply.status}`);
        const allowed =
          reading === 'transport' ? 'exactly 200 {ok:false,error:"AUTH0001"} or any 4xx' : reading === 'ignorable' ? 'exactly 200 {ok:false,error:"AUTH0001"}, or the normal answer with the extra member ignored (RFC 6749 §3.2)' : 'exactly 200 {ok:false,error:"AUTH0001"}';
        counts.add(`variant ${malformed.variant}`);
        // Expected and observed have one shape ({status, body}), so the diff names what differs
        // (`$.status: 200 → 500`); the request sent goes in the message.
        const sent = `${call.method ?? 'POST'}${call.query ? ` ?${call.query.length > 120 ? `${call.query.slice(0, 120)}…` : call.query}` : ''} (${call.contentType ?? 'no content type'}) ${call.body.length > 200 ? `${call.body.slice(0, 200)}… (${call.body.length} chars)` : call.body}`;
        expectThat(uniform || transport4xx || ignored, `a malformed token request (${malformed.variant}) must get ${allowed}\nsent: ${sent}`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, { status: reply.status, body: bodyOf(reply) });
      },
      { examples: oneCasePerVariant(malformationVariants(), (m) => caseOf(ctx, m), opts.seed) },
    ),
};

const caseOf = (ctx: PropertyContext, malformed: fc.Arbitrary<Malformation>) => fc.record({ client: pickClient(ctx), user: pickUser(ctx), malformed, liveCode: fc.boolean() });
