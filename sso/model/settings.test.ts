import { describe, it, expect } from 'vitest';
import { SsoSettingsSchema, defaultSsoSettings } from './settings.ts';

describe('SSO settings', () => {
  it('fills every open choice with a strict default', () => {
    expect(defaultSsoSettings).toEqual({
      codeLifetimeSeconds: 60,
      tokenLifetimeSeconds: 3600,
      sessionLifetimeSeconds: 28800,
      failedExchangeConsumesCode: true,
      replayRevokesToken: true,
      logoutRevokesTokens: true,
      silentLoginWithSession: true,
      loginRedirectStatus: 302,
      logoutRedirectStatus: 302,
      maxTokenBodyBytes: 16384,
      accessTokenFormat: 'opaque',
    });
  });

  it('accepts overrides and keeps the rest', () => {
    const s = SsoSettingsSchema.parse({ codeLifetimeSeconds: 30, loginRedirectStatus: 303 });
    expect(s.codeLifetimeSeconds).toBe(30);
    expect(s.loginRedirectStatus).toBe(303);
    expect(s.replayRevokesToken).toBe(true);
  });

  it('rejects a 307 redirect, a code lifetime over 10 minutes and unknown names', () => {
    expect(SsoSettingsSchema.safeParse({ loginRedirectStatus: 307 }).success).toBe(false);
    expect(SsoSettingsSchema.safeParse({ codeLifetimeSeconds: 601 }).success).toBe(false);
    expect(SsoSettingsSchema.safeParse({ codeLifetimeSecs: 5 }).success).toBe(false);
  });
});
