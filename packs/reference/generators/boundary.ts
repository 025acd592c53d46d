/**
 * Writes at the boundary of the rule that checks them: every condition met but exactly one, each
 * condition in turn. Free draws break several conditions at once or none, so a check that forgot
 * one condition (a policy without its `uploaded_by = auth.uid()`, an insert check without
 * `timeline = '[]'`) shows only on the rare draw breaking that one alone (bench/early-stop-kills.ts:
 * such kills came at cases 268-300 of 300).
 */
import fc from 'fast-check';

/** One condition of a rule over a write's field: values that meet it and, where the world has any, values that break it. */
export interface FieldCondition<T> {
  met: fc.Arbitrary<T>;
  broken?: fc.Arbitrary<T>;
}

/**
 * The fields of `conditions` with exactly one condition broken (chosen evenly among those the
 * world can break) and every other met. With none breakable, every condition met.
 */
export function oneConditionBroken<R extends Record<string, unknown>>(conditions: { [K in keyof R]: FieldCondition<R[K]> }): fc.Arbitrary<R> {
  const keys = Object.keys(conditions) as (keyof R & string)[];
  const breakable = keys.filter((k) => conditions[k].broken !== undefined);
  const fields = (brokenKey: string | undefined) =>
    fc.record(Object.fromEntries(keys.map((k) => [k, k === brokenKey ? conditions[k].broken! : conditions[k].met]))) as unknown as fc.Arbitrary<R>;
  return breakable.length ? fc.constantFrom(...breakable).chain(fields) : fields(undefined);
}
