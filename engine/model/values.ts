/**
 * How Postgres reads a JSON value or a filter's text into a column type, as far as the rules
 * depend on it: uuids compare canonically, text exactly, an unreadable value is error 22P02.
 */
import type { Json } from './json.ts';
import type { ColumnType } from './table-model.ts';

export type Coerced = { ok: true; value: Json } | { ok: false; code: string };

const UUID = /^\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i;

export function coerce(value: Json, type: ColumnType): Coerced {
  if (value === null) return { ok: true, value: null };
  switch (type) {
    case 'uuid': {
      if (typeof value !== 'string' || !UUID.test(value)) return { ok: false, code: '22P02' };
      const hex = value.replace(/[{}-]/g, '').toLowerCase();
      return { ok: true, value: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` };
    }
    case 'text':
      return typeof value === 'string' ? { ok: true, value } : { ok: true, value: typeof value === 'object' ? JSON.stringify(value) : String(value) };
    case 'boolean':
      if (typeof value === 'boolean') return { ok: true, value };
      if (typeof value === 'string' && /^(t|true|f|false|y|yes|n|no|on|off|1|0)$/i.test(value.trim())) return { ok: true, value: /^(t|true|y|yes|on|1)$/i.test(value.trim()) };
      return { ok: false, code: '22P02' };
    case 'integer':
    case 'numeric':
      if (typeof value === 'number') return { ok: true, value };
      if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return { ok: true, value: Number(value) };
      return { ok: false, code: '22P02' };
    case 'text[]':
      return Array.isArray(value) && value.every((v) => v === null || typeof v === 'string') ? { ok: true, value } : { ok: false, code: '22P02' };
    case 'timestamptz':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? { ok: true, value } : { ok: false, code: '22007' };
    case 'jsonb':
      return { ok: true, value };
  }
}

/** JSON text with object keys sorted, so equal values give equal text (jsonb equality). */
export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export function jsonEqual(a: Json, b: Json): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
