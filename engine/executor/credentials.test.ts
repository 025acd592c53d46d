import { describe, expect, it } from 'vitest';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import { credentialsFor, credentialTexts, userClaims } from './credentials.ts';

const user: Caller = { kind: 'user', id: '6f1c2a4e-0000-4000-8000-000000000001', email: 'ada@example.com', aal: 'aal2' };
const requests: (ApiRequest | undefined)[] = [
  undefined,
  { kind: 'select', table: 'users', columns: '*', filters: [] },
  { kind: 'select', table: 'cards', schema: 'passport', columns: '*', filters: [], single: true },
  { kind: 'update', table: 'users', patch: { role: 'admin' }, filters: [], returning: 'minimal' },
  { kind: 'insert', table: 'cards', schema: 'passport', rows: [{ id: 1 }], returning: 'representation' },
  { kind: 'rpc', fn: 'whoami', args: {} },
  // Each differs from one above in one thing the headers depend on (single, returning, schema, read or write).
  { kind: 'select', table: 'cards', schema: 'passport', columns: '*', filters: [] },
  { kind: 'select', table: 'cards', schema: 'other', columns: '*', filters: [], single: true },
  { kind: 'update', table: 'users', patch: { role: 'admin' }, filters: [], returning: 'representation' },
  { kind: 'delete', table: 'users', filters: [], returning: 'minimal', single: true },
  { kind: 'rpc', fn: 'whoami', args: {}, schema: 'passport' },
  // The method (a GET rpc), an upsert's resolution, max-affected: each changes the headers too.
  { kind: 'rpc', fn: 'whoami', args: {}, schema: 'passport', get: true },
  { kind: 'insert', table: 'cards', schema: 'passport', rows: [{ id: 1 }], returning: 'representation', upsert: { resolution: 'merge-duplicates' } },
  { kind: 'update', table: 'users', patch: { role: 'admin' }, filters: [], returning: 'minimal', maxAffected: 2 },
];

describe('credentialTexts: the claims and headers as PostgREST sets them, made once per token and header set', () => {
  it('is the JSON of credentialsFor for every caller and request, asked in any order and again', () => {
    const keyed = { lumkey: 'k-1' };
    const callers: [Caller, { withoutToken?: boolean }][] = [[{ kind: 'anon' }, {}], [{ kind: 'anon', headers: keyed }, {}], [{ kind: 'anon' }, { withoutToken: true }], [{ kind: 'service' }, {}], [{ kind: 'service', headers: { lumkey: 'k-2' } }, {}], [user, {}], [{ ...user, headers: keyed }, {}]];
    // Twice over, so the second pass reads what the first cached: each request must get its own headers, not the previous one's.
    for (let pass = 0; pass < 2; pass++) {
      for (const [caller, options] of callers) {
        for (const request of requests) {
          const creds = credentialsFor(caller, options, request);
          expect(credentialTexts(caller, options, request)).toEqual({ role: creds.role, claims: JSON.stringify(creds.claims), headers: JSON.stringify(creds.headers) });
        }
      }
    }
  });

  // Tokens are kept across cases by what the token says (each case draws its callers anew): a
  // user differing in any one claim must get a token of its own, never a kept one of another user.
  it('gives each user the token of its own claims, however many users came before', () => {
    const base: Extract<Caller, { kind: 'user' }> = { kind: 'user', id: '6f1c2a4e-0000-4000-8000-0000000000aa', email: 'bea@example.com', phone: '+15550100', aal: 'aal1', isAnonymous: false, appMetadata: { role: 'member' } };
    const variants: Extract<Caller, { kind: 'user' }>[] = [
      { ...base },
      { ...base, id: '6f1c2a4e-0000-4000-8000-0000000000ab' },
      { ...base, email: 'cy@example.com' },
      { ...base, email: undefined },
      { ...base, phone: '+15550101' },
      { ...base, aal: 'aal2' },
      { ...base, isAnonymous: true },
      { ...base, appMetadata: { role: 'admin' } },
      { ...base, appMetadata: { role: 'member', team: 't1' } },
      { ...base, appMetadata: undefined },
      { ...base, hookClaims: { user_permissions: ['settings.read'] } },
      { ...base, hookClaims: { user_permissions: ['settings.read', 'settings.update'] } },
    ];
    for (let pass = 0; pass < 2; pass++) {
      for (const caller of variants) expect(JSON.parse(credentialTexts(caller).claims)).toEqual(userClaims(caller));
    }
  });

  it("carries the claims a custom access-token hook adds at the token's top level (auth.jwt() ->> 'user_permissions')", () => {
    const caller: Caller = { kind: 'user', id: '6f1c2a4e-0000-4000-8000-0000000000ac', appMetadata: { workspace_id: 'w1' }, hookClaims: { user_permissions: ['settings.read'] } };
    const claims = JSON.parse(credentialTexts(caller).claims);
    expect(claims).toMatchObject({ sub: caller.id, role: 'authenticated', user_permissions: ['settings.read'], app_metadata: { provider: 'email', workspace_id: 'w1' } });
  });

  // After feedbase, whose policies read a project API key from a header its clients send
  // (`current_setting('request.headers', true)::json ->> 'lumkey'`): no caller could carry one.
  it('carries the headers the client adds (supabase-js global.headers) beside the keys, lower-cased; the request\'s own headers win', () => {
    const keyed: Caller = { kind: 'anon', headers: { LumKey: 'secret-1', prefer: 'return=headers-only' } };
    const insert: ApiRequest = { kind: 'insert', table: 'feedback', rows: [{ id: 1 }], returning: 'minimal' };
    const headers = JSON.parse(credentialTexts(keyed, {}, insert).headers);
    expect(headers).toMatchObject({ lumkey: 'secret-1', prefer: '', apikey: expect.any(String) });
    // The same token without the header (anon callers share one) sends none: nothing is kept across callers.
    expect(JSON.parse(credentialTexts({ kind: 'anon' }, {}, insert).headers).lumkey).toBeUndefined();
  });
});
