/**
 * A model id as a target keeps it, where the target's key type differs from the model's (a text
 * id `VS-1003` under a `bigint` or `uuid` key): one deterministic function of the id's text, so a
 * reference (`duplicate_of`) becomes the key it names, and the same id is the same target id in
 * fixtures, requests and the answers the model expects. Pure: the mapping (engine/mapping) applies
 * them, and a model setting may compute over the id as the target keeps it (a public handle).
 */

import { kept } from './kept.ts';

// Within a 4-byte integer: an `integer` key (`serial`, `int generated … as identity`) holds it as a
// bigint key does (stranger-app-4's serial keys refused every larger one).
const BIGINT_ID_SPAN = 2n ** 30n;

function fnv1a64(text: string, seed = 0xcbf29ce484222325n): bigint {
  let hash = seed;
  for (const byte of new TextEncoder().encode(text)) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash;
}

/**
 * A model id (a uuid, or any text) as a positive integer key: FNV-1a over its text, in [2^30, 2^31)
 * so an `integer` key holds it as a `bigint` one does, and far above the few ids a target's own
 * sequence hands out.
 */
export function uuidAsBigint(id: string): number {
  return kept(bigintForms, id, hashedBigint);
}

// The same few ids come back in every case, and each form costs a BigInt step per byte: kept per id.
const bigintForms = new Map<string, number>();
const uuidForms = new Map<string, string>();

function hashedBigint(id: string): number {
  return Number((fnv1a64(id) % BIGINT_ID_SPAN) + BIGINT_ID_SPAN);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A model text id as a uuid key: a uuid stays itself (lower case, as Postgres prints it); any
 * other text becomes a version-8 uuid from two FNV-1a hashes of it.
 */
export function textAsUuid(id: string): string {
  // The kept answer first: the same few ids are asked for in every case.
  return kept(uuidForms, id, uuidOf);
}

const uuidOf = (id: string): string => (UUID.test(id) ? id.toLowerCase() : hashedUuid(id));

function hashedUuid(id: string): string {
  const hex = (fnv1a64(id).toString(16).padStart(16, '0') + fnv1a64(id, 0x84222325cbf29ce4n).toString(16).padStart(16, '0')).split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** How a target keeps a model id: `bigint` (uuidAsBigint) or `uuid` (textAsUuid). */
export type TargetIdForm = 'bigint' | 'uuid';

export function idAsTarget(form: TargetIdForm, id: string): string | number {
  return form === 'bigint' ? uuidAsBigint(id) : textAsUuid(id);
}

/** A model id as text the target writes it (a setting naming the form: `model` keeps the model's text). */
export function idAsKept(form: TargetIdForm | 'model', id: string): string {
  return form === 'model' ? id : String(idAsTarget(form, id));
}
