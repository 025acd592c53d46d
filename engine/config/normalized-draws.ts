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

/** The variants of a stored value a generator draws beside it: upper-cased, capitalized, padded either side. */
export function drawnVariants(sample: string): string[] {
  return [sample.toUpperCase(), sample.replace(/^./, (c) => c.toUpperCase()), ` ${sample}`, `${sample} `];
}

/** The CHECKs (and domain CHECKs) of `column` that hold `sample` itself but refuse one of its variants: the constraint names. */
export function variantRefusals(column: ColumnShape, sample: string): string[] {
  const refusing = (column.checks ?? []).filter((check) => !refusesValue(check, sample) && drawnVariants(sample).some((v) => refusesValue(check, v)));
  return [...new Set(refusing.map((check) => check.constraint))];
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
      const refusals = shape ? variantRefusals(shape, d.sample) : [];
      return refusals.length ? [{ column: c, said: `${table}.${name} by ${refusals.join(', ')}` }] : [];
    });
    if (!found.length) return [];
    const columns = found.map((f) => f.column);
    return [{ path: d.path, columns, note: `model.${d.path}: ${columns.join(', ')} (a value case-flipped or padded is refused in ${found.map((f) => f.said).join(', ')}: drawn as stored, no variant)` }];
  });
}
