/**
 * Model ids in the target's format: a target keeping a table's key as text under a format CHECK
 * (`id text check (id ~ '^PR-[0-9A-Z]{4,}$')`, check-forms.ts) cannot hold the model's `PR-7` or
 * rule 14's wildcard ids (`a%B`). Each stored id the format refuses is renamed, per case, to one
 * it accepts (`PR-0001`), everywhere the case names it: keys, references, requests' arguments,
 * filters and bodies, and inside longer text. The model predicts the renamed case, so the two
 * sides judge the same ids; a lookup key made from an id (case-flipped, padded, a wildcard in
 * place of its first or last characters) is made again from the new id, so an equality lookup
 * still meets its near misses.
 *
 * So is any other stored text value a column's format CHECK refuses (a student number `^[0-9]{8}$`,
 * a campus e-mail `^[a-z0-9._]+@kku\.ac\.th$`, a category key `^cat_[a-z0-9_]{1,40}$` behind a
 * view): the world's rows hold it only as a value the rules compare for equality, so it is renamed
 * to one the column accepts, everywhere the case names it, and the model predicts the renamed
 * case. Only the world's rows (what the fixtures write), never a value a step writes (a write the
 * model refuses by the same CHECK stays its test). A value no sample fits (a format of another
 * form, another CHECK of the column refusing the sample) stays, and the case is dropped, named. Pure.
 */
import type { Json, Row } from '../model/json.ts';
import { matchesPattern, sampleMatching } from '../introspection/check-forms.ts';
import { unqualifiedType, type ColumnShape, type TableShapes } from '../introspection/table-shapes.ts';
import { orderKeepsOnTarget, rowToModel, targetColumn, targetTable, type TargetMapping } from '../mapping/mapping.ts';
import { escapeRegExp } from '../regexp.ts';
import { refusesValue } from './realizable.ts';

/** The format (an anchored pattern a sample can be made for) of a model table's text key `id` on the target, or undefined. */
export function keyFormat(shapes: TableShapes, mapping: TargetMapping | undefined, table: string): string | undefined {
  const onTarget = mapping ? targetColumn(mapping, table, 'id') : 'id';
  if (!onTarget) return undefined;
  const key = shapes.get(mapping ? targetTable(mapping, table) : table)?.find((c) => c.name === onTarget);
  if (!key?.primaryKey || !holdsText(key)) return undefined;
  const format = key.checks?.find((c) => c.kind === 'pattern');
  return format?.kind === 'pattern' && sampleMatching(format.pattern, 1) !== undefined ? format.pattern : undefined;
}

/** A column of text, its type read without its schema (`extensions.citext`, a domain's base there: stranger-app-10's `kku_email`). */
export const holdsText = (column: ColumnShape): boolean => /^(text|character varying|varchar|citext)/.test(unqualifiedType(column.type));

/**
 * A text column's format on the target: its pattern, or the words its CHECK lists (`field in
 * ('full_name', 'faculty', 'year')`), and the column (its other CHECKs judge a sample too).
 */
export type ColumnFormat = { pattern: string; column: ColumnShape } | { words: readonly string[]; column: ColumnShape };

/**
 * The text columns of a model table (model names) held to a format on the target that a sample
 * can be made for, the text key `id` of keyFormat aside; empty when none is. A column whose CHECK
 * lists its words is one only where the model holds it to no words of its own
 * (`modelHoldsWords`: a status, a role, which the mapping translates or the rules read, stays
 * judged as drawn): to the model such a value is text it compares for equality only.
 */
