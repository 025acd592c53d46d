/**
 * Issue 11 point 6: Supabase anonymous sign-ins (role authenticated, is_anonymous true in the
 * token and in auth.users) are among the callers, and settings.anonymousSignIns names what the
 * model lets them do. On the reference database an anonymous sign-in with a vs_staff users row
 * reads every ticket: the default ('signed-in', the spec's "signed in" is a session with a
 * subject) agrees; 'no-role' predicts a caller with no role and so disagrees with that database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../../../engine/runner/environment.ts';
import { checkCase } from '../../../engine/runner/check-case.ts';
import type { DataCase } from '../../../engine/runner/data-case.ts';
import { referenceEnvironment } from '../../../testing/reference.ts';
import { authUserRow, callerOf, isAnonymousId, type Person } from '../generators/identities.ts';
import { referenceOracle, referenceOracleWith } from './index.ts';
import { defaultSettings, ModelSettingsSchema } from './settings.ts';

const anonymousStaff: Person = {
  id: '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a00',
  email: '',
  isAnonymous: true,
  profile: { id: '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a00', email: '', role: 'vs_staff', department: null, permissions: [], managed_permissions: [] },
};
const submitter: Person = { id: '5b5b5b5b-5b5b-4b5b-8b5b-5b5b5b5b5b5b', email: 's@example.edu', profile: { id: '5b5b5b5b-5b5b-4b5b-8b5b-5b5b5b5b5b5b', email: 's@example.edu', role: 'user', department: 'ENG', permissions: [], managed_permissions: [] } };

const readAll: DataCase = {
  world: {
    'auth.users': [authUserRow(anonymousStaff), authUserRow(submitter)],
    users: [anonymousStaff.profile!, submitter.profile!],
    vs_tickets: [{ id: 'VS-1001', submitter_id: submitter.id, submitter_label: 'student', target_dept: 'ENG', report: 'wifi down', deleted_at: null }],
  },
  steps: [{ caller: callerOf(anonymousStaff), request: { kind: 'select', table: 'vs_tickets', columns: ['id'], filters: [] } }],
};

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment();
});
afterAll(() => env?.close());

describe('anonymous sign-ins', () => {
  it('are generated as Supabase makes them: no e-mail, is_anonymous in auth.users and in the caller', () => {
    expect(isAnonymousId(anonymousStaff.id)).toBe(true);
    expect(authUserRow(anonymousStaff)).toEqual({ id: anonymousStaff.id, email: null, is_anonymous: true });
    expect(callerOf(anonymousStaff)).toEqual({ kind: 'user', id: anonymousStaff.id, isAnonymous: true });
  });

  it('default (signed-in): the model agrees with the reference database, which lets one read as its users row says', async () => {
    expect(defaultSettings.anonymousSignIns).toBe('signed-in');
    const verdict = await checkCase(env.workers[0].tx, readAll, referenceOracle);
    await env.workers[0].tx.end();
    expect(verdict.mismatch?.reason).toBeUndefined();
    expect(verdict.history.map((h) => h.outcomeClass)).toEqual(['allowed']);
  });

  it('no-role: the model predicts no role, and the reference database is reported as letting it read', async () => {
    const settings = ModelSettingsSchema.parse({ anonymousSignIns: 'no-role' });
    const verdict = await checkCase(env.workers[0].tx, readAll, referenceOracleWith(settings));
    await env.workers[0].tx.end();
    // Row security hides the ticket from a caller with no role: nothing visible, no error.
    expect(verdict.mismatch?.expected).toMatchObject({ kind: 'filtered', rows: [] });
    expect(verdict.mismatch?.actual).toMatchObject({ kind: 'allowed', rows: [{ id: 'VS-1001' }] });
  });
});
