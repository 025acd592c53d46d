/**
 * Rows a project's migrations seed (its team, its settings, its products) are its data, not the
 * case's: when a database answer carries them into a failure, their values are masked before
 * anything is printed, reported or saved. What is masked: the text values of seeded rows, less
 * the schema's own vocabularies (CHECK lists, enum labels: words, not data) and any value the
 * case itself holds (its fixtures and requests print anyway, so they are shown as they are).
 */
import type pg from 'pg';
import { isDeepStrictEqual } from 'node:util';
import type { TableShapes } from './table-shapes.ts';

export const SEEDED_MASK = '[seeded value]';

/** Said of a disagreement whose two sides look alike once masked (stranger-app-18's passport tiers, named in a seeded table): the difference is never shown, so it is named. */
export const DIFFERS_IN_SEEDED = ` (the two sides differ only in values the migrations seeded, shown as ${SEEDED_MASK})`;

/** `a` and `b` differ, but not once masked by `mask`: all they differ in is seeded values. */
export function differOnlyInSeeded(a: unknown, b: unknown, mask: (value: unknown) => unknown): boolean {
  return !isDeepStrictEqual(a, b) && isDeepStrictEqual(mask(a), mask(b));
}

/** Rows read per seeded table: enough for any seed migration, bounded for a data dump. */
const ROWS_PER_TABLE = 10_000;
/** Shorter values are masked only where a whole value equals one, never inside other text. */
const MIN_INNER_LENGTH = 4;

function collectStrings(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) collectStrings(v, into);
  return into;
}

/** Every text value in a JSON-like value (not its keys: column names are the schema's, not data). */
export function stringsIn(value: unknown): Set<string> {
  return collectStrings(value, new Set());
}

/** The text values of the rows in `tables` (target names, `schema.table` outside public), less the schema's vocabularies. */
export async function readSeededValues(client: pg.Client, shapes: TableShapes, tables: readonly string[]): Promise<string[]> {
  const words = new Set([...shapes.values()].flatMap((columns) => columns.flatMap((c) => [...(c.vocabulary ?? []), ...(c.enumLabels ?? [])])));
  const values = new Set<string>();
  for (const table of tables) {
    const [schema, name] = table.includes('.') ? table.split('.', 2) : ['public', table];
    const quoted = `"${schema.replace(/"/g, '""')}"."${name.replace(/"/g, '""')}"`;
    const r = await client.query<{ row: Record<string, unknown> }>(`select to_jsonb(t) as row from ${quoted} t limit ${ROWS_PER_TABLE}`);
    for (const { row } of r.rows) for (const v of Object.values(row)) collectStrings(v, values);
  }
  return [...values].filter((v) => v.trim() !== '' && !words.has(v)).sort();
}

/**
 * `value` with every seeded text masked: a string equal to a seeded value, and a seeded value
 * inside longer text (an error message, say). `known`: values the case holds, left as they are.
 */
export function maskSeeded<T>(value: T, seeded: readonly string[] | undefined, known: ReadonlySet<string> = new Set()): T {
  if (!seeded?.length) return value;
  const hidden = new Set(seeded.filter((v) => !known.has(v)));
  if (!hidden.size) return value;
  // Longest first, so a value inside another is not masked half.
  const inner = [...hidden].filter((v) => v.length >= MIN_INNER_LENGTH).sort((a, b) => b.length - a.length);
  const text = (s: string): string => {
    if (hidden.has(s)) return SEEDED_MASK;
    let out = s;
    for (const v of inner) if (out.includes(v)) out = out.split(v).join(SEEDED_MASK);
    return out;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
