/**
 * settings.vs.permissionScope: the spec scopes vp_admin to its department and says nothing of a
 * handler only through the `vs` permission. Re-created after stranger-app-5, whose
 * `current_user_can_handle_vs` lets a `vs` holder handle every department: R06 and R08 failed on a
 * pr_staff holding `vs` reading and transferring another department's ticket. Both are readings of
 * the spec; the default keeps the reference's.
 */
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../engine/model/request.ts';
import { predict } from '../../../engine/model/predict.ts';
import { referenceOracleWith } from './index.ts';
import { ModelSettingsSchema } from './settings.ts';

const HOLDER = '4e4e4e4e-4e4e-4e4e-8e4e-4e4e4e4e4e4e';
const ticket = { id: 'VS-1', submitter_id: null, submitter_label: 'student', is_public: false, public_title: null, target_dept: 'SE', status: 'open', category: null, duplicate_of: null, tags: [], remarks: [], public_comments: [], report: '', deleted_at: null };
const person = (role: string) => ({ id: HOLDER, email: 'h@x', role, department: 'ENG', permissions: ['vs'], managed_permissions: [] });
const caller = { kind: 'user' as const, id: HOLDER, email: 'h@x' };
const read: ApiRequest = { kind: 'select', table: 'vs_tickets', columns: '*', filters: [] };
const seen = (settings: object, role: string) => predict(referenceOracleWith(ModelSettingsSchema.parse(settings)), { users: [person(role)], vs_tickets: [ticket] }, caller, read).outcome;

describe('vs.permissionScope', () => {
  it("own-department (default): a vs holder in ENG sees no SE ticket; every-department: they see it", () => {
    expect(seen({}, 'pr_staff')).toMatchObject({ rows: [] });
    expect(seen({ vs: { permissionScope: 'every-department' } }, 'pr_staff')).toMatchObject({ rows: [expect.objectContaining({ id: 'VS-1' })] });
  });

  it('a dept-scoped role (vp_admin) holding the permission stays scoped either way', () => {
    expect(seen({ vs: { permissionScope: 'every-department' } }, 'vp_admin')).toMatchObject({ rows: [] });
  });
});
