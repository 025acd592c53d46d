/**
 * settings.vs.submitterTableAccess: a schema whose vs_tickets policies are the handlers' only,
 * submitters reading their own tickets through a view of allowed columns (rule 12's allow-list)
 * and adding remarks through a function (stranger-app-11's `my_vs_tickets`, -9's
 * `api.my_vs_tickets`). A submitter's GET and PATCH of the table then touch none of their own
 * tickets, and an insert reading its row back is refused by the SELECT policy: every such step was
 * a false alarm (R03, R05, R07, R08). Under `handlers` those agree; a table still showing a
 * submitter a ticket (theirs or another's) disagrees, naming the setting; handlers are unchanged.
 */
import { describe, expect, it } from 'vitest';
import { compareOutcomes, settingHintsFor } from '../../../engine/checker/compare.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import { predict } from '../../../engine/model/predict.ts';
import { referenceOracleWith } from './index.ts';
import { ModelSettingsSchema } from './settings.ts';
import { VS_TABLE_IS_HANDLERS } from '../index.ts';

const ME = '5a5a5a5a-5a5a-4a5a-8a5a-5a5a5a5a5a5a';
const OTHER = '6b6b6b6b-6b6b-4b6b-8b6b-6b6b6b6b6b6b';
const base = { roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'] } };
const oracleWith = (submitterTableAccess?: string) => referenceOracleWith(ModelSettingsSchema.parse({ ...base, vs: { ...base.vs, ...(submitterTableAccess ? { submitterTableAccess } : {}) } }));
const person = (id: string, role: string) => ({ id, email: `${id.slice(0, 4)}@x`, display_name: null, avatar_url: null, phone: null, role, department: 'ENG', permissions: [], managed_permissions: [] });
const ticket = (id: string, submitter: string) => ({ id, submitter_id: submitter, submitter_label: 'submitter', target_dept: 'ENG', status: 'open', category: null, is_public: false, public_title: null, duplicate_of: null, tags: [], remarks: [], public_comments: [], report: 'r', deleted_at: null });
const world = (role: string) => ({ users: [person(ME, role), person(OTHER, 'user')], vs_categories: [], vs_tickets: [ticket('VS-1', ME), ticket('VS-2', OTHER)] });
const caller = { kind: 'user' as const, id: ME, email: '5a5a@x' };

const read: ApiRequest = { kind: 'select', table: 'vs_tickets', columns: '*', filters: [] };
const remark: ApiRequest = { kind: 'update', table: 'vs_tickets', patch: { remarks: [{ vis: 'ticket', by: 'submitter', text: 'any news?' }] }, filters: [{ column: 'id', op: 'eq', value: 'VS-1' }], returning: 'representation' };
const file = (returning: 'minimal' | 'representation'): ApiRequest => ({ kind: 'insert', table: 'vs_tickets', rows: [{ id: 'VS-3', submitter_id: ME, submitter_label: 'submitter', target_dept: 'ENG', report: 'r' }], returning });
const none = { kind: 'filtered' as const, rows: [], affected: 0 };
const rls = { kind: 'rejected' as const, code: '42501' as const, by: 'policy' as const };

describe('vs.submitterTableAccess: submitters reach their tickets through a view, not the table', () => {
  it('submitters-and-handlers (default): a submitter reads and appends to their own ticket through the table', () => {
    const oracle = oracleWith();
    expect(predict(oracle, world('user'), caller, read).outcome).toMatchObject({ kind: 'allowed', affected: 1 });
    expect(predict(oracle, world('user'), caller, remark).outcome).toMatchObject({ kind: 'allowed', affected: 1 });
    expect(predict(oracle, world('user'), caller, file('representation')).outcome).toMatchObject({ kind: 'allowed', affected: 1 });
  });

  it('handlers: the submitter touches none of their tickets through the table; an insert reading back is refused, one that does not is filed', () => {
    const oracle = oracleWith('handlers');
    expect(compareOutcomes(predict(oracle, world('user'), caller, read).outcome, none)).toBeUndefined();
    expect(compareOutcomes(predict(oracle, world('user'), caller, remark).outcome, none)).toBeUndefined();
    expect(compareOutcomes(predict(oracle, world('user'), caller, file('representation')).outcome, rls)).toBeUndefined();
    expect(predict(oracle, world('user'), caller, file('minimal')).outcome).toMatchObject({ kind: 'allowed', affected: 1 });
  });

  it('handlers: a table still showing the submitter a ticket (their own, or another person’s) disagrees, naming the setting and its value', () => {
    const oracle = oracleWith('handlers');
    const expected = predict(oracle, world('user'), caller, read).outcome;
    for (const shown of [ticket('VS-1', ME), ticket('VS-2', OTHER)]) {
      const disagreement = compareOutcomes(expected, { kind: 'allowed', rows: [{ ...shown, is_duplicate: false, public_ref: null, updated_at: null }], affected: 1 }, [], undefined, settingHintsFor(oracle, read));
      expect(disagreement?.reason).toContain('setting vs.submitterTableAccess = "handlers"');
    }
  });

  it('handlers: a handler in scope still reads and changes every ticket of their department', () => {
    const oracle = oracleWith('handlers');
    expect(predict(oracle, world('vs_staff'), caller, read).outcome).toMatchObject({ kind: 'allowed', affected: 2 });
    expect(predict(oracle, world('vs_staff'), caller, { ...remark, filters: [{ column: 'id', op: 'eq', value: 'VS-2' }] }).outcome).toMatchObject({ kind: 'allowed', affected: 1 });
  });
});

describe("init's reading of vs_tickets' SELECT policies (VS_TABLE_IS_HANDLERS, each policy)", () => {
  const reads = (policy: string) => new RegExp(VS_TABLE_IS_HANDLERS, 'i').test(policy);
  it('a handler helper alone, as pg_policies prints it', () => {
    expect(reads('((deleted_at IS NULL) AND can_handle_vs(target_dept))')).toBe(true);
    expect(reads('private.is_vs_handler(target_dept)')).toBe(true);
  });
  it('not a policy letting the submitter in too (the reference), nor one naming no handler', () => {
    expect(reads('((deleted_at IS NULL) AND ((submitter_id = ( SELECT auth.uid() AS uid)) OR can_handle_vs(target_dept)))')).toBe(false);
    expect(reads('(can_handle_vs(target_dept) OR (auth.uid() = submitted_by))')).toBe(false);
    expect(reads('(deleted_at IS NULL)')).toBe(false);
    // The owner column named otherwise: any comparison with the caller lets the submitter in.
    expect(reads('((created_by = auth.uid()) OR can_handle_vs(target_dept))')).toBe(false);
    expect(reads('((owner = ( SELECT public.current_app_user_id() AS current_app_user_id)) OR private.is_vs_handler(target_dept))')).toBe(false);
  });
});
