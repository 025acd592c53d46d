/**
 * PR tickets: people cast for the rules at hand (favoured roles, null roles, no users row),
 * ticket ids made of the characters a pattern operator would read as wildcards or a URL
 * parser as syntax (rule 14), ticket rows, and lookup keys derived from the ids in a world.
 */
import fc from 'fast-check';
import type { Row } from '../../../engine/model/json.ts';
import type { ModelSettings } from '../model/settings.ts';
import type { World } from '../../../engine/model/world.ts';
import { fakerValue, personName } from './faker.ts';
import { emailAddressFor } from './email-draw.ts';
import { drawsNullRole, peopleWorld, userRow, type Person } from './identities.ts';

// Text whose content no rule reads does not shrink: a failing case shrinks in few tries.
const brief = fc.noShrink(fakerValue((f) => f.lorem.sentence(), 'prBrief'));
const fileUrl = fc.noShrink(fakerValue((f) => f.internet.url(), 'prFileUrl'));
const label = fc.noShrink(personName);

/**
 * One person: no users row (1), a users row with a null role (1), one of `favoured` (3) or any
 * role (2). Some hold no permission (half, by default); the others any subset of both columns (the
 * union is what counts).
 */
export interface CastWeights {
  noRow: number;
  nullRole: number;
  favoured: number;
  any: number;
  /** Chance that a users row holds no permission at all (else any subset of both columns). */
  noPermissions?: number;
}

const DEFAULT_WEIGHTS: CastWeights = { noRow: 1, nullRole: 1, favoured: 3, any: 2, noPermissions: 0.5 };

export function castPerson(settings: ModelSettings, favoured: readonly string[], weights: CastWeights = DEFAULT_WEIGHTS): fc.Arbitrary<Person> {
  const role = fc.oneof(
    { weight: weights.noRow, arbitrary: fc.constant<string | null | undefined>(undefined) },
    ...(drawsNullRole(settings) ? [{ weight: weights.nullRole, arbitrary: fc.constant<string | null | undefined>(null) }] : []),
    ...(favoured.length ? [{ weight: weights.favoured, arbitrary: fc.constantFrom<string | null | undefined>(...favoured) }] : []),
    { weight: weights.any, arbitrary: fc.constantFrom<string | null | undefined>(...settings.roles) },
  );
  return fc.tuple(fc.noShrink(fc.uuid({ version: 4 })), fc.noShrink(emailAddressFor(settings)), role, fc.integer({ min: 0, max: 99 }).map((n) => n < (weights.noPermissions ?? 0.5) * 100)).chain(([id, email, r, noPermissions]) =>
    r === undefined
      ? fc.constant<Person>({ id, email })
      : fc.noShrink(userRow(settings, id, email)).map(
          (profile): Person => ({ id, email, profile: { ...profile, role: r, ...(noPermissions ? { permissions: [], managed_permissions: [] } : {}) } }),
        ),
  );
}

/**
 * Rule 8's boundary person: every condition of a handler held but a resolvable role, a users row
 * holding every permission whose role is null (handlers are a non-null role holding the
 * permission). Where the target holds role NOT NULL, no users row: the only unresolvable role left.
 * Drawn among the cast (`cast`) at its weights, a null role with the one permission a fault needs
 * and the request that shows it came together past case 200 (bench/early-stop-kills.ts).
 */
export function roleUnresolvedHolder(settings: ModelSettings): fc.Arbitrary<Person> {
  return fc.tuple(fc.noShrink(fc.uuid({ version: 4 })), fc.noShrink(emailAddressFor(settings))).chain(([id, email]) =>
    drawsNullRole(settings)
      ? fc.noShrink(userRow(settings, id, email)).map((profile): Person => ({ id, email, profile: { ...profile, role: null, permissions: [...settings.permissions] } }))
      : fc.constant<Person>({ id, email }),
  );
}

/**
 * The people of a case. The list does not shrink (a failing case shrinks its requests, in few
 * tries); it is small anyway.
 */
export function cast(settings: ModelSettings, favoured: readonly string[], max = 4, weights: CastWeights = DEFAULT_WEIGHTS): fc.Arbitrary<Person[]> {
  return fc.noShrink(fc.uniqueArray(castPerson(settings, favoured, weights), { minLength: 1, maxLength: max, selector: (p) => p.id }));
}

