/**
 * Columns a pack's generators draw as a value's variants (a person's e-mail case-flipped or
 * padded, to test comparisons that fold case and trim) where the target keeps only the value as
 * stored (`kkumail = lower(btrim(kkumail))`, an e-mail domain refusing spaces): nearly every world
 * naming such a row was dropped (stranger-app-3, -5, -6; R17 an ERROR). `policyfuzz init` lists
 * them in the pack's setting (Pack.normalizedDraws), and the generators draw the value as stored.
 */
import type { NormalizedDraws } from '../pack.ts';
import type { ColumnShape } from '../introspection/table-shapes.ts';
import { refusesValue } from '../target/realizable.ts';

/** The variants of a sign-in e-mail the generators draw beside it: upper-cased, capitalized (never padded). */
export function caseVariants(sample: string): string[] {
  return [sample.toUpperCase(), sample.replace(/^./, (c) => c.toUpperCase())];
}

/** The variants of a stored value a generator draws beside it: upper-cased, capitalized, padded either side. */
export function drawnVariants(sample: string): string[] {
  return [...caseVariants(sample), ` ${sample}`, `${sample} `];
}

/** The CHECKs (and domain CHECKs) of `column` that hold `sample` itself but refuse one of its `variants`: the constraint names. */
export function variantRefusals(column: ColumnShape, sample: string, variants = drawnVariants(sample)): string[] {
  const refusing = (column.checks ?? []).filter((check) => !refusesValue(check, sample) && variants.some((v) => refusesValue(check, v)));
  return [...new Set(refusing.map((check) => check.constraint))];
}

/**
 * Whether a signup trigger's body (a function on auth.users) writes the sign-in e-mail as signed
 * up (`values (new.id, new.email, …)`), not lower-cased first (`lower(new.email)`): the copy then
 * meets its column's CHECKs as the identity's e-mail is, capitals too (stranger-app-17's domain of
 * `value = lower(value)`, checked before the copy's own BEFORE trigger could lower-case it).
 */
export function copiesSignInEmailUnchanged(source: string): boolean {
  for (const read of source.matchAll(/\bnew\.email\b/gi)) if (!insideLower(source, read.index)) return true;
  return false;
}

/** Whether the text at `at` is within a `lower(…)` call, however deep (`lower(coalesce(new.email, …))`: stranger-app-11's signup trigger). */
function insideLower(source: string, at: number): boolean {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    if (source[i] === ')') depth++;
    else if (source[i] === '(') {
      if (depth > 0) depth--;
      else if (/\blower\s*$/i.test(source.slice(Math.max(0, i - 16), i))) return true;
    }
  }
  return false;
}

/**
 * For each of the pack's settings, the model columns whose target column (`targetColumn`: the
 * mapped name, null where it has none) refuses a variant: the setting's value and its note.
 */
export function proposeNormalizedDraws(
  draws: readonly NormalizedDraws[],
  targetTable: (modelTable: string) => string,
  targetColumn: (modelTable: string, column: string) => string | null,
  shapeOf: (targetTable: string) => readonly ColumnShape[] | undefined,
): { path: string; columns: string[]; note: string }[] {
  return draws.flatMap((d) => {
    const table = targetTable(d.table);
    const found = d.columns.flatMap((c) => {
      const name = targetColumn(d.table, c);
      const shape = name === null ? undefined : shapeOf(table)?.find((x) => x.name === name);
      const refusals = shape ? variantRefusals(shape, d.sample, d.copiedAtSignup ? caseVariants(d.sample) : undefined) : [];
      return refusals.length ? [{ column: c, target: `${table}.${name}`, refusals: refusals.join(', ') }] : [];
    });
    if (!found.length) return [];
    const columns = found.map((f) => f.column);
    const why = d.copiedAtSignup
      ? `a trigger on auth.users copies the sign-in e-mail as signed up into ${found.map((f) => `${f.target}, whose ${f.refusals} refuses it with capitals`).join('; ')}: the sign-in e-mail drawn lower-cased`
      : `a value case-flipped or padded is refused in ${found.map((f) => `${f.target} by ${f.refusals}`).join(', ')}: drawn as stored`;
    return [{ path: d.path, columns, note: `model.${d.path}: ${columns.join(', ')} (${why}, no variant)` }];
  });
}
