import { z } from 'zod';

/**
 * Every choice the SSO spec leaves open, in one place. The model and the emulator both read
 * these; a config file may override any of them (`settings` object). Defaults are the strict,
 * recommended answer for each open question (see docs/sso.md).
 */
export const SsoSettingsSchema = z
  .object({
    /** Seconds a login code may be redeemed after it was issued (spec §8: not shown; RFC 6749 says ≤ 10 min). */
    codeLifetimeSeconds: z.number().int().positive().max(600).default(60),
    /** Seconds an access token is accepted after issue (spec §8: not shown). Same for both bearer endpoints. */
    tokenLifetimeSeconds: z.number().int().positive().default(3600),
    /** Seconds a browser session may be used for a silent login (spec: not shown). */
    sessionLifetimeSeconds: z.number().int().positive().default(8 * 3600),
    /** Whether a failed exchange that names a live code (wrong secret, URL, client) uses the code up. */
    failedExchangeConsumesCode: z.boolean().default(true),
    /** Whether redeeming an already used code revokes the token first issued from it (RFC 6749 §4.1.2 SHOULD). */
    replayRevokesToken: z.boolean().default(true),
    /** Whether logout revokes tokens issued in that browser session (auth.status reports a session). */
    logoutRevokesTokens: z.boolean().default(true),
    /** Whether a browser with a live session gets a code without typing credentials again. */
    silentLoginWithSession: z.boolean().default(true),
    /** HTTP status of the post-login redirect: 302 or 303 only (307/308 would re-post credentials). */
    loginRedirectStatus: z.union([z.literal(302), z.literal(303)]).default(302),
    /** HTTP status of the post-logout redirect. */
    logoutRedirectStatus: z.union([z.literal(302), z.literal(303)]).default(302),
    /** Largest auth.token body accepted, in bytes; larger bodies get the uniform failure (spec §8: not shown). */
    maxTokenBodyBytes: z.number().int().positive().default(16 * 1024),
    /** Access tokens are opaque random strings, or signed JWTs (decodable by design: S18 then checks only the signature). */
    accessTokenFormat: z.enum(['opaque', 'jwt']).default('opaque'),
  })
  .strict();

export type SsoSettings = z.infer<typeof SsoSettingsSchema>;

export const defaultSsoSettings: SsoSettings = SsoSettingsSchema.parse({});

/** Names of the open choices, for reports and docs. */
export const ssoSettingNames = Object.keys(defaultSsoSettings) as (keyof SsoSettings)[];
