import { describe, expect, it } from 'vitest';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import { credentialsFor, credentialTexts } from './credentials.ts';

const user: Caller = { kind: 'user', id: '6f1c2a4e-0000-4000-8000-000000000001', email: 'ada@example.com', aal: 'aal2' };
const requests: (ApiRequest | undefined)[] = [
  undefined,
  { kind: 'select', table: 'users', columns: '*', filters: [] },
  { kind: 'select', table: 'cards', schema: 'passport', columns: '*', filters: [], single: true },
  { kind: 'update', table: 'users', patch: { role: 'admin' }, filters: [], returning: 'minimal' },
  { kind: 'insert', table: 'cards', schema: 'passport', rows: [{ id: 1 }], returning: 'representation' },
  { kind: 'rpc', fn: 'whoami', args: {} },
];

describe('credentialTexts: the claims and headers as PostgREST sets them, made once per token and header set', () => {
  it('is the JSON of credentialsFor for every caller and request, asked in any order and again', () => {
    const callers: [Caller, { withoutToken?: boolean }][] = [[{ kind: 'anon' }, {}], [{ kind: 'anon' }, { withoutToken: true }], [{ kind: 'service' }, {}], [user, {}]];
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
});
