/**
 * A pack's model rules, triggers and function predictions, run so that one throwing in the pack's
 * own code (`ctx.settings` misspelt, a row's column read off `undefined`) names the table or
 * function, the rule and the pack's line: a `.ts` pack is not type-checked on load, and the bare
 * "harness error: Cannot read properties of undefined (reading 'selfJoin')" named none of them
 * (Tambo, docs/real-world.md).
 */
import { isUserFacingError, PackModelError } from '../errors.ts';
import type { Pack } from '../pack.ts';

/** The row rules and table hooks a pack writes as functions (engine/model/table-model.ts). */
const TABLE_HOOKS = ['beforeInsert', 'beforeUpdate', 'comparedAs', 'view'] as const;

/**
 * `pack` with each model function wrapped: an error thrown with a frame in `absolute` (the pack
 * module), other than policyfuzz's own (a case not realizable, a usage error), becomes a
 * PackModelError naming `what` and the line.
 */
export function withModelBlamingThePack<P extends Pack<any>>(pack: P, absolute: string, shown: string): P {
  const blaming = <F extends (...args: any[]) => any>(fn: F, what: string): F =>
    function (this: unknown, ...args: unknown[]) {
      try {
        return fn.apply(this, args);
      } catch (e) {
        throw blamed(e, what, absolute, shown);
      }
    } as F;
  const tables = Object.fromEntries(
    Object.entries(pack.model.tables).map(([name, table]) => {
      const rules = Object.fromEntries(Object.entries(table.rules ?? {}).map(([rule, fn]) => [rule, typeof fn === 'function' ? blaming(fn, `table ${name}, rule ${rule}`) : fn]));
      const hooks = Object.fromEntries(TABLE_HOOKS.filter((h) => typeof table[h] === 'function').map((h) => [h, blaming(table[h] as (...a: any[]) => any, `table ${name}, ${h}`)]));
      return [name, { ...table, rules, ...hooks }];
    }),
  );
  const functions = Object.fromEntries(
    Object.entries(pack.model.functions ?? {}).map(([name, fn]) => [name, typeof fn.predict === 'function' ? { ...fn, predict: blaming(fn.predict, `function ${name}, predict`) } : fn]),
  );
  return { ...pack, model: { ...pack.model, tables, functions } };
}

function blamed(e: unknown, what: string, absolute: string, shown: string): unknown {
  if (e instanceof PackModelError || isUserFacingError(e) || !(e instanceof Error)) return e;
  const frame = (e.stack ?? '').split('\n').find((line) => line.includes(absolute));
  if (!frame) return e;
  const where = frame.match(/:(\d+):(\d+)\)?\s*$/);
  return new PackModelError(
    `the pack's model threw (${what}): ${e.message.split('\n')[0]}${where ? ` (at ${shown}:${where[1]}:${where[2]})` : ''}; fix the pack's model there (a rule is (row, ctx), its settings are ctx.settings)`,
  );
}
