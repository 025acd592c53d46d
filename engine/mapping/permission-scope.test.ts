/**
 * init reading `vs.permissionScope` off a VS handler helper written fail-closed
 * (stranger-app-13): `select coalesce(… or authz.has_permission('vs') or (role = 'vp_admin' and
 * …), false)`, and its later form, a CASE scoping vp_admin alone whose ELSE lets a `vs` holder in.
 * Both let a holder of `vs` handle every department; init read neither (the coalesce hid the
 * alternatives, the ELSE was not read), the model kept holders to their department, and each
 * ticket a pr_staff holding `vs` read or moved elsewhere was a FAIL of R06.
 */
import { describe, expect, it } from 'vitest';
import { proposeVocabularySubsets } from './propose.ts';
import { caseElse } from '../db/sql-expressions.ts';

const vocabularies = [
  {
    path: 'roles',
    column: 'users.role',
    subsets: [{ path: 'vs.handlerRoles', helper: 'vs.*handl|handl.*vs', permissionScope: { path: 'vs.permissionScope', value: 'every-department', permissionPath: 'vs.handlerPermission' } }],
  },
];
const defaults = { vs: { handlerRoles: ['vs_staff', 'vp_admin', 'admin', 'dev'], handlerPermission: 'vs' } };
const roles = { roles: ['user', 'dev', 'admin', 'staff', 'vs_staff', 'vp_admin', 'pr_staff'] };
const scopeOf = (source: string) =>
  (proposeVocabularySubsets(vocabularies, roles, defaults, [{ name: 'authz.can_handle_vs', source }]).settings as { vs?: { permissionScope?: string } }).vs?.permissionScope;

describe('vs.permissionScope read off a helper written fail-closed', () => {
  it('coalesce(<alternatives>, false): a vs holder handles every department', () => {
    expect(scopeOf("\n  select coalesce(\n    authz.is_admin()\n    or authz.role() = any (array['staff', 'vs_staff'])\n    or authz.has_permission('vs')\n    or (authz.role() = 'vp_admin' and p_dept is not null and p_dept = authz.dept()),\n    false)\n")).toBe('every-department');
  });

  it('a CASE scoping vp_admin whose ELSE lets a vs holder in: every department', () => {
    expect(scopeOf("\n  select coalesce(\n    case when authz.role() = 'vp_admin'\n         then p_dept is not null and p_dept = authz.dept()\n         else authz.is_admin()\n              or authz.role() = any (array['staff', 'vs_staff'])\n              or authz.has_permission('vs')\n    end,\n    false)\n")).toBe('every-department');
  });

  it('a holder kept to their department, inside coalesce or an ELSE: nothing proposed', () => {
    expect(scopeOf("select coalesce(authz.is_admin() or (authz.has_permission('vs') and p_dept = authz.dept()), false)")).toBeUndefined();
    expect(scopeOf("select case when authz.role() = 'vp_admin' then p_dept = authz.dept() else authz.has_permission('vs') and p_dept = authz.dept() end")).toBeUndefined();
    expect(scopeOf("select coalesce(authz.has_permission('vs'), true)")).toBeUndefined();
    // A WHEN on anything but the role answering false keeps the holder out before the ELSE is reached.
    expect(scopeOf("select case when p_dept is distinct from authz.dept() then false else authz.is_admin() or authz.has_permission('vs') end")).toBeUndefined();
    // Two coalesces side by side: the first's parenthesis closes early, so neither is the whole expression.
    expect(scopeOf("select coalesce(p_dept = authz.dept(), false) and coalesce(authz.has_permission('vs'), false)")).toBeUndefined();
  });

  it("caseElse answers the top-level ELSE only", () => {
    expect(caseElse("case when a then b else c or d end")).toBe('c or d');
    expect(caseElse("case when a then (case when x then y else z end) end")).toBeUndefined();
    expect(caseElse("a or b")).toBeUndefined();
  });
});
