/**
 * People for the person model (rules 17, 18, 20): signed-up identities with a users row of a
 * chosen role mix, student records whose e-mail is the identity's auth e-mail written with case
 * flips and padding (the comparison is lower(trim(…))), records of people who never signed up,
 * change requests with distinct timestamps, and identity conflicts.
 */
import fc from 'fast-check';
import type { Caller } from '../../../engine/model/caller.ts';
import type { Row } from '../../../engine/model/json.ts';
import { drawnAsStored, holdsNotNull, normalizedEmail, type ModelSettings } from '../model/settings.ts';
import type { World } from '../../../engine/model/world.ts';
import { personName } from './faker.ts';
import { emailAddressFor } from './email-draw.ts';
import { authUserRow, callerOf, drawsNullRole, userRow, type Person } from './identities.ts';

/** Ids and names never shrink: which uuid or name a row has is irrelevant to every rule here, and shrinking them costs a database case per step. */
const fixedId = fc.noShrink(fc.uuid({ version: 4 }));

export const studentNumber = fc.noShrink(fc.integer({ min: 60_000_000, max: 69_999_999 }).map(String));

/**
 * The identity's own e-mail: mostly lower case, sometimes with capitals, since the match with a
 * student record is lower(trim(…)) on both sides (spec) and either side may carry them. Where the
 * target keeps the sign-in e-mail as stored (settings.normalizedColumns['auth.users']: a signup
 * trigger copies it into a lower-case column), the same draw lower-cased: the same cases otherwise.
 */
const signInEmail = (settings: ModelSettings) => {
  const drawn = emailAddressFor(settings).chain((e) => fc.oneof({ weight: 3, arbitrary: fc.constant(e) }, { weight: 1, arbitrary: fc.constantFrom(e.toUpperCase(), e.replace(/^./, (c) => c.toUpperCase())) }));
  return drawnAsStored(settings, 'auth.users', 'email') ? drawn.map(normalizedEmail) : drawn;
};

/** A signed-up identity whose users row (when present) has a role drawn from `roles` (null allowed). */
export function personWithRole(settings: ModelSettings, roles: readonly (string | null)[]): fc.Arbitrary<Person> {
  // A target holding role NOT NULL: drawn among the roles it can store.
  const drawn = drawsNullRole(settings) ? roles : roles.filter((r) => r !== null);
  return fc
    .record({ id: fixedId, email: fc.noShrink(signInEmail(settings)), role: fc.constantFrom(...drawn), hasProfile: fc.nat(9) })
    .chain(({ id, email, role, hasProfile }) =>
      hasProfile === 0 ? fc.constant<Person>({ id, email }) : userRow(settings, id, email).map((profile): Person => ({ id, email, profile: { ...profile, role } })),
    );
}

export function peopleWithRoles(settings: ModelSettings, roles: readonly (string | null)[], min = 1, max = 4): fc.Arbitrary<Person[]> {
  return fc.uniqueArray(personWithRole(settings, roles), { minLength: min, maxLength: max, selector: (p) => p.email.toLowerCase() });
}

/** The same e-mail as Postgres' lower(trim(…)) reads it, written differently. */
export function emailVariant(email: string): fc.Arbitrary<string> {
  return fc.constantFrom(email, email.toUpperCase(), ` ${email}`, `${email} `, email.replace(/^./, (c) => c.toUpperCase()));
}

/**
 * A person's e-mail as `table.column` holds it: a variant (emailVariant), or where the target keeps
 * it normalized (settings.normalizedColumns) the one form it stores, lower-cased and trimmed.
 */
export function storedEmail(settings: ModelSettings | undefined, table: string, column: string): (email: string) => fc.Arbitrary<string> {
  return drawnAsStored(settings, table, column) ? (email) => fc.constant(normalizedEmail(email)) : emailVariant;
}

/** The caller's own record among `records`, as my_person_id() links them (settings.students.personLink). */
export function ownRecords(settings: ModelSettings, records: Row[], caller: Caller): Row[] {
  if (caller.kind !== 'user') return [];
  if (settings.students.personLink === 'user-id') return records.filter((r) => r.id === caller.id);
  return records.filter((r) => typeof r.email === 'string' && r.email.trim().toLowerCase() === caller.email?.toLowerCase());
}

/** Mostly one of the people; sometimes anon or the server context. */
export function callerFrom(list: Person[], others = 1): fc.Arbitrary<Caller> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...list).map(callerOf) },
    { weight: others, arbitrary: fc.constant<Caller>({ kind: 'anon' }) },
    { weight: others, arbitrary: fc.constant<Caller>({ kind: 'service' }) },
  );
}

export function peopleRows(list: Person[]): World {
  return {
    'auth.users': list.map(authUserRow),
    users: list.flatMap((p) => (p.profile ? [p.profile] : [])),
  };
}

/**
 * A stranger's e-mail that only a pattern match takes for `email` (rule 14's class, on the person
 * link): one character of it written as the wildcard `_`, or its own `_` written as another
 * character. Equal to `email` under lower(trim(…)) never; under like/ilike, one way or the other.
 */
