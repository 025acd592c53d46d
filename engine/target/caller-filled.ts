/**
 * The oracle predicting what the target's insert triggers fill from auth.uid() (mapping
 * `tables.<t>.callerFilled`, model names): see predict.ts callerFilledRequest.
 */
import type { Oracle } from '../pack.ts';
import type { FixturePlan } from './fixtures.ts';

export function withCallerFilled(oracle: Oracle, plan: FixturePlan): Oracle {
  const filled = Object.entries(plan.mapping?.tables ?? {}).flatMap(([table, t]) => (t.callerFilled?.length ? [[table, t.callerFilled] as const] : []));
  return filled.length ? { ...oracle, callerFilled: Object.fromEntries(filled) } : oracle;
}