export function columnFormats(shapes: TableShapes, mapping: TargetMapping | undefined, table: string, modelHoldsWords: (column: string) => boolean = () => true): ReadonlyMap<string, ColumnFormat> {
  const out = new Map<string, ColumnFormat>();
  const key = keyFormat(shapes, mapping, table) === undefined ? undefined : mapping ? targetColumn(mapping, table, 'id') : 'id';
  for (const column of shapes.get(mapping ? targetTable(mapping, table) : table) ?? []) {
    if (column.generated || column.name === key || column.enumLabels?.length || !holdsText(column)) continue;
    const [modelName] = Object.keys(mapping ? rowToModel(mapping, table, { [column.name]: null }) : { [column.name]: null });
    // A column the mapping translates (values words, ids in another form) is judged as translated: not renamed here.
    if (modelName === undefined || (mapping && !orderKeepsOnTarget(mapping, table, modelName))) continue;
    if (column.vocabulary) {
      if (column.vocabulary.length && !modelHoldsWords(modelName)) out.set(modelName, { words: column.vocabulary, column });
      continue;
    }
    const format = column.checks?.find((c) => c.kind === 'pattern');
    if (format?.kind === 'pattern' && sampleMatching(format.pattern, 1) !== undefined) out.set(modelName, { pattern: format.pattern, column });
  }
  return out;
}

