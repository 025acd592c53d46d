/**
 * Model ids in the target's format: a target keeping a table's key as text under a format CHECK
 * (`id text check (id ~ '^PR-[0-9A-Z]{4,}$')`, check-forms.ts) cannot hold the model's `PR-7` or
 * rule 14's wildcard ids (`a%B`). Each stored id the format refuses is renamed, per case, to one
 * it accepts (`PR-0001`), everywhere the case names it: keys, references, requests' arguments,
 * filters and bodies, and inside longer text. The model predicts the renamed case, so the two
 * sides judge the same ids; a lookup key made from an id (case-flipped, padded, a wildcard in
 * place of its first or last characters) is made again from the new id, so an equality lookup
 * still meets its near misses. Pure.
 */
import type { Json, Row } from '../model/json.ts';
import { matchesPattern, sampleMatching } from '../introspection/check-forms.ts';
import type { TableShapes } from '../introspection/table-shapes.ts';
import { targetColumn, targetTable, type TargetMapping } from '../mapping/mapping.ts';
import { escapeRegExp } from '../regexp.ts';

/** The format (an anchored pattern a sample can be made for) of a model table's text key `id` on the target, or undefined. */
export function keyFormat(shapes: TableShapes, mapping: TargetMapping | undefined, table: string): string | undefined {
  const onTarget = mapping ? targetColumn(mapping, table, 'id') : 'id';
  if (!onTarget) return undefined;
  const key = shapes.get(mapping ? targetTable(mapping, table) : table)?.find((c) => c.name === onTarget);
  if (!key?.primaryKey || !/^(text|character varying|varchar|citext)/.test(key.type)) return undefined;
  const format = key.checks?.find((c) => c.kind === 'pattern');
  return format?.kind === 'pattern' && sampleMatching(format.pattern, 1) !== undefined ? format.pattern : undefined;
}

const flip = (s: string) => [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
const CASE_VARIANTS: ((s: string) => string)[] = [flip, (s) => s.toLowerCase(), (s) => s.toUpperCase()];

/**
 * The renaming of one case's ids (`formatOf`: a model table's key format, keyFormat), applied to
 * any JSON value; undefined when every stored id already fits. `rows`: the case's world and the
 * rows its steps insert, by model table.
 */
export function idsInTargetFormat(formatOf: (table: string) => string | undefined, rows: Record<string, readonly Row[]>): ((v: Json) => Json) | undefined {
  const renamed: [string, string][] = [];
  const misfits: [string, string][] = [];
  for (const [table, list] of Object.entries(rows)) {
    const format = list.length ? formatOf(table) : undefined;
    if (format === undefined) continue;
    for (const row of list) if (typeof row.id === 'string' && matchesPattern(format, row.id) === false && !misfits.some(([id]) => id === row.id)) misfits.push([row.id, format]);
  }
  // Most cases (every case of a target with no key format): nothing more gone through.
  if (!misfits.length) return undefined;
  const stored = new Set(Object.values(rows).flatMap((list) => list.flatMap((row) => (typeof row.id === 'string' ? [row.id] : []))));
  // Distinct from every id of the case, case-insensitively too (a lookup folding case must not meet two).
  const taken = new Set([...stored].map((id) => id.toLowerCase()));
  let n = 1;
  for (const [id, format] of misfits) {
    let made = sampleMatching(format, n++)!;
    while (taken.has(made.toLowerCase()) && n < 100_000) made = sampleMatching(format, n++)!;
    taken.add(made.toLowerCase());
    renamed.push([id, made]);
  }
  // Whole values: the ids, then their case variants (never another stored id, which stays itself).
  const whole = new Map<string, string>(renamed);
  for (const [id, made] of renamed) {
    for (const variant of CASE_VARIANTS) if (!whole.has(variant(id)) && !stored.has(variant(id))) whole.set(variant(id), variant(made));
  }
  const inText = renamed
    .filter(([id]) => id.trim().length >= 3)
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
    for (const [id, made] of renamed) {
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
