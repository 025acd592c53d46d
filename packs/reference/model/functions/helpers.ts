/**
 * The policy helpers (spec §4.2 last row): callable by the policy engine as anon and
 * authenticated, failing closed.
 */
import { allowed } from '../../../../engine/model/outcome.ts';
import type { FunctionModel } from '../../../../engine/model/function-model.ts';
import { callerUid } from '../../../../engine/model/caller.ts';
import { currentUserDept, currentUserHasPermission, currentUserIsAdmin, currentUserIsStaff, currentUserRole } from '../identity.ts';
import type { RuleContext } from '../../../../engine/model/table-model.ts';

export function helper(name: string, answer: (ctx: RuleContext, args: Record<string, unknown>) => string | boolean | null, args: string[] = []): FunctionModel {
  return {
    name,
    args,
    executableBy: ['anon', 'authenticated', 'service_role'],
    predict(world, caller, callArgs, settings) {
      const ctx: RuleContext = { world, caller, uid: callerUid(caller), settings };
      return { outcome: allowed([{ value: answer(ctx, callArgs) }], 1), world };
    },
  };
}

export const helperFunctions: FunctionModel[] = [
  helper('current_user_role', (ctx) => currentUserRole(ctx)),
  helper('current_user_dept', (ctx) => currentUserDept(ctx)),
  helper('current_user_is_staff', (ctx) => currentUserIsStaff(ctx)),
  helper('current_user_is_admin', (ctx) => currentUserIsAdmin(ctx)),
  helper('current_user_has_permission', (ctx, a) => currentUserHasPermission(ctx, String(a.p_permission ?? '')), ['p_permission']),
];

export { executeDenied } from '../../../../engine/model/function-model.ts';
