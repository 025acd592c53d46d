/**
 * Deliberate defects the emulator can be started with, to prove each security property catches
 * the fault it exists for. Never enable these outside tests.
 */
export const SSO_FAULTS = [
  /** A code can be exchanged any number of times. */
  'reusable-code',
  /** auth.token accepts any redirectUrl that starts with the registered one. */
  'redirect-prefix-match',
  /** /logout sends the browser to a `redirect` query parameter when one is given. */
  'logout-follows-redirect-param',
  /** Tokens keep working after their session logged out. */
  'token-survives-logout',
  /** A body that is not JSON makes auth.token answer HTTP 500. */
  'malformed-json-500',
  /** auth.token does not compare the client secret. */
  'ignore-client-secret',
  /** Codes never expire. */
  'code-never-expires',
  /** The post-login redirect uses 307, which makes the browser re-post the credentials to the client. */
  'login-redirect-307',
  /** /login sends the code to a `redirect_uri` query parameter when one is given. */
  'login-follows-redirect-uri',
  /** A silent login (browser with a session) also puts the session's latest access token in the redirect's fragment. */
  'token-in-front-channel',
  /** user.profile answers `firstName`/`lastName` (the token's spelling) instead of `firstname`/`lastname`. */
  'profile-camelcase',
  /** Codes are UUID-shaped but count up from 1: each one predicts the next. */
  'guessable-codes',
  /** The login page sends its own CSP without frame-ancestors and drops X-Frame-Options. */
  'no-frame-protection',
  /** user.profile and auth.status accept the token as an `access_token` query parameter (RFC 6750 §2.3). */
  'token-in-query-accepted',
  /** An exchange that fails on the client, secret or URL leaves the code redeemable. */
  'failed-exchange-keeps-code',
  /** POST /login accepts a form posted from another site (no Origin check): login CSRF. */
  'login-accepts-cross-site-post',
] as const;

export type SsoFault = (typeof SSO_FAULTS)[number];
