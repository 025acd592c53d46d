/**
 * Rule 1 exempts handlers and admins from the owner guard; users has no handler, and rule 2
 * refuses only non-staff. A schema whose users guard exempts admins alone (stranger-app-3:
 * `private.is_admin()`) refuses a non-admin staff member's change to their own role: as secure
 * as the model's exemption, so both agree. An admin's change must still go through, and a
 * non-staff owner's must still be refused.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { vsTicket } from '../generators/vs-world.ts';
import { compareOutcomes, comparedAsFor, settingHintsFor } from '../../../engine/checker/compare.ts';
import type { Json, Row } from '../../../engine/model/json.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import { FORGED_OWNER_REFUSED, predict } from '../../../engine/model/predict.ts';
import type { Outcome } from '../../../engine/model/outcome.ts';
import { acceptedBy, readingsNear } from '../../../engine/runner/check-case.ts';
import { acceptedNote } from '../../../engine/runner/run-data-property.ts';
import { referenceOracleWith } from './index.ts';
import { ModelSettingsSchema } from './settings.ts';
import { uuidAsBigint } from '../../../engine/model/target-ids.ts';
import { commentsAsCompared, PUBLIC_COMMENTS_AS_COMPARED, vsPublicRef } from './tables/vs-tickets.ts';
import { REFUSAL_ORDER_OPEN } from './functions/vs.ts';
import { TEAM_MEMBER_ROW_IS_CALLERS } from '../index.ts';

const ME = '5a5a5a5a-5a5a-4a5a-8a5a-5a5a5a5a5a5a';
const oracle = referenceOracleWith(ModelSettingsSchema.parse({ roles: ['user', 'uni_staff', 'dev'], staffRoles: ['uni_staff', 'dev'], adminRoles: ['dev'] }));
const caller = { kind: 'user' as const, id: ME, email: 'me@x' };
const world = (role: string) => ({ users: [{ id: ME, email: 'me@x', display_name: null, avatar_url: null, phone: null, role, department: null, permissions: [], managed_permissions: [] }] });
const demote: ApiRequest = { kind: 'update', table: 'users', patch: { role: 'user' }, filters: [{ column: 'id', op: 'eq', value: ME }], returning: 'representation' };
const guard = { kind: 'raised' as const, code: 'P0001', message: 'users: role may not be changed' };

describe('rule 1 on users: staff who are not admins, on their own row', () => {
  it('a staff member changing their own role: passes (the model), or the guard refuses it', () => {
    const expected = predict(oracle, world('uni_staff'), caller, demote).outcome;
    expect(expected).toMatchObject({ kind: 'allowed', affected: 1 });
    expect(compareOutcomes(expected, guard)).toBeUndefined();
    expect(compareOutcomes(expected, { kind: 'error', code: '23514' })).toBeDefined();
  });

  it('the guard runs before the NOT NULL check: a staff member nulling their own e-mail meets either', () => {
    const expected = predict(oracle, world('uni_staff'), caller, { ...demote, patch: { email: null } } as ApiRequest).outcome;
    expect(expected).toMatchObject({ kind: 'error', code: '23502' });
    expect(compareOutcomes(expected, guard)).toBeUndefined();
  });

  it('an admin’s change must go through; a non-staff owner’s is refused, never passed', () => {
    expect(compareOutcomes(predict(oracle, world('dev'), caller, demote).outcome, guard)).toBeDefined();
    const promote: ApiRequest = { ...demote, patch: { role: 'dev' } } as ApiRequest;
    const expected = predict(oracle, world('user'), caller, promote).outcome;
    expect(expected).toMatchObject({ kind: 'raised' });
    expect(compareOutcomes(expected, { kind: 'allowed', rows: [{ ...world('user').users[0], role: 'dev' }], affected: 1 })).toBeDefined();
  });
});

describe('rule 3 on vs_tickets: a handler’s entry that is no remark', () => {
  const TICKET = { id: 'VS-1001', submitter_id: ME, submitter_label: 'Student 1', target_dept: 'ENG', status: 'open', category: null, is_public: false, public_title: null, duplicate_of: null, tags: [], remarks: [], public_comments: [], report: 'r', deleted_at: null };
  const handler = referenceOracleWith(ModelSettingsSchema.parse({ roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'] } }));
  const w = { users: [{ ...world('vs_staff').users[0], department: 'ENG' }], vs_tickets: [TICKET] };
  const append = (entry: unknown): ApiRequest => ({ kind: 'update', table: 'vs_tickets', patch: { remarks: [entry] }, filters: [{ column: 'id', op: 'eq', value: 'VS-1001' }], returning: 'representation' }) as ApiRequest;
  const refused = { kind: 'raised' as const, code: 'P0001', message: 'vs_tickets: a remark needs a vis' };

  it('stored by the model, or refused by a schema checking every writer’s entries', () => {
    const expected = predict(handler, w, caller, append('Student 1')).outcome;
    expect(expected).toMatchObject({ kind: 'allowed', affected: 1 });
    expect(compareOutcomes(expected, refused)).toBeUndefined();
  });

  it('the same entry appended by vs_transfer_dept (the function’s write fires the guard): stored, or refused', () => {
    const transfer = (entry: unknown): ApiRequest => ({ kind: 'rpc', fn: 'vs_transfer_dept', args: { p_id: 'VS-1001', p_dept: 'SCI', p_remarks: [entry] } }) as ApiRequest;
    const expected = predict(handler, w, caller, transfer({ by: 'staff', text: 'moved' })).outcome;
    expect(expected).toMatchObject({ kind: 'allowed', affected: 1 });
    expect(compareOutcomes(expected, refused)).toBeUndefined();
    expect(compareOutcomes(predict(handler, w, caller, transfer({ vis: 'staff', by: 'x', internal: true, text: 'moved' })).outcome, refused)).toBeDefined();
  });

  it('an entry with a vis but no author (`by`) too: stranger-app-4 asks every writer’s entry for both', () => {
    const expected = predict(handler, w, caller, append({ vis: 'ticket', internal: false, text: 'more detail' })).outcome;
    expect(expected).toMatchObject({ kind: 'allowed', affected: 1 });
    expect(compareOutcomes(expected, refused)).toBeUndefined();
  });

  it('a well-formed entry must still go through', () => {
    expect(compareOutcomes(predict(handler, w, caller, append({ vis: 'staff', by: 'x', internal: true, text: 'checked' })).outcome, refused)).toBeDefined();
  });
});

describe('find_similar_vs_tickets for a caller with a role who handles nothing', () => {
  const settings = ModelSettingsSchema.parse({ roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'] } });
  const similar: ApiRequest = { kind: 'rpc', fn: 'find_similar_vs_tickets', args: { p_id: 'VS-1001' } } as ApiRequest;
  const noRows = { kind: 'allowed' as const, rows: [], affected: 0 };
  it('refused, or answered no similar ticket, as vs.similarForNonHandler says (one of them, not either per call); a null role (no users row) only refused', () => {
    const refused = referenceOracleWith(settings);
    const empty = referenceOracleWith({ ...settings, vs: { ...settings.vs, similarForNonHandler: 'empty' } });
    // Either per call would let a target answer [] for ids that exist and refuse the others: which tickets exist.
    expect(compareOutcomes(predict(refused, world('user'), caller, similar).outcome, noRows)).toBeDefined();
    expect(compareOutcomes(predict(empty, world('user'), caller, similar).outcome, noRows)).toBeUndefined();
    expect(compareOutcomes(predict(empty, world('user'), caller, similar).outcome, predict(refused, world('user'), caller, similar).outcome as never)).toBeDefined();
    expect(compareOutcomes(predict(empty, { users: [] }, caller, similar).outcome, noRows)).toBeDefined();
  });
});

// After stranger-app-7: `if not found or not can_handle_vs(src.target_dept) then raise exception
// 'NOT_AUTHORIZED'` refused a handler asking about a ticket outside their department (R09, R14:
// "expected success").
describe('find_similar_vs_tickets for a handler, on a ticket they do not handle (vs.similarForUnhandledTicket)', () => {
  const base = { roles: ['user', 'vs_staff', 'vp_admin'], staffRoles: ['vs_staff', 'vp_admin'], adminRoles: [], vs: { handlerRoles: ['vs_staff', 'vp_admin'] } };
  const ticket = (id: string, target_dept: string) => ({ id, submitter_id: null, submitter_label: 's', target_dept, status: 'open', category: 'wifi', is_public: false, public_title: null, duplicate_of: null, tags: [], remarks: [], public_comments: [], report: 'r', deleted_at: null });
  const w = { users: [{ ...world('vp_admin').users[0], department: 'ENG' }], vs_categories: [{ id: 'wifi', name: 'wifi', is_confidential: false, public_eligible: true }], vs_tickets: [ticket('VS-1', 'ENG'), ticket('VS-2', 'ENG'), ticket('VS-3', 'SCI')] };
  const similar = (id: string): ApiRequest => ({ kind: 'rpc', fn: 'find_similar_vs_tickets', args: { p_id: id } }) as ApiRequest;
  const notAuthorized = { kind: 'raised' as const, code: 'P0001', message: 'NOT_AUTHORIZED' };
  const noRows = { kind: 'allowed' as const, rows: [], affected: 0 };
  const oracleWith = (similarForUnhandledTicket?: 'empty' | 'refused') => referenceOracleWith(ModelSettingsSchema.parse({ ...base, vs: { ...base.vs, ...(similarForUnhandledTicket ? { similarForUnhandledTicket } : {}) } }));

  it('answered no similar ticket (default), or refused as not authorized: out of scope and missing alike, one of them per target', () => {
    for (const id of ['VS-3', 'VS-404']) {
      expect(compareOutcomes(predict(oracleWith(), w, caller, similar(id)).outcome, noRows)).toBeUndefined();
      expect(compareOutcomes(predict(oracleWith(), w, caller, similar(id)).outcome, notAuthorized)).toBeDefined();
      expect(compareOutcomes(predict(oracleWith('refused'), w, caller, similar(id)).outcome, notAuthorized)).toBeUndefined();
      // Answering [] for one and refusing the other would tell which ids exist.
      expect(compareOutcomes(predict(oracleWith('refused'), w, caller, similar(id)).outcome, noRows)).toBeDefined();
    }
  });

  it('a ticket they handle still lists the similar ones in scope under `refused`; the out-of-scope one never', () => {
    const expected = predict(oracleWith('refused'), w, caller, similar('VS-1')).outcome;
    expect(((expected as Outcome & { rows: Row[] }).rows ?? []).map((r) => r.id)).toEqual(['VS-2']);
    expect(compareOutcomes(expected, notAuthorized)).toBeDefined();
  });
});

describe('find_similar_vs_tickets: which tickets are similar (vs.similarUncategorized, vs.similarDuplicates)', () => {
  const base = { roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'] } };
  const ticket = (id: string, category: string | null, duplicate_of: string | null = null) => ({ id, submitter_id: null, submitter_label: 's', target_dept: 'ENG', status: 'open', category, is_public: false, public_title: null, duplicate_of, tags: [], remarks: [], public_comments: [], report: 'r', deleted_at: null });
  const w = { users: [{ ...world('vs_staff').users[0], department: 'ENG' }], vs_categories: [{ id: 'wifi', name: 'wifi', is_confidential: false, public_eligible: true }], vs_tickets: [ticket('VS-1', null), ticket('VS-2', null), ticket('VS-3', 'wifi'), ticket('VS-4', 'wifi', 'VS-3'), ticket('VS-5', 'wifi')] };
  const similarTo = (id: string, vs: object = {}) => {
    const oracle = referenceOracleWith(ModelSettingsSchema.parse({ ...base, vs: { ...base.vs, ...vs } }));
    const o = predict(oracle, w, caller, { kind: 'rpc', fn: 'find_similar_vs_tickets', args: { p_id: id } } as ApiRequest).outcome;
    return ((o as Outcome & { rows: Row[] }).rows ?? []).map((r) => String(r.id)).sort();
  };

  it('by default: none for an uncategorized ticket, merged tickets listed', () => {
    expect(similarTo('VS-1')).toEqual([]);
    expect(similarTo('VS-5')).toEqual(['VS-3', 'VS-4']);
  });

  it('as stranger-app-5 reads it (category is not distinct from, duplicate_of is null): the other uncategorized, merged ones left out; each still within scope', () => {
    expect(similarTo('VS-1', { similarUncategorized: 'alike' })).toEqual(['VS-2']);
    expect(similarTo('VS-5', { similarDuplicates: 'left-out' })).toEqual(['VS-3']);
    // A target listing what the setting leaves out (or leaving out what it lists) fails, naming the settings.
    const oracle = referenceOracleWith(ModelSettingsSchema.parse({ ...base, vs: { ...base.vs, similarDuplicates: 'left-out' } }));
    const request = { kind: 'rpc', fn: 'find_similar_vs_tickets', args: { p_id: 'VS-5' } } as ApiRequest;
    const expected = predict(oracle, w, caller, request).outcome;
    const listed = predict(referenceOracleWith(ModelSettingsSchema.parse(base)), w, caller, request).outcome;
    expect(compareOutcomes(expected, listed, [], undefined, settingHintsFor(oracle, request))?.reason).toMatch(/rows touched: model 1, database 2 \(id: setting vs\.similarUncategorized, vs\.similarDuplicates\)/);
  });
});

describe('model.departmentList: a department outside the list', () => {
  const TICKET = { id: 'VS-1001', submitter_id: ME, submitter_label: 'Student 1', target_dept: 'ENG', status: 'open', category: null, is_public: false, public_title: null, duplicate_of: null, tags: [], remarks: [], public_comments: [], report: 'r', deleted_at: null };
  const settings = { roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'] } };
  const w = { users: [{ ...world('vs_staff').users[0], department: 'ENG' }], vs_tickets: [TICKET] };
  const move: ApiRequest = { kind: 'update', table: 'vs_tickets', patch: { target_dept: 'XYZ' }, filters: [{ column: 'id', op: 'eq', value: 'VS-1001' }], returning: 'representation' };

  it('closed (the reference): refused by the CHECK', () => {
    expect(predict(referenceOracleWith(ModelSettingsSchema.parse(settings)), w, caller, move).outcome).toMatchObject({ kind: 'error', code: '23514' });
  });
  it('open (a schema keeping no list): stored like any other', () => {
    expect(predict(referenceOracleWith(ModelSettingsSchema.parse({ ...settings, departmentList: 'open' })), w, caller, move).outcome).toMatchObject({ kind: 'allowed', affected: 1 });
  });
});

describe('rules 12 and 13 read strictly by a schema: refusing is as secure', () => {
  const TICKET = { id: 'VS-1001', submitter_id: null, submitter_label: 'Student 1', target_dept: 'ENG', status: 'open', category: 'wifi', is_public: false, public_title: null, duplicate_of: null, tags: [], remarks: [], public_comments: [], report: 'The connection in block D fails each evening since Monday', deleted_at: null };
  const settings = { roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'] } };
  const oracle = referenceOracleWith(ModelSettingsSchema.parse(settings));
  const person = (role: string, permissions: string[]) => ({ users: [{ ...world(role).users[0], department: 'ENG', permissions }], vs_categories: [{ id: 'wifi', name: 'wifi', is_confidential: false, public_eligible: true }], vs_tickets: [TICKET] });
  const notAuthorized = { kind: 'raised' as const, code: 'P0001', message: 'NOT_AUTHORIZED' };

  it('a visible remark holding a ticket id (its own, or inside a longer one): stored, or refused (rule 12: id-bearing remarks are internal)', () => {
    const own: ApiRequest = { kind: 'update', table: 'vs_tickets', patch: { remarks: [{ vis: 'ticket', by: 'staff', text: 'update on VS-1001' }] }, filters: [{ column: 'id', op: 'eq', value: 'VS-1001' }], returning: 'minimal' };
    const expected = predict(oracle, person('vs_staff', []), caller, own).outcome;
    expect(expected).toMatchObject({ kind: 'allowed', affected: 1 });
    expect(compareOutcomes(expected, { kind: 'raised', code: 'P0001', message: 'vs_tickets: a remark naming a ticket id must be internal' })).toBeUndefined();
    const longer = { ...own, patch: { remarks: [{ vis: 'ticket', by: 'staff', text: 'ref VS-10010' }] } } as ApiRequest;
    expect(compareOutcomes(predict(oracle, person('vs_staff', []), caller, longer).outcome, { kind: 'raised', code: 'P0001', message: 'vs_tickets: a remark naming a ticket id must be internal' })).toBeUndefined();
    // The id as a target keeps it (bigintIds), as a case's text is translated (stranger-app-4's serial keys): the same.
    const asTarget = { ...own, patch: { remarks: [{ vis: 'ticket', by: 'staff', text: `update on ${uuidAsBigint('VS-1001')}` }] } } as ApiRequest;
    expect(compareOutcomes(predict(oracle, person('vs_staff', []), caller, asTarget).outcome, { kind: 'raised', code: 'P0001', message: 'vs_tickets: a remark naming a ticket id must be internal' })).toBeUndefined();
    // Not marked internal, whatever its vis: rule 12 names the flag.
    const staffOnly = { ...own, patch: { remarks: [{ vis: 'staff', by: 'staff', text: 'see VS-1001' }] } } as ApiRequest;
    expect(compareOutcomes(predict(oracle, person('vs_staff', []), caller, staffOnly).outcome, { kind: 'raised', code: 'P0001', message: 'vs_tickets: a remark naming a ticket id must be internal' })).toBeUndefined();
    // Shaped like a ticket id, of no ticket here (a guard's pattern cannot know which exist).
    const noSuchTicket = { ...own, patch: { remarks: [{ vis: 'staff', by: 'staff', text: 'see VS-2002' }] } } as ApiRequest;
    expect(compareOutcomes(predict(oracle, person('vs_staff', []), caller, noSuchTicket).outcome, { kind: 'raised', code: 'P0001', message: 'vs_tickets: a remark naming a ticket id must be internal' })).toBeUndefined();
    const marked = { ...own, patch: { remarks: [{ vis: 'staff', by: 'staff', internal: true, text: 'see VS-1001' }] } } as ApiRequest;
    expect(compareOutcomes(predict(oracle, person('vs_staff', []), caller, marked).outcome, { kind: 'raised', code: 'P0001', message: 'vs_tickets: a remark naming a ticket id must be internal' })).toBeDefined();
    const plain = { ...own, patch: { remarks: [{ vis: 'ticket', by: 'staff', text: 'looking into it' }] } } as ApiRequest;
    expect(compareOutcomes(predict(oracle, person('vs_staff', []), caller, plain).outcome, { kind: 'raised', code: 'P0001', message: 'no' })).toBeDefined();
  });

  it('vs_set_public by a handler who is not staff (the vs permission): published, or refused (rule 13: a headline written by staff)', () => {
    const publish: ApiRequest = { kind: 'rpc', fn: 'vs_set_public', args: { p_id: 'VS-1001', p_public: true, p_title: 'Wifi drops' } } as ApiRequest;
    const byHolder = predict(oracle, person('user', ['vs']), caller, publish).outcome;
    expect(byHolder).toMatchObject({ kind: 'allowed' });
    expect(compareOutcomes(byHolder, notAuthorized)).toBeUndefined();
    // A staff handler must still be able to publish.
    expect(compareOutcomes(predict(oracle, person('vs_staff', []), caller, publish).outcome, notAuthorized)).toBeDefined();
  });
});

/**
 * Each secure reading is named where it decides a step: a step agreed only by it is counted under
 * its name in the run's note and summary.json (check-case.ts acceptedBy), and a failure near it
 * names it (readingsNear). The model's own answer is never counted as a reading.
 */
