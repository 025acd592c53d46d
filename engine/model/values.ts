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

/** A key's JSON text, kept: rows repeat the same few column names on every case. */
const quotedKeys = new Map<string, string>();

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    if (quotedKeys.size >= 4096) quotedKeys.clear();
    quotedKeys.set(key, (quoted = JSON.stringify(key)));
  }
  return quoted;
}

/** JSON text with object keys sorted, so equal values give equal text (jsonb equality). Built in one pass: it runs on every row compared. */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  let text: string;
  if (Array.isArray(value)) {
    text = '[';
    for (let i = 0; i < value.length; i++) {
      // As Array.prototype.join writes it: a value JSON has no text for (undefined) is left empty.
      const item = canonicalJson(value[i]) as string | undefined;
      text += i ? `,${item ?? ''}` : (item ?? '');
    }
    return `${text}]`;
  }
  return canonicalObjectJson(value, canonicalJson);
}

/** An object's canonicalJson with each value's text given by `valueText` (a row with some columns masked). */
export function canonicalObjectJson(value: { readonly [key: string]: Json }, valueText: (value: Json, key: string) => string): string {
  const keys = Object.keys(value).sort();
  let text = '{';
  for (let i = 0; i < keys.length; i++) text += `${i ? ',' : ''}${quotedKey(keys[i])}:${valueText(value[keys[i]], keys[i])}`;
  return `${text}}`;
}

export function jsonEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  // Two scalars: their JSON (null for NaN, as jsonb has no NaN); a scalar never equals an object or array.
  const aObject = a !== null && typeof a === 'object';
  const bObject = b !== null && typeof b === 'object';
  if (!aObject && !bObject) return JSON.stringify(a) === JSON.stringify(b);
  if (aObject !== bObject) return false;
  return canonicalJson(a) === canonicalJson(b);
}