const flip = (s: string) => [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
const CASE_VARIANTS: ((s: string) => string)[] = [flip, (s) => s.toLowerCase(), (s) => s.toUpperCase()];

/**
 * The renaming of one case's ids (`formatOf`: a model table's key format, keyFormat) and of its
 * world's values other formatted columns refuse (`columnsOf`: columnFormats), applied to any JSON
 * value; undefined when every stored value already fits. `rows`: the case's world and the rows its
 * steps insert, by model table; `world`: the world's alone.
 */
export function idsInTargetFormat(
  formatOf: (table: string) => string | undefined,
  rows: Record<string, readonly Row[]>,
  columnsOf: (table: string) => ReadonlyMap<string, ColumnFormat> = () => NO_FORMATS,
  world: Record<string, readonly Row[]> = {},
  namedBySteps: (value: string) => boolean = () => false,
): ((v: Json) => Json) | undefined {
  const renamed: [string, string][] = [];
  /** Each value to rename, its format (a key's pattern, or a column's: ColumnFormat), and the column whose other CHECKs a sample must pass (none for an id); the ids first (`keys` of them). */
  const misfits: { value: string; format: string | ColumnFormat; column?: ColumnShape }[] = [];
  const misfit = (value: string, format: string | ColumnFormat, column?: ColumnShape) => {
    if (fits(format, value) === false && !misfits.some((m) => m.value === value)) misfits.push({ value, format, ...(column ? { column } : {}) });
  };
  for (const [table, list] of Object.entries(rows)) {
    const format = list.length ? formatOf(table) : undefined;
    if (format === undefined) continue;
    for (const row of list) if (typeof row.id === 'string') misfit(row.id, format);
  }
  const keys = misfits.length;
  for (const [table, list] of Object.entries(world)) {
    const formats = list.length ? columnsOf(table) : NO_FORMATS;
    // Never a uuid: the model reads its column as one (a reference to a person or a record), and a
    // filter naming the renamed text would be unreadable to it (22P02) where the target finds the row.
    for (const [name, f] of formats) for (const row of list) if (typeof row[name] === 'string' && !UUID_SHAPED.test(row[name] as string)) misfit(row[name] as string, f, f.column);
  }
  // A listed word's rename stays where the model reads the value as free text: a value the case
  // also names elsewhere (another column, a step's body or filter) could be one of the model's own
  // words there (a department, a status), so it stays, and the case is dropped, named.
  const freeWords = misfits.filter((m) => typeof m.format !== 'string' && 'words' in m.format);
  if (freeWords.length) {
    const inWordColumns = new Map<string, number>();
    for (const [table, list] of Object.entries(world)) {
      for (const [name, f] of list.length ? columnsOf(table) : NO_FORMATS) if ('words' in f) for (const row of list) if (typeof row[name] === 'string') inWordColumns.set(row[name] as string, (inWordColumns.get(row[name] as string) ?? 0) + 1);
    }
    const everywhere = occurrences(Object.values(rows) as unknown as Json);
    for (const m of freeWords) if (namedBySteps(m.value) || (everywhere.get(m.value) ?? 0) > (inWordColumns.get(m.value) ?? 0)) misfits.splice(misfits.indexOf(m), 1);
  }
  // Most cases (every case of a target with no format): nothing more gone through.
  if (!misfits.length) return undefined;
  const stored = new Set(Object.values(rows).flatMap((list) => list.flatMap((row) => Object.values(row).filter((v): v is string => typeof v === 'string'))));
  // Distinct from every value of the case, case-insensitively too (a lookup folding case must not meet two).
  const taken = new Set([...stored].map((id) => id.toLowerCase()));
  let n = 1;
  for (const { value, format, column } of misfits) {
    // A listed word no value of the case holds (two values stay two); none left: the case is dropped, named.
    if (typeof format !== 'string' && 'words' in format) {
      const word = format.words.find((w) => !taken.has(w.toLowerCase()));
      if (word === undefined || column?.checks?.some((c) => refusesValue(c, word))) continue;
      taken.add(word.toLowerCase());
      renamed.push([value, word]);
      continue;
    }
    const pattern = typeof format === 'string' ? format : format.pattern;
    let made = sampleMatching(pattern, n++)!;
    while (taken.has(made.toLowerCase()) && n < 100_000) made = sampleMatching(pattern, n++)!;
    // A sample the column's other CHECKs refuse (a length cap, kept lower-cased) is no rename: the case is dropped, named.
    if (column && (matchesPattern(pattern, made) !== true || column.checks?.some((c) => refusesValue(c, made)))) continue;
    taken.add(made.toLowerCase());
    renamed.push([value, made]);
  }
  if (!renamed.length) return undefined;
  // Whole values: the ids, then their case variants (never another stored id, which stays itself).
  const whole = new Map<string, string>(renamed);
  for (const [id, made] of renamed) {
    for (const variant of CASE_VARIANTS) if (!whole.has(variant(id)) && !stored.has(variant(id))) whole.set(variant(id), variant(made));
  }
  // Ids only: a key is named inside notes and messages; another value's text is its own.
  const inText = renamed
    .filter(([id], i) => i < keys && id.trim().length >= 3)
    .sort(([a], [b]) => b.length - a.length)
    .map(([id, made]) => [new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(id)}(?![A-Za-z0-9])`, 'g'), made] as const);
  const text = (s: string): string => {
    const exact = whole.get(s);
    if (exact !== undefined) return exact;
    // Padded (a lookup that trims must still find it).
    const pad = /^(\s*)([\s\S]*?)(\s*)$/.exec(s)!;
    if ((pad[1] || pad[3]) && whole.has(pad[2])) return pad[1] + whole.get(pad[2])! + pad[3];
    // A wildcard in place of its first or last characters (what a like would expand), the same
    // count of them where it replaced as many.
    const head = /^([%_*\\]+)([\s\S]+)$/.exec(s);
    const tail = /^([\s\S]+?)([%_*\\]+)$/.exec(s);
    for (const [id, made] of renamed.slice(0, keys)) {
      if (head && head[2].length < id.length && id.endsWith(head[2])) return head[1] + made.slice(head[1].length + head[2].length === id.length ? head[1].length : Math.max(0, made.length - head[2].length));
      if (tail && tail[1].length < id.length && id.startsWith(tail[1])) return made.slice(0, tail[1].length + tail[2].length === id.length ? made.length - tail[2].length : tail[1].length) + tail[2];
    }
    return inText.reduce((t, [re, made]) => t.replace(re, made), s);
  };
  const apply = (v: Json): Json => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(apply);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, apply(x)]));
    return v;
  };
  return apply;
}

/** How often each string stands as a whole value anywhere in `v` (nested too). */
function occurrences(v: Json, counts = new Map<string, number>()): Map<string, number> {
  if (typeof v === 'string') counts.set(v, (counts.get(v) ?? 0) + 1);
  else if (Array.isArray(v)) for (const x of v) occurrences(x, counts);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) occurrences(x, counts);
  return counts;
}

/** Whether `value` fits a key's pattern or a column's format; undefined where the pattern cannot say. */
function fits(format: string | ColumnFormat, value: string): boolean | undefined {
  if (typeof format === 'string') return matchesPattern(format, value);
  return 'words' in format ? format.words.includes(value) : matchesPattern(format.pattern, value);
}

const NO_FORMATS: ReadonlyMap<string, ColumnFormat> = new Map();
const UUID_SHAPED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
