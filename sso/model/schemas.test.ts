import { describe, it, expect } from 'vitest';
import { ProfileSchema, TokenRequestSchema, TokenResponseSchema, profileOf, tokenResultOf, TOKEN_FAILURE } from './schemas.ts';
import { fixtureUsers } from './test-fixtures.ts';

describe('SSO schemas', () => {
  const user = fixtureUsers[0]!;
  it('derive token result and profile with the spec spelling (firstName vs firstname)', () => {
    const t = tokenResultOf(user, 'tok');
    const p = profileOf(user);
    expect(TokenResponseSchema.parse(t)).toEqual(t);
    expect(ProfileSchema.parse(p)).toEqual(p);
    expect(p.firstname).toBe(t.firstName);
    expect(p.lastname).toBe(t.lastName);
    expect(Object.keys(p)).toHaveLength(20);
    expect(TokenResponseSchema.parse(TOKEN_FAILURE)).toEqual({ ok: false, error: 'AUTH0001' });
  });
  it('accept exactly four string fields in a token request', () => {
    const ok = { code: 'c', redirectUrl: 'u', clientId: 'i', clientSecret: 's' };
    expect(TokenRequestSchema.safeParse(ok).success).toBe(true);
    expect(TokenRequestSchema.safeParse({ ...ok, extra: 1 }).success).toBe(false);
    expect(TokenRequestSchema.safeParse({ ...ok, code: 1 }).success).toBe(false);
    const { clientSecret: _, ...missing } = ok;
    expect(TokenRequestSchema.safeParse(missing).success).toBe(false);
  });
});
