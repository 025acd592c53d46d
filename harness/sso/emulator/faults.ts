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
] as const;

export type SsoFault = (typeof SSO_FAULTS)[number];
