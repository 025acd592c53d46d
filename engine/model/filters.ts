/**
 * PostgREST's filter operators over model rows. `like`/`ilike` treat `%` and `_` (and `*`, an
 * alias for `%`) as wildcards and `\` as the escape character: this is exactly why an id
 * lookup through a pattern operator is a rule-14 defect.
 */
import type { Json, Row } from './json.ts';
import type { ColumnType } from './table-model.ts';
import { coerce } from './values.ts';
import type { Filter } from './request.ts';
import { likePatternSource } from '../regexp.ts';

export type FilterVerdict = { ok: true; matches: boolean } | { ok: false; code: string };

export function likeToRegExp(postgrestPattern: string, caseInsensitive: boolean): RegExp {
  // PostgREST turns every `*` into `%` before Postgres sees the pattern, escaped or not.
  const pattern = postgrestPattern.replace(/\*/g, '%');
  return new RegExp(likePatternSource(pattern), caseInsensitive ? 'is' : 's');
}

function compare(a: Json, b: Json): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function evaluateFilter(row: Row, filter: Filter, type: ColumnType): FilterVerdict {
  const cell = row[filter.column] ?? null;
  switch (filter.op) {
    case 'is':
      if (filter.value === null) return { ok: true, matches: cell === null };
      return { ok: true, matches: cell === filter.value };
    case 'like':
    case 'ilike': {
      if (cell === null) return { ok: true, matches: false };
      return { ok: true, matches: likeToRegExp(String(filter.value), filter.op === 'ilike').test(String(cell)) };
    }
    case 'in': {
      const values = Array.isArray(filter.value) ? filter.value : [filter.value];
      let matches = false;
      for (const v of values) {
        const c = coerce(v, type);
        if (!c.ok) return c;
        if (cell !== null && compare(cell, c.value) === 0) matches = true;
      }
      return { ok: true, matches };
    }
    default: {
      const c = coerce(filter.value, type);
      if (!c.ok) return c;
      if (cell === null || c.value === null) return { ok: true, matches: false };
      const order = compare(cell, c.value);
      const matches = filter.op === 'eq' ? order === 0 : filter.op === 'neq' ? order !== 0 : filter.op === 'lt' ? order < 0 : order > 0;
      return { ok: true, matches };
    }
  }
}

/** All filters AND-ed, as PostgREST does. The first unreadable value is an error for the whole request. */
export function evaluateFilters(row: Row, filters: Filter[], typeOf: (column: string) => ColumnType | undefined): FilterVerdict {
  let matches = true;
  for (const f of filters) {
    const type = typeOf(f.column);
    if (!type) return { ok: false, code: '42703' };
    const v = evaluateFilter(row, f, type);
    if (!v.ok) return v;
    if (!v.matches) matches = false;
  }
  return { ok: true, matches };
}
