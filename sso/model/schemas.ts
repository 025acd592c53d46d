import { z } from 'zod';

/**
 * The one home of every SSO request and response shape (spec §2, §4) and of the registration
 * data (clients, users). The model predicts with them, the emulator answers with them and the
 * client validates what any deployment says against them.
 */

// ---- registration -------------------------------------------------------------------------

const absoluteHttpUrl = z
  .string()
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.href.length > 0;
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');

export const ClientRegistrationSchema = z.strictObject({
  /** `app` query parameter of the login and logout pages. */
  appId: z.string().min(1),
  /** `clientId` of auth.token. */
  clientId: z.string().min(1),
  /** `clientSecret` of auth.token: back-channel only. */
  clientSecret: z.string().min(8, 'a client secret must be at least 8 characters'),
  /**
   * Registered Redirect URL: compared to auth.token's `redirectUrl` as an exact string. A login
   * that names none goes there, so it is the one the properties log in to (default: the first of
   * `redirectUrls`).
   */
  redirectUrl: absoluteHttpUrl.optional(),
  /** Every Redirect URL registered for the client, when it has several: a code issued for one is refused with another. */
  redirectUrls: z.array(absoluteHttpUrl).min(1).optional(),
  /** Registered Redirect Logout URL. */
  logoutUrl: absoluteHttpUrl,
})
  .superRefine((c, ctx) => {
    if (c.redirectUrl === undefined && c.redirectUrls === undefined) ctx.addIssue({ code: 'custom', path: ['redirectUrl'], message: 'give redirectUrl or redirectUrls' });
    if (c.redirectUrl !== undefined && c.redirectUrls !== undefined && !c.redirectUrls.includes(c.redirectUrl)) {
      ctx.addIssue({ code: 'custom', path: ['redirectUrl'], message: 'must be one of redirectUrls (the one a login goes to by default)' });
    }
  })
  .transform((c) => ({ ...c, redirectUrl: c.redirectUrl ?? c.redirectUrls![0]! }));
export type ClientRegistration = z.infer<typeof ClientRegistrationSchema>;

/** Every Redirect URL registered for a client, the default (`redirectUrl`) first. */
export function registeredRedirectUrls(client: ClientRegistration): string[] {
  return [...new Set([client.redirectUrl, ...(client.redirectUrls ?? [])])];
}

/** Profile members other than the four that repeat token-result fields (email, citizenId, names). */
export const profileOnlyFieldNames = [
  'userId',
  'type',
  'title',
  'titleEng',
  'firstnameEng',
  'lastnameEng',
  'facultyName',
  'positionName',
  'positionTypeName',
  'levelId',
  'levelName',
  'gender',
  'workline',
  'phoneNumber',
  'personStatus',
  'lastVerify',
] as const;

const profileOnlyShape = Object.fromEntries(profileOnlyFieldNames.map((n) => [n, z.string()])) as Record<
  (typeof profileOnlyFieldNames)[number],
  z.ZodString
>;

export const UserRecordSchema = z.strictObject({
  /** Login name typed on the login page. */
  username: z.string().min(1),
  password: z.string().min(1),
  /** `role` in auth.status. */
  role: z.string().min(1),
  email: z.string().min(3),
  immutableId: z.string().min(1),
  citizenId: z.string().min(1),
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  employeeId: z.string().min(1),
  /**
   * The profile members that are not repeated from the token result. `email`, `citizenId`,
   * `firstname` and `lastname` default to the token's fields; give them when the service's
   * profile holds other values (the spec does not say they are equal).
   */
  profile: z.strictObject({
    ...profileOnlyShape,
    email: z.string().optional(),
    citizenId: z.string().optional(),
    firstname: z.string().optional(),
    lastname: z.string().optional(),
  }),
});
export type UserRecord = z.infer<typeof UserRecordSchema>;

// ---- auth.token ---------------------------------------------------------------------------

/** Exactly four string fields; anything else is a malformed request. */
export const TokenRequestSchema = z.strictObject({
  code: z.string(),
  redirectUrl: z.string(),
  clientId: z.string(),
  clientSecret: z.string(),
});
export type TokenRequest = z.infer<typeof TokenRequestSchema>;

export const TokenSuccessSchema = z.object({
  ok: z.literal(true),
  accessToken: z.string().min(1),
  email: z.string(),
  immutableId: z.string(),
  citizenId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  employeeId: z.string(),
});
export type TokenSuccess = z.infer<typeof TokenSuccessSchema>;

export const TokenFailureSchema = z.object({ ok: z.literal(false), error: z.string() });
export type TokenFailure = z.infer<typeof TokenFailureSchema>;

export const TokenResponseSchema = z.union([TokenSuccessSchema, TokenFailureSchema]);
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

/** The uniform failure body: the same for every failed exchange, so it hints at nothing. */
export const TOKEN_FAILURE: TokenFailure = Object.freeze({ ok: false, error: 'AUTH0001' }) as TokenFailure;

// ---- user.profile -------------------------------------------------------------------------

/** Note the spelling: `firstname`/`lastname` here, `firstName`/`lastName` in the token result. */
export const ProfileSchema = z.object({
  email: z.string(),
  citizenId: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  ...profileOnlyShape,
});
export type Profile = z.infer<typeof ProfileSchema>;

export const ProfileResponseSchema = z.object({ ok: z.literal(true), profile: ProfileSchema });
export type ProfileResponse = z.infer<typeof ProfileResponseSchema>;

// ---- auth.status --------------------------------------------------------------------------

export const SessionStatusSchema = z.object({ sessionId: z.string().min(1), email: z.string(), role: z.string() });
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

export const StatusResponseSchema = z.object({ ok: z.literal(true), user: SessionStatusSchema });
export type StatusResponse = z.infer<typeof StatusResponseSchema>;

// ---- login form ---------------------------------------------------------------------------

/** POST /login body: username and password, as typed on the page (a preset pick fills both). */
export const LoginFormSchema = z.object({ username: z.string(), password: z.string() });
export type LoginForm = z.infer<typeof LoginFormSchema>;

// ---- derived identity ---------------------------------------------------------------------

export function tokenResultOf(user: UserRecord, accessToken: string): TokenSuccess {
  return {
    ok: true,
    accessToken,
    email: user.email,
    immutableId: user.immutableId,
    citizenId: user.citizenId,
    firstName: user.firstName,
    lastName: user.lastName,
    employeeId: user.employeeId,
  };
}

export function profileOf(user: UserRecord): Profile {
  const { email, citizenId, firstname, lastname, ...rest } = user.profile;
  return {
    email: email ?? user.email,
    citizenId: citizenId ?? user.citizenId,
    firstname: firstname ?? user.firstName,
    lastname: lastname ?? user.lastName,
    ...rest,
  };
}

/** Code shape promised by the spec (§4.1): "looks like a UUID". */
export const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
