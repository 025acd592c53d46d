/**
 * The person model's link (settings.students.personLink): by default the student record whose
 * e-mail is the auth identity's; under `user-id` the record keyed by the caller's user id (a
 * schema whose `student_records.user_id` is the key referencing its users), the e-mail unused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { functionModels } from './functions/index.ts';
import { defaultSettings, ModelSettingsSchema } from './settings.ts';
import type { Caller } from '../../../engine/model/caller.ts';
import type { Row } from '../../../engine/model/json.ts';
import { compareOutcomes } from '../../../engine/checker/compare.ts';
import { rejectedByGrant } from '../../../engine/model/outcome.ts';
import { ownRecords, studentRecords } from '../generators/student.ts';
import type { Person } from '../generators/identities.ts';

const ME = '11111111-1111-4111-8111-111111111111';
const caller: Caller = { kind: 'user', id: ME, email: 'me@example.com' };
const byUserId = ModelSettingsSchema.parse({ students: { personLink: 'user-id' } });
const world = {
  'auth.users': [{ id: ME, email: 'me@example.com' }],
  users: [{ id: ME }],
  // Someone else's record carrying my e-mail, and mine keyed by my id under another e-mail.
  student_records: [
    { id: 'r-email', email: 'me@example.com', student_id: '60000001', full_name: 'Namesake' },
    { id: ME, email: 'old@example.com', student_id: '60000002', full_name: 'Me' },
  ],
  student_change_requests: [{ id: 'q1', student_record_id: ME, field: 'major', status: 'approved', created_at: '2026-01-01T00:00:00Z' }],
};
const call = (name: string, settings = defaultSettings, who: Caller = caller, w: typeof world = world) => functionModels[name].predict(w, who, {}, settings).outcome as { rows: Row[]; orElse?: unknown[] };

describe('students.personLink', () => {
  it('email (default): my_person_id is the record with my auth e-mail; user-id: the record keyed by my id', () => {
    expect(call('my_person_id').rows).toEqual([{ value: 'r-email' }]);
    expect(call('my_person_id', byUserId).rows).toEqual([{ value: ME }]);
    expect((call('get_my_student_record', byUserId).rows[0].record as Row).full_name).toBe('Me');
  });

  it('user-id: change requests keyed by my id are mine with or without a record row; no record keyed by me, no person', () => {
    const noRecord = { ...world, student_records: world.student_records.slice(0, 1) };
    expect(call('my_person_id', byUserId, caller, noRecord).rows).toEqual([{ value: null }]);
    const answer = call('get_my_student_record', byUserId, caller, noRecord).rows[0];
    expect(answer.record).toBeNull();
    expect((answer.requests as Row[]).map((r) => r.id)).toEqual(['q1']);
  });

  it('anon: my_person_id answers no person, or is refused by its EXECUTE grant (both secure)', () => {
    const anon = call('my_person_id', defaultSettings, { kind: 'anon' });
    expect(compareOutcomes(anon as never, rejectedByGrant('permission denied for function my_person_id'))).toBeUndefined();
    expect(compareOutcomes(anon as never, { kind: 'allowed', rows: [{ value: 'r-email' }], affected: 1 })).toBeDefined();
  });

  it('user-id: the generators key each record by its user (who has a users row); no stranger has one', () => {
    const people: Person[] = [
      { id: ME, email: 'me@example.com', profile: { id: ME } as Row },
      { id: '22222222-2222-4222-8222-222222222222', email: 'nobody@example.com' },
    ];
    fc.assert(
      fc.property(studentRecords(people, byUserId), (records) => {
        expect(records.every((r) => r.id === ME)).toBe(true);
        expect(ownRecords(byUserId, records, caller)).toEqual(records);
      }),
      { numRuns: 50 },
    );
  });
});

describe('students.callerEmail (stranger-app-3: my_person_id and sync_my_team_permissions join public.users)', () => {
  const byUsersRow = ModelSettingsSchema.parse({ students: { callerEmail: 'users-row' } });
  const profiled = { ...world, users: [{ id: ME, email: 'old@example.com' }] };
  it('users-row: the e-mail is the caller’s users row’s; no users row, no person and no team e-mail', () => {
    expect(call('my_person_id', byUsersRow, caller, profiled).rows).toEqual([{ value: ME }]);
    expect(call('my_person_id', defaultSettings, caller, profiled).rows).toEqual([{ value: 'r-email' }]);
    expect(call('my_person_id', byUsersRow, caller, { ...world, users: [] }).rows).toEqual([{ value: null }]);
  });
});

describe('sync_my_team_permissions for a signed-in caller with no e-mail (users-row, no users row)', () => {
  it('answers no permissions, or refuses: both secure', () => {
    const settings = ModelSettingsSchema.parse({ students: { callerEmail: 'users-row' } });
    const outcome = functionModels.sync_my_team_permissions.predict({ ...world, users: [] }, caller, {}, settings).outcome;
    expect(compareOutcomes(outcome, { kind: 'raised', code: 'P0001', message: 'NOT_AUTHORIZED' })).toBeUndefined();
    const withRow = functionModels.sync_my_team_permissions.predict({ ...world, users: [{ id: ME, email: 'old@example.com', role: 'user' }] }, caller, {}, settings).outcome;
    expect(compareOutcomes(withRow, { kind: 'raised', code: 'P0001', message: 'NOT_AUTHORIZED' })).toBeDefined();
  });
});
