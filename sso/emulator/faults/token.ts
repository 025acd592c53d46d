import { jsonReply } from '../http.ts';
import { rewritingReply, type Fault } from './fault.ts';

/** Faults of auth.token and the codes it exchanges. */

/** A code can be exchanged any number of times. */
export const reusableCode: Fault = { storeRules: (beneath) => ({ redeemable: (state) => state === 'redeemed' || beneath.redeemable(state) }) };

/** auth.token accepts any redirectUrl that starts with the registered one. */
export const redirectPrefixMatch: Fault = { storeRules: () => ({ redirectUrlMatches: (registered, sent) => sent.startsWith(registered) }) };

/** A body that is not JSON makes auth.token answer HTTP 500. */
export const malformedJson500: Fault = rewritingReply(['auth.token'], (reply) =>
  reply.refusal?.step === 'malformed-json' ? jsonReply(500, { error: `SyntaxError: ${reply.refusal.detail}` }) : reply,
);

/** auth.token does not compare the client secret. */
export const ignoreClientSecret: Fault = { storeRules: () => ({ secretMatches: () => true }) };

/** Codes never expire. */
export const codeNeverExpires: Fault = { actsAsIf: { codeLifetimeSeconds: Number.POSITIVE_INFINITY } };

/** Codes are UUID-shaped but count up from 1: each one predicts the next. */
export const guessableCodes: Fault = {
  storeRules: () => {
    let issued = 0;
    return { newCode: () => `00000000-0000-4000-8000-${(++issued).toString(16).padStart(12, '0')}` };
  },
};

/** An exchange that fails on the client, secret or URL leaves the code redeemable. */
export const failedExchangeKeepsCode: Fault = { actsAsIf: { failedExchangeConsumesCode: false } };
