import type { SsoSettings } from '../../model/settings.ts';
import type { Middleware } from '../http.ts';
import { CORRECT_STORE_RULES, type StoreRules } from '../store.ts';
import type { Fault, FaultContext } from './fault.ts';
import { loginAcceptsCrossSitePost, loginFollowsRedirectUri, loginRedirect307, noFrameProtection, tokenInFrontChannel } from './login.ts';
import { logoutFollowsRedirectParam, tokenSurvivesLogout } from './logout.ts';
import { codeNeverExpires, failedExchangeKeepsCode, guessableCodes, ignoreClientSecret, malformedJson500, redirectPrefixMatch, reusableCode } from './token.ts';
import { profileCamelcase, tokenInQueryAccepted } from './bearer.ts';

/**
 * Deliberate defects the emulator can be started with, to prove each security property catches
 * the fault it exists for. Never enable these outside tests. Each one's doc comment, next to it,
 * says what it breaks.
 */
const FAULTS = {
  'reusable-code': reusableCode,
  'redirect-prefix-match': redirectPrefixMatch,
  'logout-follows-redirect-param': logoutFollowsRedirectParam,
  'token-survives-logout': tokenSurvivesLogout,
  'malformed-json-500': malformedJson500,
  'ignore-client-secret': ignoreClientSecret,
  'code-never-expires': codeNeverExpires,
  'login-redirect-307': loginRedirect307,
  'login-follows-redirect-uri': loginFollowsRedirectUri,
  'token-in-front-channel': tokenInFrontChannel,
  'profile-camelcase': profileCamelcase,
  'guessable-codes': guessableCodes,
  'no-frame-protection': noFrameProtection,
  'token-in-query-accepted': tokenInQueryAccepted,
  'failed-exchange-keeps-code': failedExchangeKeepsCode,
  'login-accepts-cross-site-post': loginAcceptsCrossSitePost,
} as const satisfies Record<string, Fault>;

export type SsoFault = keyof typeof FAULTS;
export const SSO_FAULTS = Object.keys(FAULTS) as [SsoFault, ...SsoFault[]];

/** What a set of faults changes, ready to build the emulator with. */
export interface FaultLayers {
  readonly actsAsIf: Partial<SsoSettings>;
  readonly storeRules: StoreRules;
  /** Innermost first. */
  readonly middleware: readonly ((ctx: FaultContext) => Middleware)[];
}

/**
 * The faults' changes, composed. They apply in the order of SSO_FAULTS whatever order they were
 * named in (a name given twice counts once), so two faults on one reply always meet the same way:
 * e.g. login-follows-redirect-uri moves the redirect, then token-in-front-channel appends to it.
 * No faults: the configured settings, CORRECT_STORE_RULES itself and no middleware.
 */
export function faultLayersOf(names: readonly SsoFault[]): FaultLayers {
  const faults: Fault[] = SSO_FAULTS.filter((n) => names.includes(n)).map((n) => FAULTS[n]);
  return {
    actsAsIf: Object.assign({}, ...faults.map((f) => f.actsAsIf ?? {})) as Partial<SsoSettings>,
    storeRules: faults.reduce<StoreRules>((rules, f) => (f.storeRules ? { ...rules, ...f.storeRules(rules) } : rules), CORRECT_STORE_RULES),
    middleware: faults.flatMap((f) => (f.middleware ? [f.middleware] : [])),
  };
}
