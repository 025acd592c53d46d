/**
 * Every refusal the reference model predicts, with its reason: the database's error text must
 * match that reason's pattern (settings.refusals.messages, or the spec's own text where the
 * spec names it). One place, so a guard and a function refusing for the same reason agree.
 */
import { allowed, raised, type Outcome } from '../../../engine/model/outcome.ts';
import type { ModelSettings, NON_HANDLER_REFUSING_FUNCTIONS, NOT_FOUND_REFUSING_FUNCTIONS } from './settings.ts';

export type RefusalReason = keyof ModelSettings['refusals']['messages'];

/** Guards and functions refuse by raising P0001 (PostgREST answers 400) unless refusals.codes says otherwise. */
export const REFUSAL_CODE = 'P0001';

/** A refusal for `reason`, its text checked against the setting refusals.messages.<reason>. */
export function refusal(settings: ModelSettings, reason: RefusalReason, message?: string): Outcome {
  return raised(settings.refusals.codes[reason] ?? REFUSAL_CODE, message, { reason, pattern: settings.refusals.messages[reason], setting: `refusals.messages.${reason}`, codeSetting: `refusals.codes.${reason}` });
}

/** The setting notFoundAnswer reads: named in a failure where one side answered and the other raised. */
export const NOT_FOUND_SETTING = 'refusals.notFound';

/**
 * `fn`'s answer when the row it acts on does not exist: `false` (the spec's), or the not-found
 * refusal where settings.refusals.notFound is `raise` (for every function, or for `fn`).
 */
export function notFoundAnswer(settings: ModelSettings, fn: 'soft_delete_pr_ticket' | 'soft_delete_vs_ticket', message: string): Outcome {
  const choice = typeof settings.refusals.notFound === 'string' ? settings.refusals.notFound : (settings.refusals.notFound[fn] ?? 'answer');
  return choice === 'raise' ? refusal(settings, 'not-found', message) : allowed([{ value: false }], 1);
}

/**
 * `fn`'s refusal of a ticket it cannot find (or may not act on): the not-found refusal, or the
 * not-authorized one where settings.refusals.notFoundAs names `fn` so; either names that setting.
 */
export function notFoundRefusal(settings: ModelSettings, fn: (typeof NOT_FOUND_REFUSING_FUNCTIONS)[number], message: string): Outcome {
  const as = settings.refusals.notFoundAs[fn] ?? 'not-found';
  const outcome = refusal(settings, as, as === 'not-found' ? message : undefined);
  if (outcome.kind !== 'raised' || !outcome.refusal) return outcome;
  return { ...outcome, refusal: { ...outcome.refusal, codeSetting: `${outcome.refusal.codeSetting} or refusals.notFoundAs.${fn}` } };
}

/**
 * `fn`'s refusal of a caller with a role who handles no VS ticket: not-authorized, or as a ticket
 * it cannot find where settings.refusals.nonHandlerAs names `fn` so; either names that setting.
 */
export function nonHandlerRefusal(settings: ModelSettings, fn: (typeof NON_HANDLER_REFUSING_FUNCTIONS)[number]): Outcome {
  const outcome = settings.refusals.nonHandlerAs[fn] === 'not-found' ? notFoundRefusal(settings, fn, `${fn}: the caller handles no ticket`) : refusal(settings, 'not-authorized');
  if (outcome.kind !== 'raised' || !outcome.refusal) return outcome;
  return { ...outcome, refusal: { ...outcome.refusal, codeSetting: `${outcome.refusal.codeSetting} or refusals.nonHandlerAs.${fn}` } };
}

/** Spec §7 and rule 20 name this text for passport.admin_leaderboard: not a setting. */
export const SPEC_NOT_AUTHORIZED = 'NOT_AUTHORIZED';

/**
 * The text is the spec's; the SQLSTATE is not (§7 names none): the project's not-authorized code,
 * as every other refusal of that reason (`raise exception 'NOT_AUTHORIZED' using errcode =
 * 'insufficient_privilege'` is 42501).
 */
export function specNotAuthorized(settings: ModelSettings): Outcome {
  return raised(settings.refusals.codes['not-authorized'] ?? REFUSAL_CODE, SPEC_NOT_AUTHORIZED, {
    reason: 'not-authorized',
    pattern: `(^|[^A-Za-z0-9_])${SPEC_NOT_AUTHORIZED}([^A-Za-z0-9_]|$)`,
    source: 'spec §7 and rule 20 name the text NOT_AUTHORIZED',
    codeSetting: 'refusals.codes.not-authorized',
  });
}