describe('secure readings, named where they decide a step', () => {
  const byName = (expected: Outcome, observed: Outcome) => acceptedBy({ predicted: expected, observed, masked: [], hints: {} });
  const notAuthorized = { kind: 'raised' as const, code: 'P0001', message: 'NOT_AUTHORIZED' };
  const TICKET = { id: 'VS-1001', submitter_id: ME, submitter_label: 'Student 1', target_dept: 'ENG', status: 'open', category: 'wifi', is_public: false, public_title: null, duplicate_of: null, tags: [], remarks: [], public_comments: [], report: 'The connection in block D fails each evening since Monday', deleted_at: null };
  const handler = referenceOracleWith(ModelSettingsSchema.parse({ roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'] } }));
  const vsWorld = (role: string, permissions: string[] = []) => ({ users: [{ ...world(role).users[0], department: 'ENG', permissions }], vs_categories: [{ id: 'wifi', name: 'wifi', is_confidential: false, public_eligible: true }], vs_tickets: [TICKET] });
  const appendRemark = (entry: unknown): ApiRequest => ({ kind: 'update', table: 'vs_tickets', patch: { remarks: [entry] }, filters: [{ column: 'id', op: 'eq', value: 'VS-1001' }], returning: 'minimal' }) as ApiRequest;

  it('users.guard-exempting-fewer: a staff member’s own role change refused by an admins-only guard', () => {
    const expected = predict(oracle, world('uni_staff'), caller, demote).outcome;
    expect(byName(expected, { kind: 'raised', code: 'P0001', message: 'users: role may not be changed' })).toEqual({ reading: 'users.guard-exempting-fewer' });
    expect(byName(expected, { kind: 'allowed', rows: [{ ...world('uni_staff').users[0], role: 'user' }], affected: 1 })).toBeUndefined();
    expect(readingsNear(expected)).toContain('users.guard-exempting-fewer');
  });

  it('users.owner-update-left-undone: an owner’s change left undone where owners cannot update (ownerEditableColumns: [])', () => {
    const closed = referenceOracleWith(ModelSettingsSchema.parse({ users: { ownerEditableColumns: [] } }));
    const same: ApiRequest = { ...demote, patch: { email: 'me@x' } } as ApiRequest;
    const expected = predict(closed, world('user'), caller, same).outcome;
    expect(byName(expected, { kind: 'filtered', rows: [], affected: 0 })).toEqual({ reading: 'users.owner-update-left-undone' });
  });

  it('forged-owner-refused: an INSERT naming another owner in a caller-filled column, refused as the rules refuse the forged row', () => {
    const filled = { ...handler, callerFilled: { vs_tickets: ['submitter_id'] } };
    const forged: ApiRequest = { kind: 'insert', table: 'vs_tickets', rows: [{ ...TICKET, id: 'VS-2002', submitter_id: '6b6b6b6b-6b6b-4b6b-8b6b-6b6b6b6b6b6b' }], returning: 'minimal' } as ApiRequest;
    const expected = predict(filled, vsWorld('user'), caller, forged).outcome;
    const refusedAsSent = (expected.orElse ?? []).find((o) => o.reading === FORGED_OWNER_REFUSED);
    expect(refusedAsSent).toBeDefined();
    expect(byName(expected, { ...refusedAsSent!, orElse: undefined, reading: undefined } as Outcome)).toEqual({ reading: FORGED_OWNER_REFUSED });
  });

  it('vs.no-remark-refused and vs.id-bearing-remark-refused: a handler’s entry refused by a guard checking every writer', () => {
    const noRemark = predict(handler, vsWorld('vs_staff'), caller, appendRemark('Student 1')).outcome;
    expect(byName(noRemark, { kind: 'raised', code: 'P0001', message: 'vs_tickets: a remark needs a vis' })).toEqual({ reading: 'vs.no-remark-refused' });
    const idBearing = predict(handler, vsWorld('vs_staff'), caller, appendRemark({ vis: 'ticket', by: 'staff', text: 'update on VS-1001' })).outcome;
    expect(byName(idBearing, { kind: 'raised', code: 'P0001', message: 'vs_tickets: a remark naming a ticket id must be internal' })).toEqual({ reading: 'vs.id-bearing-remark-refused' });
    // The id as the target keeps it (bigintIds), as a case's text is translated: the same reading.
    const asTarget = predict(handler, vsWorld('vs_staff'), caller, appendRemark({ vis: 'ticket', by: 'staff', text: `update on ${uuidAsBigint('VS-1001')}` })).outcome;
    expect(byName(asTarget, { kind: 'raised', code: 'P0001', message: 'vs_tickets: a remark naming a ticket id must be internal' })).toEqual({ reading: 'vs.id-bearing-remark-refused' });
    // Rule 12 read literally: a staff-only remark not marked internal, holding a word shaped like an id of no ticket here.
    const idShaped = predict(handler, vsWorld('vs_staff'), caller, appendRemark({ vis: 'staff', by: 'staff', text: 'as in XY-77' })).outcome;
    expect(byName(idShaped, { kind: 'raised', code: 'P0001', message: 'vs_tickets: a remark naming a ticket id must be internal' })).toEqual({ reading: 'vs.id-bearing-remark-refused' });
    expect(byName(predict(handler, vsWorld('vs_staff'), caller, appendRemark({ vis: 'staff', by: 'staff', text: 'as in XY-77', internal: true })).outcome, { kind: 'raised', code: 'P0001', message: 'x' })).toBeUndefined();
  });

  it('vs.authorless-remark-refused: a handler’s entry with a vis but no author (`by`), refused by a guard asking every writer for both', () => {
    const authorless = predict(handler, vsWorld('vs_staff'), caller, appendRemark({ vis: 'ticket', internal: false, text: 'more detail' })).outcome;
    expect(authorless).toMatchObject({ kind: 'allowed' });
    expect(byName(authorless, { kind: 'raised', code: 'P0001', message: 'vs_tickets: a remark needs an author' })).toEqual({ reading: 'vs.authorless-remark-refused' });
    expect(readingsNear(authorless)).toContain('vs.authorless-remark-refused');
    // vs_transfer_dept's p_remarks go through the same guard: the same name.
    const transfer: ApiRequest = { kind: 'rpc', fn: 'vs_transfer_dept', args: { p_id: 'VS-1001', p_dept: 'SCI', p_remarks: [{ vis: 'staff', internal: true, text: 'moved' }] } } as ApiRequest;
    const moved = predict(handler, vsWorld('vs_staff'), caller, transfer).outcome;
    expect(byName(moved, { kind: 'raised', code: 'P0001', message: 'vs_tickets: a remark needs an author' })).toEqual({ reading: 'vs.authorless-remark-refused' });
  });

  it('an entry both id-shaped and no remark: a guard checking every writer may refuse it either way, by PATCH or by vs_transfer_dept', () => {
    // The project's messages told apart (by default any text matches either refusal).
    const worded = referenceOracleWith(ModelSettingsSchema.parse({ roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'] }, refusals: { messages: { 'remark-author': 'needs a vis', 'id-bearing-remark': 'must be internal' } } }));
    const noVis = { kind: 'raised' as const, code: 'P0001', message: 'vs_tickets: a remark needs a vis' };
    const idInside = { kind: 'raised' as const, code: 'P0001', message: 'vs_tickets: a remark naming a ticket id must be internal' };
    const readings = (request: ApiRequest) => [noVis, idInside].map((refused) => byName(predict(worded, vsWorld('vs_staff'), caller, request).outcome, refused));
    const transfer = (entry: unknown): ApiRequest => ({ kind: 'rpc', fn: 'vs_transfer_dept', args: { p_id: 'VS-1001', p_dept: 'SCI', p_remarks: [entry] } }) as ApiRequest;
    const both = { text: 'see VS-1001' };
    expect(readings(appendRemark(both))).toEqual([{ reading: 'vs.no-remark-refused' }, { reading: 'vs.id-bearing-remark-refused' }]);
    // The function's write meets the one guard: every entry it is given, the readings a handler's PATCH of it has.
    for (const entry of [both, 'Student 1', { vis: 'ticket', by: 'staff', text: 'update on VS-1001' }, { vis: 'staff', internal: true, text: 'moved' }, { vis: 'staff', by: 'staff', text: 'fine' }]) {
      expect(readings(transfer(entry)), JSON.stringify(entry)).toEqual(readings(appendRemark(entry)));
    }
  });

  it('a PATCH of several rows the guard passes alike: each secure refusal is accepted once, not once per row', () => {
    const twoTickets = { ...vsWorld('vs_staff'), vs_tickets: [TICKET, { ...TICKET, id: 'VS-1002' }] };
    const bothRows = { ...appendRemark('Student 1'), filters: [{ column: 'target_dept', op: 'eq', value: 'ENG' }] } as ApiRequest;
    const expected = predict(handler, twoTickets, caller, bothRows).outcome;
    expect(expected).toMatchObject({ kind: 'allowed', affected: 2 });
    expect((expected.orElse ?? []).filter((o) => o.reading === 'vs.no-remark-refused')).toHaveLength(1);
  });

  it('vs.submitterLabel: a guard attributing every submitter remark to one word (stranger-app-5: `by` must be `submitter`)', () => {
    const word = { vis: 'ticket', by: 'submitter', text: 'still broken' };
    const own = { vis: 'ticket', by: 'Student 1', text: 'still broken' };
    const byColumn = referenceOracleWith(ModelSettingsSchema.parse({ roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'] } }));
    const byWord = referenceOracleWith(ModelSettingsSchema.parse({ roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'], submitterLabel: 'submitter' } }));
    expect(predict(byColumn, vsWorld('user'), caller, appendRemark(word)).outcome).toMatchObject({ kind: 'raised', code: 'P0001' });
    expect(predict(byColumn, vsWorld('user'), caller, appendRemark(own)).outcome).toMatchObject({ kind: 'allowed' });
    expect(predict(byWord, vsWorld('user'), caller, appendRemark(word)).outcome).toMatchObject({ kind: 'allowed' });
    expect(predict(byWord, vsWorld('user'), caller, appendRemark(own)).outcome).toMatchObject({ kind: 'raised', code: 'P0001' });
    // Worlds draw the word as every ticket's label, so the generators' appends by the label are the valid ones.
    const drawn = fc.sample(vsTicket(ModelSettingsSchema.parse({ vs: { submitterLabel: 'submitter' } }), 'VS-1001', [{ id: ME } as never], ['VS-1001', 'VS-1002']), { numRuns: 5, seed: 1 });
    expect(new Set(drawn.map((t) => t.submitter_label))).toEqual(new Set(['submitter']));
  });

  it('vs.set-public-staff-only: vs_set_public refused to a handler who is not staff', () => {
    const publish: ApiRequest = { kind: 'rpc', fn: 'vs_set_public', args: { p_id: 'VS-1001', p_public: true, p_title: 'Wifi drops' } } as ApiRequest;
    expect(byName(predict(handler, vsWorld('user', ['vs']), caller, publish).outcome, notAuthorized)).toEqual({ reading: 'vs.set-public-staff-only' });
  });

  it('team.sync-no-email-refused: sync_my_team_permissions refused to a caller with no e-mail', () => {
    const usersRow = referenceOracleWith(ModelSettingsSchema.parse({ students: { callerEmail: 'users-row' } }));
    const sync: ApiRequest = { kind: 'rpc', fn: 'sync_my_team_permissions', args: {} } as ApiRequest;
    expect(byName(predict(usersRow, { users: [] }, caller, sync).outcome, notAuthorized)).toEqual({ reading: 'team.sync-no-email-refused' });
  });

  it('students.record-refused-to-server, my-person-id-refused-to-anon: identity functions refusing who is no person', () => {
    const record: ApiRequest = { kind: 'rpc', fn: 'get_my_student_record', args: {} } as ApiRequest;
    expect(byName(predict(oracle, { users: [] }, { kind: 'service' } as never, record).outcome, notAuthorized)).toEqual({ reading: 'students.record-refused-to-server' });
    const personId: ApiRequest = { kind: 'rpc', fn: 'my_person_id', args: {} } as ApiRequest;
    expect(byName(predict(oracle, { users: [] }, { kind: 'anon' } as never, personId).outcome, { kind: 'rejected', code: '42501', by: 'grant' })).toEqual({ reading: 'my-person-id-refused-to-anon' });
  });

  // Re-created after stranger-app-5: its identity functions call a require_role() guard, which
  // refuses a signed-in caller with no profiles row; R20 failed on get_my_student_record.
  it('identity-refused-to-no-role: get_my_student_record and sync_my_team_permissions refused to a signed-in caller with no role (§7)', () => {
    const record: ApiRequest = { kind: 'rpc', fn: 'get_my_student_record', args: {} } as ApiRequest;
    const sync: ApiRequest = { kind: 'rpc', fn: 'sync_my_team_permissions', args: {} } as ApiRequest;
    const noRole = { users: [], 'auth.users': [{ id: ME, email: 'me@x', is_anonymous: false }] };
    for (const call of [record, sync]) expect(byName(predict(oracle, noRole, caller, call).outcome, notAuthorized)).toEqual({ reading: 'identity-refused-to-no-role' });
    // A caller with a role is not refused so.
    expect(byName(predict(oracle, world('user'), caller, record).outcome, notAuthorized)).toBeUndefined();
  });

  it('shop_orders.buyer-window-guard: a buyer’s own order outside the window refused by a trigger, not left undone', () => {
    const ORDER = { id: '7c7c7c7c-7c7c-4c7c-8c7c-7c7c7c7c7c7c', buyer_id: ME, status: 'paid', subtotal: 0, fee: 0, discount: 0, total: 0, admin_note: null, timeline: [], payment_slips: [], shipping_name: null, shipping_phone: null, shipping_address: null, buyer_note: null };
    const note: ApiRequest = { kind: 'update', table: 'shop_orders', patch: { buyer_note: 'hi' }, filters: [{ column: 'id', op: 'eq', value: ORDER.id }], returning: 'minimal' } as ApiRequest;
    const expected = predict(oracle, { ...world('user'), shop_orders: [ORDER] }, caller, note).outcome;
    expect(expected).toMatchObject({ kind: 'filtered' });
    expect(byName(expected, { kind: 'raised', code: 'P0001', message: 'shop_orders: status paid' })).toEqual({ reading: 'shop_orders.buyer-window-guard' });
  });

  it('counted per reading in the note; a failure near a reading names it', () => {
    expect(acceptedNote({}, { 'vs.no-remark-refused': 2, 'users.guard-exempting-fewer': 1 })).toBe('accepted as secure readings: users.guard-exempting-fewer (1 step), vs.no-remark-refused (2 steps)');
    expect(readingsNear(predict(oracle, world('user'), caller, demote).outcome)).toBe('');
  });
});

describe('a VS function refusing a missing ticket as not authorized (refusals.notFoundAs), and unpublishing (vs.unpublishedTitle)', () => {
  const TICKET = { id: 'VS-1001', submitter_id: null, submitter_label: 'Student 1', target_dept: 'ENG', status: 'open', category: 'wifi', is_public: true, public_title: 'Wifi drops', duplicate_of: null, tags: [], remarks: [], public_comments: [], report: 'The connection fails', deleted_at: null };
  // A project raising no_data_found for a missing row (refusals.codes), so the two refusals differ.
  const base = { roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'] }, refusals: { codes: { 'not-found': 'P0002' } } };
  const w = { users: [{ ...world('vs_staff').users[0], department: 'ENG' }], vs_categories: [{ id: 'wifi', name: 'wifi', is_confidential: false, public_eligible: true }], vs_tickets: [TICKET] };
  const publish = (p_id: string, p_public: boolean): ApiRequest => ({ kind: 'rpc', fn: 'vs_set_public', args: { p_id, p_public, p_title: 'Wifi drops' } }) as ApiRequest;
  const notAuthorized = { kind: 'raised' as const, code: 'P0001', message: 'NOT_AUTHORIZED' };
  const notFound = { kind: 'raised' as const, code: 'P0002', message: 'ticket not found' };

  it('not-found by default; not-authorized where the setting names the function, and then only that (one answer for every missing id)', () => {
    const byDefault = predict(referenceOracleWith(ModelSettingsSchema.parse(base)), w, caller, publish('VS-404', true)).outcome;
    expect(compareOutcomes(byDefault, notFound)).toBeUndefined();
    expect(compareOutcomes(byDefault, notAuthorized)).toBeDefined();
    const folded = predict(referenceOracleWith(ModelSettingsSchema.parse({ ...base, refusals: { ...base.refusals, notFoundAs: { vs_set_public: 'not-authorized' } } })), w, caller, publish('VS-404', true)).outcome;
    expect(compareOutcomes(folded, notAuthorized)).toBeUndefined();
    expect(compareOutcomes(folded, notFound)?.reason).toMatch(/refusals\.notFoundAs\.vs_set_public/);
  });

  it('unpublishing keeps the headline by default, clears it under "cleared"', () => {
    const kept = predict(referenceOracleWith(ModelSettingsSchema.parse(base)), w, caller, publish('VS-1001', false));
    expect(kept.world.vs_tickets[0]).toMatchObject({ is_public: false, public_title: 'Wifi drops' });
    const cleared = predict(referenceOracleWith(ModelSettingsSchema.parse({ ...base, vs: { ...base.vs, unpublishedTitle: 'cleared' } })), w, caller, publish('VS-1001', false));
    expect(cleared.world.vs_tickets[0]).toMatchObject({ is_public: false, public_title: null });
  });

  it('the headline stored as given by default; under vs.publishedTitle "trimmed" as btrim() leaves it (stranger-app-5, R13: " \\r\\n" stored "\\r\\n")', () => {
    const padded = { kind: 'rpc', fn: 'vs_set_public', args: { p_id: 'VS-1001', p_public: true, p_title: ' Wifi drops  ' } } as ApiRequest;
    expect(predict(referenceOracleWith(ModelSettingsSchema.parse(base)), w, caller, padded).world.vs_tickets[0]).toMatchObject({ public_title: ' Wifi drops  ' });
    const trimmed = predict(referenceOracleWith(ModelSettingsSchema.parse({ ...base, vs: { ...base.vs, publishedTitle: 'trimmed' } })), w, caller, padded);
    expect(trimmed.world.vs_tickets[0]).toMatchObject({ public_title: 'Wifi drops' });
  });

  it('p_public => null: refused by default; under vs.nullPublic "unpublish" taken off the board (stranger-app-5\'s coalesce(p_public, false)), never published', () => {
    const nullPublic = { kind: 'rpc', fn: 'vs_set_public', args: { p_id: 'VS-1001', p_public: null, p_title: 'Wifi drops' } } as ApiRequest;
    const unpublished = { kind: 'allowed' as const, rows: null, affected: 1 };
    const refused = predict(referenceOracleWith(ModelSettingsSchema.parse(base)), w, caller, nullPublic);
    expect(refused.outcome).toMatchObject({ kind: 'raised', code: 'P0001' });
    expect(compareOutcomes(refused.outcome, unpublished)).toBeDefined();
    const unpublish = predict(referenceOracleWith(ModelSettingsSchema.parse({ ...base, vs: { ...base.vs, nullPublic: 'unpublish' } })), w, caller, nullPublic);
    expect(compareOutcomes(unpublish.outcome, unpublished)).toBeUndefined();
    expect(unpublish.world.vs_tickets[0]).toMatchObject({ is_public: false });
    // A target publishing on a null leaves the ticket on the board, where the model took it off: the later reads disagree.
    expect(unpublish.world.vs_tickets[0].is_public).not.toBe(TICKET.is_public);
  });
});

describe('team tables read by admins only (team.readers)', () => {
  const node = { id: 'fc973ca3-6dd1-449b-a98e-a1de9b035401', parent_id: null, name: 'PR', kind: 'team', position: 3, is_public: true };
  const base = { roles: ['user', 'uni_staff', 'dev'], staffRoles: ['uni_staff', 'dev'], adminRoles: ['dev'] };
  const read: ApiRequest = { kind: 'select', table: 'team_nodes', columns: '*', filters: [] };
  const w = (role: string) => ({ ...world(role), team_nodes: [node] });

  it('staff read them by default; under "admins" a staff member who is no admin reads none, an admin all', () => {
    expect(predict(referenceOracleWith(ModelSettingsSchema.parse(base)), w('uni_staff'), caller, read).outcome).toMatchObject({ affected: 1 });
    const admins = referenceOracleWith(ModelSettingsSchema.parse({ ...base, team: { readers: 'admins' } }));
    expect(predict(admins, w('uni_staff'), caller, read).outcome).toMatchObject({ affected: 0 });
    expect(predict(admins, w('dev'), caller, read).outcome).toMatchObject({ affected: 1 });
  });
});

describe("a member reading their own team_members row (team.ownMemberRow)", () => {
  const OTHER = '6b6b6b6b-6b6b-4b6b-8b6b-6b6b6b6b6b6b';
  const NODE = 'fc973ca3-6dd1-449b-a98e-a1de9b035401';
  const member = (id: string, user_id: string | null) => ({ id, node_id: NODE, name: 'M', nickname: null, position: null, email: 'm@x', student_id: null, year: null, major: null, permissions: [], vs_dept: null, project_seat: null, user_id });
  const mine = member('11111111-1111-4111-8111-111111111111', ME);
  const theirs = member('22222222-2222-4222-8222-222222222222', OTHER);
  const w = { ...world('user'), team_members: [mine, theirs] };
  const read: ApiRequest = { kind: 'select', table: 'team_members', columns: '*', filters: [] };
  const shown = (rows: Row[]): Outcome => ({ kind: 'allowed', rows, affected: rows.length });
  const base = { roles: ['user', 'uni_staff', 'dev'], staffRoles: ['uni_staff', 'dev'], adminRoles: ['dev'] };
  const hidden = referenceOracleWith(ModelSettingsSchema.parse(base));
  const readable = referenceOracleWith(ModelSettingsSchema.parse({ ...base, team: { ownMemberRow: 'readable' } }));
  const compared = (oracle: typeof hidden, who: typeof caller | { kind: 'anon' }, observed: Outcome) => compareOutcomes(predict(oracle, w, who, read).outcome, observed, [], undefined, settingHintsFor(oracle, read));

  it('by default a plain member reads none, and a database showing their own row fails naming the setting', () => {
    expect(compared(hidden, caller, shown([mine]))?.reason).toMatch(/rows touched: model 0, database 1 \(id: setting team\.readers, team\.memberReaders, team\.ownMemberRow\)/);
  });

  it('team.memberReaders "admins": a staff member who is no admin reads only their own row there, still every node', () => {
    const staff = { ...w, users: world('uni_staff').users, team_nodes: [{ id: NODE, parent_id: null, name: 'PR', kind: 'team', position: 3, is_public: false }] };
    const narrower = referenceOracleWith(ModelSettingsSchema.parse({ ...base, team: { ownMemberRow: 'readable', memberReaders: 'admins' } }));
    expect(predict(narrower, staff, caller, read).outcome).toMatchObject({ affected: 1, rows: [mine] });
    expect(predict(narrower, staff, caller, { ...read, table: 'team_nodes' } as ApiRequest).outcome).toMatchObject({ affected: 1 });
    expect(predict(narrower, { ...staff, users: world('dev').users }, caller, read).outcome).toMatchObject({ affected: 2 });
    expect(predict(readable, staff, caller, read).outcome).toMatchObject({ affected: 2 });
  });

  it('under "readable" their own row agrees; every member reading every row, or anon reading any, still fails', () => {
    expect(compared(readable, caller, shown([mine]))).toBeUndefined();
    expect(compared(readable, caller, shown([mine, theirs]))?.reason).toMatch(/team\.ownMemberRow/);
    expect(compared(readable, caller, shown([theirs]))).toBeDefined();
    expect(compared(readable, { kind: 'anon' }, shown([mine]))).toBeDefined();
    expect(predict(readable, w, { kind: 'anon' }, read).outcome).toMatchObject({ affected: 0 });
  });
});

describe("init's reading of team_members' SELECT policy (TEAM_MEMBER_ROW_IS_CALLERS)", () => {
  const reads = (policy: string) => new RegExp(TEAM_MEMBER_ROW_IS_CALLERS, 'i').test(policy);
  it("the row's own person column against the caller, either way round, as pg_policies prints it", () => {
    expect(reads('(("userId" = request_user_id()) OR current_user_is_admin())')).toBe(true);
    expect(reads('(user_id = ( SELECT auth.uid() AS uid))')).toBe(true);
    expect(reads('(auth.uid() = member_id)')).toBe(true);
  });
  it('not another table\'s column (a membership EXISTS lets every member in), nor a policy without the caller', () => {
    expect(reads('(EXISTS ( SELECT 1 FROM team_members m WHERE (m.user_id = auth.uid())))')).toBe(false);
    expect(reads('(EXISTS ( SELECT 1 FROM "TeamMember" m WHERE (m."userId" = request_user_id())))')).toBe(false);
    expect(reads('current_user_is_staff()')).toBe(false);
    expect(reads('(user_id IS NOT NULL)')).toBe(false);
  });
});

describe('refusals the spec orders not: any that applies to the caller\'s own ticket and arguments', () => {
  const byName = (expected: Outcome, observed: Outcome) => acceptedBy({ predicted: expected, observed, masked: [], hints: {} });
  const TICKET = { id: 'VS-1001', submitter_id: null, submitter_label: 'Student 1', target_dept: 'ENG', status: 'open', category: 'secret', is_public: false, public_title: null, duplicate_of: null, tags: [], remarks: [], public_comments: [], report: 'The connection fails', deleted_at: null };
  const settings = { roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'] }, refusals: { codes: { 'headline-required': '22023', 'not-found': 'P0002' } } };
  const oracle = referenceOracleWith(ModelSettingsSchema.parse(settings));
  const w = { users: [{ ...world('vs_staff').users[0], department: 'ENG' }], vs_categories: [{ id: 'secret', name: 'secret', is_confidential: true, public_eligible: false }], vs_tickets: [TICKET] };

  it('vs_set_public with no headline on a category that is not public: either refusal', () => {
    const publish = { kind: 'rpc', fn: 'vs_set_public', args: { p_id: 'VS-1001', p_public: true, p_title: null } } as ApiRequest;
    const expected = predict(oracle, w, caller, publish).outcome;
    expect(compareOutcomes(expected, { kind: 'raised', code: '22023', message: 'a staff headline is required' })).toBeUndefined();
    expect(compareOutcomes(expected, { kind: 'raised', code: 'P0001', message: 'category is not public' })).toBeUndefined();
    expect(compareOutcomes(expected, { kind: 'allowed', rows: null, affected: 1 })).toBeDefined();
    // The model's first is its own answer; the other is the named reading, counted in the run's note.
    expect(byName(expected, { kind: 'raised', code: '22023', message: 'a staff headline is required' })).toBeUndefined();
    expect(byName(expected, { kind: 'raised', code: 'P0001', message: 'category is not public' })).toEqual({ reading: REFUSAL_ORDER_OPEN });
  });

  it('vs_transfer_dept of a ticket the caller does not handle, with an id-bearing remark: the remark refused, or the ticket not found', () => {
    const move = (p_id: string) => ({ kind: 'rpc', fn: 'vs_transfer_dept', args: { p_id, p_dept: 'ART', p_remarks: [{ vis: 'ticket', by: 'staff', text: 'see VS-1001' }] } }) as ApiRequest;
    expect(compareOutcomes(predict(oracle, w, caller, move('VS-404')).outcome, { kind: 'raised', code: 'P0002', message: 'ticket not found' })).toBeUndefined();
    expect(byName(predict(oracle, w, caller, move('VS-404')).outcome, { kind: 'raised', code: 'P0002', message: 'ticket not found' })).toEqual({ reading: REFUSAL_ORDER_OPEN });
    // A ticket the caller handles is found: only the remark's refusal.
    expect(compareOutcomes(predict(oracle, w, caller, move('VS-1001')).outcome, { kind: 'raised', code: 'P0002', message: 'ticket not found' })).toBeDefined();
  });

  it('vs_transfer_dept of a ticket the caller does not handle, with a blank destination or a p_remarks no array: that refused, or the ticket not found (stranger-app-5 looks it up first)', () => {
    const notFound = { kind: 'raised' as const, code: 'P0002', message: 'ticket not found' };
    for (const args of [{ p_dept: '', p_remarks: [] }, { p_dept: 'ART', p_remarks: {} }]) {
      const move = (p_id: string) => ({ kind: 'rpc', fn: 'vs_transfer_dept', args: { p_id, ...args } }) as ApiRequest;
      expect(byName(predict(oracle, w, caller, move('VS-404')).outcome, notFound), JSON.stringify(args)).toEqual({ reading: REFUSAL_ORDER_OPEN });
      // A ticket the caller handles is found: only the argument's refusal.
      expect(compareOutcomes(predict(oracle, w, caller, move('VS-1001')).outcome, notFound), JSON.stringify(args)).toBeDefined();
    }
  });

  it('vs_post_public_comment with a blank body on a problem not found: either refusal (stranger-app-4 looks the problem up first); on one found, only the blank body', () => {
    const board = { ...w, vs_categories: [{ id: 'wifi', name: 'wifi', is_confidential: false, public_eligible: true }], vs_tickets: [{ ...TICKET, category: 'wifi', is_public: true, public_title: 'Wifi drops' }] };
    const comment = (p_ref: string) => ({ kind: 'rpc', fn: 'vs_post_public_comment', args: { p_ref, p_body: ' ' } }) as ApiRequest;
    const notFound = { kind: 'raised' as const, code: 'P0002', message: 'NOT_FOUND' };
    const missing = predict(oracle, board, caller, comment('pub-0000')).outcome;
    expect(missing).toMatchObject({ kind: 'raised', refusal: { reason: 'argument-required' } });
    expect(byName(missing, notFound)).toEqual({ reading: REFUSAL_ORDER_OPEN });
    expect(compareOutcomes(predict(oracle, board, caller, comment(vsPublicRef('VS-1001', oracle.settings)!)).outcome, notFound)).toBeDefined();
  });
});

describe('public comments by ticket id from staff handlers only (vs.publicCommentKey, vs.publicCommenters)', () => {
  const TICKET = { id: 'VS-1001', submitter_id: null, submitter_label: 'Student 1', target_dept: 'ENG', status: 'open', category: 'wifi', is_public: true, public_title: 'Wifi drops', duplicate_of: null, tags: [], remarks: [], public_comments: [], report: 'The connection fails', deleted_at: null };
  const base = { roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'] }, refusals: { codes: { 'argument-required': '22023' } } };
  const w = (role: string) => ({ users: [{ ...world(role).users[0], department: 'ENG' }], vs_categories: [{ id: 'wifi', name: 'wifi', is_confidential: false, public_eligible: true }], vs_tickets: [TICKET] });
  const comment = (p_ref: string, p_body: string) => ({ kind: 'rpc', fn: 'vs_post_public_comment', args: { p_ref, p_body } }) as ApiRequest;
  const notAuthorized = { kind: 'raised' as const, code: 'P0001', message: 'NOT_AUTHORIZED' };
  const staffOnly = referenceOracleWith(ModelSettingsSchema.parse({ ...base, vs: { ...base.vs, publicCommentKey: 'ticket-id', publicCommenters: 'staff-handlers' } }));

  it('by the reference: any signed-in caller, by the public handle; under the settings: by the id, staff handlers only, checked before the words', () => {
    expect(predict(referenceOracleWith(ModelSettingsSchema.parse(base)), w('user'), caller, comment('VS-1001', 'me too')).outcome).toMatchObject({ kind: 'raised' });
    expect(compareOutcomes(predict(staffOnly, w('user'), caller, comment('VS-1001', 'me too')).outcome, notAuthorized)).toBeUndefined();
    const posted = predict(staffOnly, w('vs_staff'), caller, comment('VS-1001', 'me too'));
    expect(posted.outcome).toMatchObject({ kind: 'allowed', affected: 1 });
    // A missing ticket is refused before a blank body is.
    expect(predict(staffOnly, w('vs_staff'), caller, comment('VS-404', '')).outcome).toMatchObject({ kind: 'raised', refusal: { reason: 'not-found' } });
  });

  it('a comment compares without the server time and the by word, other fields still shown', () => {
    expect(commentsAsCompared([{ body: 'me too', at: '2026-01-01T00:00:00Z' }])).toEqual(commentsAsCompared([{ by: 'staff', body: 'me too' }]));
    expect(commentsAsCompared([{ body: 'me too', email: 'a@b' }])).not.toEqual(commentsAsCompared([{ by: 'member', body: 'me too' }]));
  });

  it('a step agreeing only because the time and by word are left out is counted under vs.public-comments-without-time-and-by; one agreeing anyway is not', () => {
    const withComment = { ...w('user'), vs_tickets: [{ ...TICKET, public_comments: [{ by: 'member', body: 'me too' }] }] };
    const settled = referenceOracleWith(ModelSettingsSchema.parse(base));
    const problem = { kind: 'rpc', fn: 'get_public_vs_problem', args: { p_ref: vsPublicRef('VS-1001', settled.settings) } } as ApiRequest;
    const expected = predict(settled, withComment, caller, problem).outcome;
    expect(expected).toMatchObject({ kind: 'allowed', rows: [{ comments: [{ by: 'member', body: 'me too' }] }] });
    const row = (expected as { rows: Row[] }).rows[0];
    const entry = (comments: Json) => ({ predicted: expected, observed: { kind: 'allowed' as const, rows: [{ ...row, comments }], affected: 1 }, masked: [], hints: {}, comparedAs: comparedAsFor(settled, problem, withComment) });
    expect(acceptedBy(entry([{ body: 'me too', at: '2026-01-01T00:00:00Z' }]))).toEqual({ reading: PUBLIC_COMMENTS_AS_COMPARED });
    expect(acceptedBy(entry([{ by: 'member', body: 'me too' }]))).toBeUndefined();
  });

  it('under vs.publicHandle.from random, a step agreeing by a handle the target drew (same comments) is not counted under the comments reading', () => {
    const drawing = referenceOracleWith(ModelSettingsSchema.parse({ ...base, vs: { ...base.vs, publicHandle: { from: 'random' } } }));
    const inserted = { ...w('user'), vs_tickets: [{ ...TICKET, id: 'VS-2001' }] };
    const problem = { kind: 'rpc', fn: 'get_public_vs_problem', args: { p_ref: 'x' } } as ApiRequest;
    const answer = (public_ref: string): Outcome => ({ kind: 'allowed', rows: [{ public_ref, public_title: 'Wifi drops', comments: [{ by: 'member', body: 'me too' }] }], affected: 1 });
    const entry = { predicted: answer(vsPublicRef('VS-2001', drawing.settings)!), observed: answer('0b6f1d1e-6c52-4d1b-9a3e-1f2a3b4c5d6e'), masked: [], hints: {}, comparedAs: comparedAsFor(drawing, problem, inserted) };
    expect(compareOutcomes(entry.predicted, entry.observed, [], entry.comparedAs)).toBeUndefined();
    expect(acceptedBy(entry)).toBeUndefined();
  });
});

describe('vs.handlerFiling (stranger-app-4: a handler files a ticket of their department with what they may set by an update)', () => {
  const settings = { roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'] } };
  const w = (role: string) => ({ users: [{ ...world(role).users[0], department: 'ENG' }], vs_categories: [], vs_tickets: [{ id: 'VS-1001', submitter_id: null, submitter_label: 's', target_dept: 'ENG', status: 'open', category: null, is_public: false, public_title: null, duplicate_of: null, tags: [], remarks: [], public_comments: [], report: 'r', deleted_at: null }] });
  const file = (row: Row): ApiRequest => ({ kind: 'insert', table: 'vs_tickets', rows: [{ id: 'VS-2001', submitter_id: ME, submitter_label: 'Student 1', target_dept: 'ENG', report: 'r', ...row }], returning: 'minimal' });
  const rls = { kind: 'rejected' as const, code: '42501' as const, by: 'policy' as const };
  const filing = referenceOracleWith(ModelSettingsSchema.parse({ ...settings, vs: { ...settings.vs, handlerFiling: 'handlers-in-scope' } }));

  it('nobody (default): a handler’s ticket filed with duplicate_of set is refused', () => {
    expect(compareOutcomes(predict(referenceOracleWith(ModelSettingsSchema.parse(settings)), w('vs_staff'), caller, file({ duplicate_of: 'VS-1001' })).outcome, rls)).toBeUndefined();
  });

  it('handlers-in-scope: a handler in scope files it; a submitter who handles nothing, or a visible remark naming a ticket, is still refused', () => {
    expect(predict(filing, w('vs_staff'), caller, file({ duplicate_of: 'VS-1001', public_title: 'Wifi', tags: ['wifi'] })).outcome).toMatchObject({ kind: 'allowed' });
    expect(predict(filing, w('vs_staff'), caller, file({ remarks: [{ vis: 'staff', by: 'staff', text: 'see VS-1001', internal: true }] })).outcome).toMatchObject({ kind: 'allowed' });
    expect(compareOutcomes(predict(filing, w('vs_staff'), caller, file({ remarks: [{ vis: 'ticket', by: 'staff', text: 'see VS-1001' }] })).outcome, rls)).toBeUndefined();
    expect(compareOutcomes(predict(filing, w('user'), caller, file({ public_title: 'Wifi' })).outcome, rls)).toBeUndefined();
    expect(compareOutcomes(predict(filing, w('user'), caller, file({ remarks: [{ vis: 'internal', by: 'Admin', text: 'x' }] })).outcome, rls)).toBeUndefined();
  });

  /**
   * The spec's remarks are an array of entries: a non-array is refused whoever files it. A handler's
   * filing passes the filing rule only with what an update may set, and an update may not make
   * remarks a non-array (append-only): refused by the policy, or — a policy that leaves remarks to
   * the column — by the remarks CHECK (or a trigger's cap refusal), as securely. Never stored.
   */
  it('handlers-in-scope: a handler’s ticket filed with remarks that are no array is refused, by the policy or by the column', () => {
    const check = { kind: 'error' as const, code: '23514' };
    for (const remarks of [{ vis: 'staff', by: 'staff', text: 'x' }, 'see VS-1001', 1] as Json[]) {
      const predicted = predict(filing, w('vs_staff'), caller, file({ remarks })).outcome;
      expect(predicted.kind).not.toBe('allowed');
      expect(compareOutcomes(predicted, check)).toBeUndefined();
      expect(compareOutcomes(predicted, rls)).toBeUndefined();
      expect(acceptedBy({ predicted, observed: rls, masked: [], hints: {} })).toEqual({ reading: 'policy-refuses-unstorable-row' });
      expect(compareOutcomes(predicted, { kind: 'allowed', rows: null, affected: 1 })).toBeDefined();
    }
  });
});

describe('team members found by e-mail lower-cased and trimmed, or more strictly (team.email-matched-strictly)', () => {
  const member = (email: string) => ({ id: 'm1', node_id: 'n1', name: 'M', nickname: null, position: null, email, student_id: null, year: null, major: null, permissions: ['vs'], vs_dept: 'ART', project_seat: null, user_id: null });
  const w = (email: string) => ({ 'auth.users': [{ id: ME, email: 'me@x' }], users: world('user').users, team_nodes: [], team_members: [member(email)] });
  const sync = { kind: 'rpc', fn: 'sync_my_team_permissions', args: {} } as ApiRequest;
  const none = { kind: 'allowed' as const, rows: [{ permissions: [], vs_dept: null }], affected: 1 };
  const found = { kind: 'allowed' as const, rows: [{ permissions: ['vs'], vs_dept: 'ART' }], affected: 1 };

  it('a member whose stored e-mail differs in case or by a trailing space: found (the model), or not (stranger-app-4: a citext `=` under search_path \'\' compares as text), as securely; one matching as written must be found', () => {
    for (const stored of ['ME@x', 'me@x ']) {
      const expected = predict(oracle, w(stored), caller, sync).outcome;
      expect(compareOutcomes(expected, found)).toBeUndefined();
      expect(acceptedBy({ predicted: expected, observed: none, masked: [], hints: {} })).toEqual({ reading: 'team.email-matched-strictly' });
    }
    expect(compareOutcomes(predict(oracle, w('me@x'), caller, sync).outcome, none)).toBeDefined();
  });
});

describe('pr.onBehalfFiling (stranger-app-7: every INSERT policy pins the submitter to the caller, or to null for a guest)', () => {
  const OTHER = '6b6b6b6b-6b6b-4b6b-8b6b-6b6b6b6b6b6b';
  const settings = { roles: ['user', 'pr_staff', 'uni_staff'], staffRoles: ['pr_staff'], adminRoles: [], pr: { handlerRoles: ['pr_staff'], onBehalfRoles: ['uni_staff'] } };
  const file = (submitter: string): ApiRequest => ({ kind: 'insert', table: 'pr_tickets', rows: [{ id: 'PR-2001', submitter_id: submitter, submitter_label: 'S', brief: 'b', file_url: null, status: 'open', handler_note: null, deleted_at: null }], returning: 'minimal' });
  const rls = { kind: 'rejected' as const, code: '42501' as const, by: 'policy' as const };
  const filed = { kind: 'allowed' as const, rows: null, affected: 1 };
  const nobody = referenceOracleWith(ModelSettingsSchema.parse({ ...settings, pr: { ...settings.pr, onBehalfFiling: 'nobody' } }));
  const others = referenceOracleWith(ModelSettingsSchema.parse(settings));

  it("handlers-and-roles (default): a PR handler and an on-behalf role file in another's name", () => {
    for (const role of ['pr_staff', 'uni_staff']) expect(compareOutcomes(predict(others, world(role), caller, file(OTHER)).outcome, filed)).toBeUndefined();
  });

  it("nobody: a handler or on-behalf role filing in another's name is refused (a target letting them is a finding); one's own ticket is still filed", () => {
    for (const role of ['pr_staff', 'uni_staff', 'user']) {
      const predicted = predict(nobody, world(role), caller, file(OTHER)).outcome;
      expect(compareOutcomes(predicted, rls)).toBeUndefined();
      expect(compareOutcomes(predicted, filed)).toBeDefined();
      expect(compareOutcomes(predict(nobody, world(role), caller, file(ME)).outcome, filed)).toBeUndefined();
    }
  });
});
