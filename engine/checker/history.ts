/**
 * A case's history, Jepsen-style: one entry per request sent, holding what was sent, what the
 * model predicted and what came back. Checkers are plain functions over it: the model-agreement
 * check compares prediction and answer; a pack's invariants (PackModel.invariants) add their own
 * checks; coverage (outcome classes, access cells, clause tallies) is read off the same entries.
 */
import { compareOutcomes } from './compare.ts';
import type { HistoryEntry, StepChecker } from './history-entry.ts';

export type { HistoryEntry, StepChecker } from './history-entry.ts';

/** The oracle's check: the target answered what the model predicted. */
export const modelAgreement: StepChecker = {
  name: 'model agreement',
  check: (e) => {
    const compared = compareOutcomes(e.predicted, e.observed, e.masked, e.comparedAs, e.hints)?.reason;
    // A token hook that named a role of the project's own ran the request as it: say so, where the caller's line says authenticated.
    const hooked = compared !== undefined && e.response.tokenRole !== undefined ? `${compared} (run as role ${JSON.stringify(e.response.tokenRole)}, the token hook's role claim)` : compared;
    // user_metadata is the caller's own (auth.updateUser): a policy trusting it grants what the model refuses, and the note says what it
    // carried, where what the step reaches reads it (elsewhere a differing metadata changes nothing, and naming it misleads).
    const reason = hooked !== undefined && e.caller.kind === 'user' && e.caller.userMetadata && e.readsUserMetadata ? `${hooked} (token user_metadata ${JSON.stringify(e.caller.userMetadata)}, which the user sets for themselves: no rule may trust it)` : hooked;
    // A policy may read the token's claims, which the pack's setting decides: name it with the claim sent.
    if (reason === undefined || !e.hints.claims || e.caller.kind !== 'user') return reason;
    return `${reason} (${tokenNote(e)}: setting ${e.hints.claims})`;
  },
};

/**
 * The token's app_metadata as sent: the database's where it composed it (tokens.appMetadata reads
 * the caller's raw_app_meta_data, a hook answers), else the role the case drew.
 */
function tokenNote(e: HistoryEntry): string {
  if (e.response.tokenAppMetadata !== undefined) return `token app_metadata ${JSON.stringify(e.response.tokenAppMetadata)}`;
  const role = e.caller.kind === 'user' ? e.caller.appMetadata?.role : undefined;
  return `token app_metadata.role ${role === undefined ? 'absent' : JSON.stringify(role)}`;
}

/**
 * PostgREST reuses a pooled connection for the next request of anyone and resets nothing in
 * between: a request must leave no session-level setting, SQL-prepared statement, holdable cursor
 * or temporary table behind (executor/session-state.ts probes for them).
 */
export const nothingLeftBehind: StepChecker = {
  name: 'nothing left on the pooled connection',
  check: (e) =>
    e.response.leftBehind?.length
      ? `the request left ${e.response.leftBehind.join('; ')} on its connection, which PostgREST hands to the next request of anyone (it never resets a session)`
      : undefined,
};

/** What every case is judged by before a pack's own invariants: the model's agreement, then nothing left behind. */
export const ENGINE_CHECKERS: readonly StepChecker[] = [modelAgreement, nothingLeftBehind];

/** The first checker that rejects the step, with its reason (an invariant's reason is prefixed by its name). */
export function judgeStep(checkers: readonly StepChecker[], entry: HistoryEntry, earlier: readonly HistoryEntry[]): { checker: string; reason: string } | undefined {
  for (const c of checkers) {
    const reason = c.check(entry, earlier);
    if (reason !== undefined) return { checker: c.name, reason: c === modelAgreement ? reason : `invariant "${c.name}": ${reason}` };
  }
  return undefined;
}

