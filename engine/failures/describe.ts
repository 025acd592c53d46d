/** Outcomes in a line of plain words, for repros, consoles and reports. */
import type { Outcome } from '../model/outcome.ts';

/** `short`: leave the returned rows out (just how many). */
export function describeOutcome(o: Outcome | undefined | null, options: { short?: boolean } = {}): string {
  if (!o || typeof o !== 'object' || !('kind' in o)) return JSON.stringify(o);
  // A refusal the model accepts in more than one form (anyOf: a policy's 42501 or a guard's P0001)
  // names them all: the first alone sent the reader looking for a policy where a trigger would do.
  const alternatives = 'orElse' in o && o.orElse?.length ? o.orElse : [];
  const main = describeOne(o, options);
  return alternatives.length ? `${main}, or ${alternatives.map((a) => describeOne(a, options)).join(', or ')} (any of them is accepted)` : main;
}

function describeOne(o: Outcome, options: { short?: boolean }): string {
  switch (o.kind) {
    case 'allowed':
      return `allowed: ${o.affected} row(s) touched${o.rows === null ? ', no rows returned' : `, returns ${rows(o.rows, options.short)}`}`;
    case 'filtered':
      return `filtered: nothing visible or changed${o.rows === null ? '' : `, returns ${rows(o.rows, options.short)}`}`;
    case 'rejected':
      return `rejected: 42501 by the ${o.by === 'grant' ? 'grants (permission denied)' : 'row-level security policy'}${o.detail ? ` (${o.detail})` : ''}`;
    case 'raised':
      return `raised: SQLSTATE ${o.code}${o.message ? ` ${o.message}` : ''}`;
    case 'error':
      return `error: SQLSTATE ${o.code}${o.detail ? ` (${o.detail})` : ''}`;
  }
}

function rows(list: unknown[], short?: boolean): string {
  return short ? `${list.length} row(s)` : JSON.stringify(list);
}

/** The database side of a saved failure: `{ outcome, response }` (data layer) or anything (SSO). */
export function actualOutcomeOf(actual: unknown): Outcome | undefined {
  if (actual && typeof actual === 'object' && 'outcome' in actual) return (actual as { outcome: Outcome }).outcome;
  return undefined;
}