const ID_CHARS = ['a', 'B', 'c', 'X', 'y', '1', '7', '-', '%', '_', '*', '\\', "'", '"', ',', '.', '(', ')', ' '];

/** Every letter's case flipped (`aB-1` → `Ab-1`): equal to the id only case-insensitively, when it has a letter. */
export function flipCase(id: string): string {
  return [...id].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}

/** The id with `pad` at its start, its end, or both. */
export function padded(id: string, pad: string, where: 'start' | 'end' | 'both'): string {
  return where === 'start' ? `${pad}${id}` : where === 'end' ? `${id}${pad}` : `${pad}${id}${pad}`;
}

export const PAD_ENDS = ['start', 'end', 'both'] as const;

function variant(id: string, how: number): string {
  switch (how) {
    case 1:
      return ` ${id} `;
    case 2:
      return `\t${id}`;
    case 3:
      return id.toLowerCase();
    case 4:
      return id.toUpperCase();
    case 5:
      return flipCase(id);
    default:
      return id;
  }
}

/** A PR ticket id: realistic or built from wildcard/syntax characters, sometimes padded or case-flipped. */
export const prId: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      { weight: 2, arbitrary: fc.integer({ min: 1, max: 999 }).map((n) => `PR-${n}`) },
      { weight: 3, arbitrary: fc.array(fc.constantFrom(...ID_CHARS), { minLength: 1, maxLength: 6 }).map((a) => a.join('')) },
    ),
    fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.integer({ min: 1, max: 5 }) }),
  )
  .map(([id, how]) => variant(id, how));

export function prTicketRow(settings: ModelSettings, ids: string[], id: fc.Arbitrary<string> = prId): fc.Arbitrary<Row> {
  return fc.record({
    id,
    submitter_id: fc.constantFrom(...ids),
    submitter_label: label,
    brief,
    file_url: fc.option(fileUrl, { nil: null }),
    status: fc.constantFrom(...settings.pr.statuses),
    handler_note: fc.option(brief, { nil: null, freq: 2 }),
    deleted_at: fc.option(fc.constant('2024-03-01T09:00:00+00:00'), { nil: null, freq: 3 }),
  });
}

export function prTickets(settings: ModelSettings, list: Person[], max = 5): fc.Arbitrary<Row[]> {
  return fc.noShrink(fc.uniqueArray(prTicketRow(settings, list.map((p) => p.id)), { minLength: 1, maxLength: max, selector: (r) => r.id }));
}

export function prWorld(settings: ModelSettings, list: Person[], tickets: Row[]): World {
  return { ...peopleWorld(list), pr_tickets: tickets };
}

/**
 * A key to look a ticket up with: an id as stored, padded or case-flipped, a pattern that a
 * like/ilike would expand (`%`, `_`, `*`, a prefix with `%`, one character replaced by `_`), or
 * an unrelated id.
 */
export function lookupKey(ids: string[], trimmedCharacters?: string): fc.Arbitrary<string> {
  const some = fc.constantFrom(...ids);
  // Every character the settings say is trimmed (\r and \n included), on either end, and one
  // that is not trimmed (a vertical tab), which must not match.
  const pads = trimmedCharacters ? [...new Set([...trimmedCharacters])] : [];
  const withPad = fc.tuple(some, fc.constantFrom(...pads, '\v'), fc.constantFrom(...PAD_ENDS)).map(([id, c, where]) => padded(id, c, where));
  return fc.oneof(
    ...(pads.length ? [{ weight: 3, arbitrary: withPad }] : []),
    { weight: 3, arbitrary: some },
    { weight: 3, arbitrary: fc.tuple(some, fc.integer({ min: 1, max: 5 })).map(([id, how]) => variant(id, how)) },
    { weight: 2, arbitrary: fc.constantFrom('%', '_', '*', '%%', '\\%') },
    {
      weight: 3,
      arbitrary: fc.tuple(some, fc.integer({ min: 0, max: 3 })).map(([id, how]) =>
        how === 0 ? `${id.slice(0, 2)}%` : how === 1 ? `%${id.slice(-1)}` : how === 2 ? `_${id.slice(1)}` : `${id.slice(0, 2)}*`,
      ),
    },
    { weight: 1, arbitrary: prId },
  );
}
