/**
 * The policy helpers (spec §4.2 last row): callable by the policy engine as anon and
 * authenticated, failing closed.
 */
import { allowed, rejectedByGrant } from '../outcome.ts';
import type { FunctionModel } from '../function-model.ts';
import { callerUid } from '../caller.ts';
import { currentUserDept, currentUserHasPermission, currentUserIsAdmin, currentUserIsStaff, currentUserRole } from '../identity.ts';
import type { RuleContext } from '../table-model.ts';

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

/** A function the caller's role may not execute answers 42501 before its body runs. */
export function executeDenied(model: FunctionModel, role: 'anon' | 'authenticated' | 'service_role') {
  return model.executableBy.includes(role) ? undefined : rejectedByGrant(`execute on ${model.name}`);
}
