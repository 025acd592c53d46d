import { describe, expect, it } from 'vitest';
import { columnDefaultOf, defaultsPaired, insertTargets, mergeSettings, RAISES } from './init.ts';

describe('the tables a trigger body inserts into', () => {
  it('reads names as Postgres does: a quoted name keeps its case, an unquoted one folds to lower case', () => {
    // Re-created after supabase-graphql-example: its signup trigger inserts into public."Profile";
    // folded to `profile`, init missed that it writes the model's Profile, and every case was dropped.
    const body = `begin
      insert into public."Profile" (id, "avatarUrl") values (new.id, null);
      INSERT INTO Audit.Log (at) values (now());
      insert into "Billing" . "Events" (id) values (new.id);
      insert into "workspaces" (owner) values (new.id);
    end`;
    expect(insertTargets(body)).toEqual(['Profile', 'audit.log', 'Billing.Events', 'workspaces']);
  });
});

describe("a pack's project settings over init's proposal", () => {
  it('a group both set keeps the keys init read from the target beside the pack\'s; a scalar or list is the pack\'s', () => {
    const proposed: Record<string, unknown> = { notNullColumns: { users: ['role'] }, ownerGuardCases: 'all', statuses: ['a'] };
    mergeSettings(proposed, { notNullColumns: { vs_tickets: ['submitter_id'] }, ownerGuardCases: 'one-table', statuses: ['b'] });
    expect(proposed).toEqual({ notNullColumns: { users: ['role'], vs_tickets: ['submitter_id'] }, ownerGuardCases: 'one-table', statuses: ['b'] });
  });
});

describe('a trigger body that can refuse (a guard init switches off on a fixture-only table)', () => {
  it('raises at the default level in any of its forms; a notice, a warning or prose is no refusal', () => {
    for (const body of ["raise exception 'no';", "raise 'no';", "RAISE USING message = 'no';", "raise sqlstate '42501';", 'raise insufficient_privilege;', "raise check_violation using message = 'no';"]) expect(RAISES.test(body), body).toBe(true);
    for (const body of ["raise notice 'ok';", "raise warning using message = 'w';", '-- raise the limit later', 'perform raise_limit();']) expect(RAISES.test(body), body).toBe(false);
  });
});

describe('a vocabulary the model keeps without a setting, spelled otherwise by the target', () => {
  it("pairs the model's default with the target's when the target lacks the one and the model refuses the other; a vocabulary the model takes whole needs nothing", () => {
    // Re-created after stranger-app-5: project_sign_requests.status check (status in ('requested', 'signed', 'declined')) default 'requested'.
    const model = (v: string) => ['pending', 'signed', 'declined'].includes(v);
    expect(defaultsPaired(['requested', 'signed', 'declined'], model, 'pending', 'requested')).toEqual({ pairs: { pending: 'requested' }, unknown: [] });
    expect(defaultsPaired(['requested', 'signed', 'void'], model, 'pending', 'requested')).toEqual({ pairs: { pending: 'requested' }, unknown: ['void'] });
    expect(defaultsPaired(['pending', 'approved', 'rejected'], (v) => ['pending', 'approved', 'rejected'].includes(v), 'pending', 'pending')).toEqual({ unknown: [] });
    // No default to pair by: named, not guessed.
    expect(defaultsPaired(['requested', 'signed', 'declined'], model, 'pending', undefined)).toEqual({ unknown: ['requested'] });
    // An ORM's enum spells the model's words in upper case (stranger-app-15's Prisma "ChangeRequestStatus"): each is the model's word, not one to map by hand.
    const changeRequests = (v: string) => ['pending', 'approved', 'rejected'].includes(v);
    expect(defaultsPaired(['PENDING', 'APPROVED', 'REJECTED'], changeRequests, 'pending', 'PENDING')).toEqual({ spellings: { pending: 'PENDING', approved: 'APPROVED', rejected: 'REJECTED' }, unknown: [] });
    expect(defaultsPaired(['REQUESTED', 'SIGNED', 'DECLINED'], model, 'pending', 'REQUESTED')).toEqual({ pairs: { pending: 'REQUESTED' }, spellings: { signed: 'SIGNED', declined: 'DECLINED' }, unknown: [] });
    // Two spellings of one word (`Approved` and `APPROVED`): neither is the model's, as targetSpelling answers (the last one won).
    expect(defaultsPaired(['PENDING', 'Approved', 'APPROVED', 'REJECTED'], changeRequests, 'pending', 'PENDING').spellings).toEqual({ pending: 'PENDING', rejected: 'REJECTED' });
  });
});

describe('a column default as a request names the table (columnDefaultOf)', () => {
  // stranger-app-9: the API's first schema is `api`; api.vs_tickets (a view) has app.vs_tickets' default for public_ref.
  const facts = {
    tables: [
      { name: 'api.vs_tickets', anonCanSelect: false, columns: [{ name: 'public_ref', type: 'uuid', defaultExpr: 'gen_random_uuid()' }, { name: 'is_duplicate', type: 'boolean', defaultExpr: '(duplicate_of IS NOT NULL)', serverFilled: 'generated' as const }] },
      { name: 'passport.profiles', anonCanSelect: false, columns: [{ name: 'points', type: 'integer', defaultExpr: '0' }] },
      { name: 'vs_tickets', anonCanSelect: false, columns: [{ name: 'public_ref', type: 'text' }] },
    ],
  };

  it('a bare name is the first exposed schema’s table or view, not public’s', () => {
    expect(columnDefaultOf(facts, 'api', 'vs_tickets', 'public_ref')).toBe('gen_random_uuid()');
    expect(columnDefaultOf(facts, 'public', 'vs_tickets', 'public_ref')).toBeUndefined();
  });

  it('a qualified name as it is; a generated column’s expression is no default', () => {
    expect(columnDefaultOf(facts, 'api', 'passport.profiles', 'points')).toBe('0');
    expect(columnDefaultOf(facts, 'api', 'vs_tickets', 'is_duplicate')).toBeUndefined();
    // The facts name public's tables bare: `public.vs_tickets` under another first schema is that one.
    expect(columnDefaultOf({ tables: [{ name: 'vs_tickets', anonCanSelect: false, columns: [{ name: 'public_ref', type: 'uuid', defaultExpr: 'gen_random_uuid()' }] }] }, 'api', 'public.vs_tickets', 'public_ref')).toBe('gen_random_uuid()');
  });
});