export function wildcardLookalike(email: string): fc.Arbitrary<string> {
  const at = email.indexOf('@');
  const local = at > 0 ? at : email.length;
  const own = email.indexOf('_');
  const forms = [`_${email.slice(1)}`, `${email.slice(0, local - 1)}_${email.slice(local)}`];
  if (own >= 0 && own < local) forms.push(`${email.slice(0, own)}x${email.slice(own + 1)}`);
  const differing = forms.filter((f) => f.toLowerCase() !== email.toLowerCase());
  return differing.length ? fc.constantFrom(...differing) : fc.constant(`x.${email}`);
}

/**
 * Student records: most people have one (their auth e-mail, written differently); plus strangers.
 * Linked by user id (settings.students.personLink), a record is keyed by its user: only people
 * with a users row have one (the key references it), and no stranger has one.
 */
export function studentRecords(list: Person[], settings?: ModelSettings): fc.Arbitrary<Row[]> {
  const byUser = settings?.students.personLink === 'user-id';
  const own = fc.tuple(
    ...(byUser ? list.filter((p) => p.profile) : list).map((p) =>
      fc.option(
        fc.noShrink(fc.record({ id: byUser ? fc.constant(p.id) : fixedId, email: storedEmail(settings, 'student_records', 'email')(p.email), student_id: studentNumber, full_name: fc.noShrink(personName), year: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }), major: fc.option(fc.constantFrom('CS', 'EE', 'Law', 'Art'), { nil: null }) })),
        { nil: undefined, freq: 4 },
      ),
    ),
  );
  const stranger = (email: fc.Arbitrary<string>) =>
    fc.noShrink(fc.record({ id: fixedId, email, student_id: studentNumber, full_name: fc.noShrink(personName), year: fc.constant(null), major: fc.constant(null) }));
  const strangers = fc.array(stranger(fc.noShrink(emailAddressFor(settings).map((e) => `x.${e}`))), { maxLength: byUser ? 0 : 2 });
  // Half the people have a look-alike stranger, placed before the records so a pattern match meets it first.
  const lookalikes = fc.tuple(...(byUser ? [] : list).map((p) => fc.option(stranger(wildcardLookalike(drawnAsStored(settings, 'student_records', 'email') ? normalizedEmail(p.email) : p.email)), { nil: undefined, freq: 2 })));
  return fc.tuple(own, strangers, lookalikes).map(([mine, others, alike]) => {
    const rows = [...alike.filter((r): r is NonNullable<typeof r> => r !== undefined), ...mine.filter((r): r is NonNullable<typeof r> => r !== undefined), ...others];
    const seen = new Set<string>();
    return rows.filter((r) => {
      const key = r.email.trim().toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  });
}

const BASE = Date.UTC(2024, 0, 1);

/**
 * Change requests over the records, minutes apart in random order; some at the same instant, so
 * the order among ties (settings.students.historyTieBreak) and the cap's cut through them are
 * met.
 */
export function changeRequests(settings: ModelSettings, records: Row[], max = 16, min = 0): fc.Arbitrary<Row[]> {
  if (records.length === 0) return fc.constant([]);
  return fc
    .uniqueArray(
      fc.noShrink(fc.record({
        id: fixedId,
        minute: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 100_000 }) }, { weight: 1, arbitrary: fc.constantFrom(99_000, 99_001) }),
        student_record_id: fc.constantFrom(...records.map((r) => r.id as string)),
        field: fc.constantFrom('major', 'full_name', 'year', 'student_id'),
        // A target holding it NOT NULL (settings.notNullColumns.student_change_requests, stranger-app-8): drawn without its null.
        requested_value: holdsNotNull(settings, 'student_change_requests', 'requested_value') ? fc.string({ maxLength: 8 }) : fc.option(fc.string({ maxLength: 8 }), { nil: null }),
        status: fc.constantFrom(...settings.students.statuses),
        admin_note: fc.option(fc.constantFrom('ok', 'needs proof', 'typo fixed', 'denied: mismatch'), { nil: null }),
        applied_value: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
      })),
      { minLength: min, maxLength: max, selector: (r) => r.id },
    )
    .map((list) =>
      list.map(({ minute, ...r }) => ({ ...r, created_at: new Date(BASE + minute * 60_000).toISOString() })),
    );
}

export function identityConflicts(records: Row[], settings?: ModelSettings, max = 4): fc.Arbitrary<Row[]> {
  if (records.length === 0) return fc.constant([]);
  const details = fc.constantFrom('two accounts', 'check registrar');
  return fc.array(
    fc.noShrink(fc.record({
      id: fixedId,
      person_id: fc.constantFrom(...records.map((r) => r.id as string)),
      kind: fc.constantFrom('duplicate_email', 'student_id_mismatch', 'name_mismatch'),
      // A target holding detail NOT NULL (settings.notNullColumns.identity_conflicts): drawn without its null.
      detail: settings && holdsNotNull(settings, 'identity_conflicts', 'detail') ? details : fc.option(details, { nil: null }),
    })),
    { maxLength: max },
  );
}
