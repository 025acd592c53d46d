import { describe, expect, it } from 'vitest';
import { compareOutcomes } from '../../../../engine/checker/compare.ts';
import { defaultSettings } from '../settings.ts';
import { studentFunctions } from './student.ts';

const record = studentFunctions.find((f) => f.name === 'get_my_student_record')!;
const refused = { kind: 'raised' as const, code: 'P0001', message: 'NOT_AUTHORIZED' };
const empty = { kind: 'allowed' as const, rows: [{ record: null, requests: [] }], affected: 1 };

describe('get_my_student_record and the server context', () => {
  // Re-created from a stranger's schema whose function raises NOT_AUTHORIZED when auth.uid() is null.
  it('the server context (no signed-in person) may get the empty record or NOT_AUTHORIZED; a signed-in caller gets the record', () => {
    const service = record.predict({}, { kind: 'service' }, {}, defaultSettings).outcome;
    expect(compareOutcomes(service, empty)).toBeUndefined();
    expect(compareOutcomes(service, refused)).toBeUndefined();
    // With a role: a signed-in caller with none may be refused too (identity-refused-to-no-role).
    const signedIn = record.predict({ users: [{ id: 'u1', role: 'user' }] }, { kind: 'user', id: 'u1' }, {}, defaultSettings).outcome;
    expect(compareOutcomes(signedIn, empty)).toBeUndefined();
    expect(compareOutcomes(signedIn, refused)).toBeDefined();
  });
});

describe('get_my_student_record for a caller with nothing of theirs', () => {
  // After stranger-app-6: `returns jsonb … select … from student_records where student_id = my_person_id()`
  // answered null for a caller with no record, a FAIL (R15, R18) where the model answers {record: null, requests: []}.
  const asNull = { kind: 'allowed' as const, rows: [{ value: null }], affected: 1 };
  it('may answer null (the named reading students.no-record-as-null); a caller with a record may not', () => {
    const none = record.predict({ users: [{ id: 'u1', role: 'user' }] }, { kind: 'user', id: 'u1' }, {}, defaultSettings).outcome;
    expect(compareOutcomes(none, asNull)).toBeUndefined();
    expect(none.orElse?.map((o) => o.reading)).toEqual(['students.no-record-as-null']);
    const world = { 'auth.users': [{ id: 'u2', email: 'a@kku.ac.th' }], users: [{ id: 'u2', role: 'user', email: 'a@kku.ac.th' }], student_records: [{ id: 's2', email: 'a@kku.ac.th', student_id: '650001' }] };
    const own = record.predict(world, { kind: 'user', id: 'u2' }, {}, defaultSettings).outcome;
    expect(own).toMatchObject({ kind: 'allowed', rows: [{ record: expect.objectContaining({ id: 's2' }) }] });
    expect(compareOutcomes(own, asNull)).toBeDefined();
  });
});
