/**
 * A finding's signature: what kind of disagreement it is, so many failing cases of one bug are
 * one finding and two bugs of one property are two. It names the property, the table or
 * function and the request method, the caller class, the kind of disagreement and, when the
 * model (or else the database) refused, the clause it refused with (the model's named clause,
 * else its message, with ids and numbers taken out). Shrinking keeps it: a shrunk case with another signature is another finding.
 */
import type { Outcome } from '../model/outcome.ts';
import type { Caller } from '../model/caller.ts';
import { targetName, type ApiRequest } from '../model/request.ts';

/**
 * What a signature reads of a disagreement (the runner's StepMismatch has it): stated here, not
 * imported, since the runner's checker imports this file.
 */
interface Disagreement {
  request: { caller: Caller; request: ApiRequest };
  expected: Outcome;
  actual: Outcome;
  /** A pack invariant that rejected the step (absent: the model and the target disagree). */
  checker?: string;
  /** Sent as SQL (a table the mapping sends `via: "sql"`), not through PostgREST. */
  sentAs?: 'sql';
}

const METHOD: Record<ApiRequest['kind'], string> = { select: 'GET', insert: 'POST', update: 'PATCH', delete: 'DELETE', rpc: 'RPC' };
const SQL_VERB: Record<ApiRequest['kind'], string> = { select: 'SELECT', insert: 'INSERT', update: 'UPDATE', delete: 'DELETE', rpc: 'SELECT' };

export function callerClass(caller: Caller): 'anon' | 'service' | 'signed-in' {
  return caller.kind === 'user' ? 'signed-in' : caller.kind;
}

const isSuccess = (o: Outcome) => o.kind === 'allowed' || o.kind === 'filtered';
const codeOf = (o: Outcome) => (isSuccess(o) ? 'ok' : o.kind === 'rejected' ? `42501/${o.by}` : o.code);
/** Rows a success answer shows or touches. */
const sizeOf = (o: Extract<Outcome, { kind: 'allowed' | 'filtered' }>) => Math.max(o.affected, o.rows?.length ?? 0);

/**
 * The kind of disagreement, database against model: allowed where the model refuses, refused
 * where it allows, more or fewer rows visible, other columns or values, another error.
 */
export function disagreementKind(expected: Outcome, actual: Outcome): string {
  if (!isSuccess(expected) && isSuccess(actual)) return sizeOf(actual as Extract<Outcome, { kind: 'allowed' }>) > 0 ? `allowed-not-refused(${codeOf(expected)})` : `silent-not-refused(${codeOf(expected)})`;
  if (isSuccess(expected) && !isSuccess(actual)) return `refused-not-allowed(${codeOf(actual)})`;
  if (isSuccess(expected) && isSuccess(actual)) {
    const e = sizeOf(expected as Extract<Outcome, { kind: 'allowed' }>);
    const a = sizeOf(actual as Extract<Outcome, { kind: 'allowed' }>);
    if (a > e) return 'visible-not-filtered';
    if (a < e) return 'filtered-not-visible';
    return 'wrong-columns';
  }
  return `wrong-error(${codeOf(expected)}→${codeOf(actual)})`;
}

/**
 * A side error: model and database both refused, with different codes (a NOT NULL or bad-input
 * error where the model's guard refuses first). It is a real disagreement, but seldom the bug's
 * own: a guard let through the write that then broke a constraint. A case goes on past one to a
 * later step's disagreement (check-case.ts), and a property reports its findings of another kind
 * first (run-data-property.ts); a pack invariant's rejection is never one.
 */
export function isSideError(mismatch: Pick<Disagreement, 'expected' | 'actual' | 'checker'>): boolean {
  return !mismatch.checker && !isSuccess(mismatch.expected) && !isSuccess(mismatch.actual);
}

/** A refusal's words, stable across cases: ids, e-mails and numbers taken out, at most 80 characters. */
export function clauseText(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const clean = text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/[^\s"'()]+@[^\s"'()]+/g, '<email>')
    .replace(/\d+/g, 'N')
    .replace(/\s+/g, ' ')
    .trim();
  return clean ? clean.slice(0, 80) : undefined;
}

/** The clause the model refused with (its guard or function message), else the database's refusal. */
function clauseOf(expected: Outcome, actual: Outcome): string | undefined {
  const words = (o: Outcome) => (o.kind === 'raised' ? (o.clause ?? o.message) : o.kind === 'rejected' || o.kind === 'error' ? o.detail : undefined);
  return clauseText(words(expected)) ?? (isSuccess(expected) ? clauseText(words(actual)) : undefined);
}

export function signatureOf(propertyId: string, mismatch: Disagreement): string {
  const { caller, request } = mismatch.request;
  const clause = clauseOf(mismatch.expected, mismatch.actual);
  // Worded as the failure's first line words it: a statement sent as SQL is no REST request.
  const sent = mismatch.sentAs === 'sql' ? `as SQL: ${SQL_VERB[request.kind]} ${targetName(request)}` : `${METHOD[request.kind]} ${targetName(request)}`;
  return [propertyId, sent, callerClass(caller), mismatch.checker ? `invariant ${mismatch.checker}` : disagreementKind(mismatch.expected, mismatch.actual), ...(clause ? [clause] : [])].join(' | ');
}
