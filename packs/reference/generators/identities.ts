/**
 * People and callers: a pool of signed-up identities (auth.users), some with a users row
 * (any role, or none), and callers drawn from them plus anon and the server context.
 */
import fc from 'fast-check';
import type { Caller } from '../../../engine/model/caller.ts';
import type { Row } from '../../../engine/model/json.ts';
import type { ModelSettings } from '../model/settings.ts';
import type { World } from '../../../engine/model/world.ts';
import { avatarUrl, emailAddress, personName, phoneNumber } from './faker.ts';

export interface Person {
  id: string;
  email: string;
  /** The users row; absent for a signed-up identity with no profile (null role). */
  profile?: Row;
}

export function userRow(settings: ModelSettings, id: string, email: string): fc.Arbitrary<Row> {
  return fc.record({
    id: fc.constant(id),
    email: fc.constant(email),
    display_name: fc.option(personName, { nil: null }),
    avatar_url: fc.option(avatarUrl, { nil: null }),
    phone: fc.option(phoneNumber, { nil: null }),
    role: fc.option(fc.constantFrom(...settings.roles), { nil: null, freq: 6 }),
    department: fc.option(fc.constantFrom(...settings.departments), { nil: null, freq: 5 }),
    permissions: fc.subarray(settings.permissions),
    managed_permissions: fc.subarray(settings.permissions),
  });
}

export function person(settings: ModelSettings): fc.Arbitrary<Person> {
  return fc.record({ id: fc.uuid({ version: 4 }), email: emailAddress }).chain(({ id, email }) =>
    fc.option(userRow(settings, id, email), { nil: undefined, freq: 6 }).map((profile) => ({ id, email, ...(profile ? { profile } : {}) })),
  );
}

export function people(settings: ModelSettings, max = 4): fc.Arbitrary<Person[]> {
  return fc.uniqueArray(person(settings), { minLength: 1, maxLength: max, selector: (p) => p.id });
}

export function peopleWorld(list: Person[]): World {
  return {
    'auth.users': list.map((p) => ({ id: p.id, email: p.email })),
    users: list.flatMap((p) => (p.profile ? [p.profile] : [])),
  };
}

/** Mostly one of the people; sometimes anon or the server context. */
export function callerAmong(list: Person[]): fc.Arbitrary<Caller> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...list).map((p): Caller => ({ kind: 'user', id: p.id, email: p.email })) },
    { weight: 1, arbitrary: fc.constant<Caller>({ kind: 'anon' }) },
    { weight: 1, arbitrary: fc.constant<Caller>({ kind: 'service' }) },
  );
}
