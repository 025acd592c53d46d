/**
 * CHECKs that tie one column to another, as a team strict about integrity writes them, read from
 * the constraint's definition (pg_get_constraintdef) so the fixture filler can complete a row the
 * model writes without the dependent column (stranger-app-12):
 *  - presence: `(status in ('resolved', 'closed')) = (closed_at is not null)` (or `is null`, or
 *    several columns `(decided_at is null and decided_by is null)`): the column is set exactly
 *    when the key column holds one of the values;
 *    The same written as two cases, `(personal_account = true and slug is null) or
 *    (personal_account = false and slug is not null)` (Basejump's accounts), is read alike: the
 *    column is set exactly when the key holds the value of the case that sets it;
 *  - order: `closed_at is null or closed_at >= created_at` (`>`, `<=`, `<` alike): when both are
 *    set, one is not before the other.
 * Anything else is left to the database. Pure (no I/O).
 */
import { stripOuterParens, topLevelConjuncts, topLevelDisjuncts } from '../db/sql-expressions.ts';
import { splitTopLevel } from './check-forms.ts';

export type ColumnAgreement =
  /** `(key ∈ values) = (every one of columns IS [NOT] NULL)`; `present`: IS NOT NULL. */
  | { kind: 'presence'; key: string; values: string[]; columns: string[]; present: boolean }
  /** `later IS NULL OR later >= earlier` (`strict`: `>`). */
  | { kind: 'order'; later: string; earlier: string; strict: boolean };

const IDENT = String.raw`"?([a-z_][a-z0-9_]*)"?`;

/** The agreements a CHECK's definition states; undefined for any other shape. */
export function columnAgreements(definition: string): ColumnAgreement[] | undefined {
  const body = /^CHECK \((.*)\)(?: NOT VALID)?$/is.exec(definition.trim())?.[1];
  if (body === undefined) return undefined;
  const expr = stripOuterParens(body);
  const agreement = presence(expr) ?? presenceByCases(expr) ?? order(expr);
  return agreement ? [agreement] : undefined;
}

function presence(expr: string): ColumnAgreement | undefined {
  const sides = splitTopLevel(expr, ['=']);
  if (sides.length !== 3) return undefined;
  const [left, right] = [stripOuterParens(sides[0]), stripOuterParens(sides[2])];
  const key = new RegExp(`^${IDENT}(?:::text)? = `, 'i').exec(left)?.[1];
  const values = key === undefined ? undefined : valuesOf(left.slice(left.indexOf(' = ') + 3));
  if (key === undefined || !values) return undefined;
  const tests = topLevelConjuncts(right).map((t) => new RegExp(`^${IDENT} IS (NOT )?NULL$`, 'i').exec(stripOuterParens(t)));
  if (!tests.length || tests.some((t) => !t) || new Set(tests.map((t) => Boolean(t![2]))).size !== 1) return undefined;
  return { kind: 'presence', key, values, columns: tests.map((t) => t![1]), present: Boolean(tests[0]![2]) };
}

/** `(key = a AND col IS NULL) OR (key = b AND col IS NOT NULL)`, either order of cases and of terms: presence with the values `[b]`. */
function presenceByCases(expr: string): ColumnAgreement | undefined {
  const cases = topLevelDisjuncts(expr).map((alternative) => {
    const terms = topLevelConjuncts(stripOuterParens(alternative)).map(stripOuterParens);
    if (terms.length !== 2) return undefined;
    const tested = terms.map((t) => new RegExp(`^${IDENT} IS (NOT )?NULL$`, 'i').exec(t));
    const at = tested.findIndex(Boolean);
    const keyed = at < 0 ? undefined : new RegExp(`^${IDENT}(?:::text)? = (.+)$`, 'i').exec(terms[1 - at]);
    const value = keyed ? literalOf(keyed[2]) : undefined;
    return keyed && value !== undefined ? { key: keyed[1], value, column: tested[at]![1], present: Boolean(tested[at]![2]) } : undefined;
  });
  if (cases.length !== 2 || cases.some((c) => !c)) return undefined;
  const [a, b] = cases as NonNullable<(typeof cases)[number]>[];
  if (a.key !== b.key || a.column !== b.column || a.present === b.present || a.value === b.value) return undefined;
  const setting = a.present ? a : b;
  return { kind: 'presence', key: a.key, values: [setting.value], columns: [a.column], present: true };
}

/** A literal a key is compared with: `'a'::t` as `a`, `true`/`false` and numbers as written; undefined for anything else. */
function literalOf(text: string): string | undefined {
  const t = stripOuterParens(text);
  if (/^(true|false|-?\d+(\.\d+)?)$/i.test(t)) return t.toLowerCase();
  return /^'((?:[^']|'')*)'(?:::[a-z_."\s\[\]]+)?$/is.exec(t)?.[1]?.replace(/''/g, "'");
}

function order(expr: string): ColumnAgreement | undefined {
  const alternatives = topLevelDisjuncts(expr).map(stripOuterParens);
  if (alternatives.length !== 2) return undefined;
  const nullable = new RegExp(`^${IDENT} IS NULL$`, 'i').exec(alternatives[0])?.[1];
  const compared = new RegExp(`^${IDENT} (>=|>|<=|<) ${IDENT}$`, 'i').exec(alternatives[1]);
  if (nullable === undefined || !compared || (compared[1] !== nullable && compared[3] !== nullable)) return undefined;
  const [a, op, b] = [compared[1], compared[2], compared[3]];
  const later = op.startsWith('>') ? a : b;
  return { kind: 'order', later, earlier: later === a ? b : a, strict: !op.endsWith('=') };
}

/** `ANY (ARRAY['a'::t, 'b'::t])` or `'a'::t`: the values; undefined for anything else. */
function valuesOf(text: string): string[] | undefined {
  const t = stripOuterParens(text);
  const list = /^ANY \(\(?ARRAY\[(.*)\](?:\)?::[^)]*)?\)$/is.exec(t)?.[1] ?? t;
  const items = list.split(/,\s*/).map((v) => /^'((?:[^']|'')*)'(?:::[a-z_."\s\[\]]+)?$/is.exec(v.trim())?.[1]);
  return items.length && items.every((v) => v !== undefined) ? items.map((v) => v!.replace(/''/g, "'")) : undefined;
}
