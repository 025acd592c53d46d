/**
 * The `mapping` key of policyfuzz.config.json (and of a pack's `mapping`), validated with zod so
 * a mistake names its path. Documented key by key in docs/config.md.
 */
import { z } from 'zod';
import type { TargetMapping } from './mapping.ts';
import { ERROR_CODE } from '../executor/pgrst-raise.ts';

const name = z.string().regex(/^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$/, 'a table, column or function name (schema.name outside public)');

const refusal = z
  .object({
    code: z.string().regex(ERROR_CODE, "a SQLSTATE like 42501, or the code of a RAISE SQLSTATE 'PGRST' body (no blanks, not a number alone)"),
    message: z
      .string()
      .refine((s) => {
        try {
          new RegExp(s);
          return true;
        } catch {
          return false;
        }
      }, 'a regular expression')
      .optional(),
  })
  .strict();

export const MappingSchema = z
  .object({
    tables: z
      .record(
        name,
        z
          .object({
            name: name.optional(),
            columns: z.record(name, name.nullable()).optional(),
            values: z
              .record(
                name,
                z.record(z.string(), z.string()).refine((words) => new Set(Object.values(words)).size === Object.values(words).length, {
                  message: 'two model values map to one target value: answers could not be told apart (map each to its own value)',
                }),
              )
              .optional(),
            bigintIds: z.array(name).optional(),
            uuidIds: z.array(name).optional(),
            arrayOfOne: z.array(name).optional(),
            callerFilled: z.array(name).optional(),
            authIdentity: name.optional(),
            alsoWrite: z.array(z.object({ table: name, columns: z.record(name, name) }).strict()).optional(),
            via: z.enum(['rest', 'sql']).optional(),
          })
          .strict(),
      )
      .optional(),
    functions: z
      .record(
        name,
        z
          .object({
            name: name.optional(),
            args: z.record(name, name).optional(),
            returns: z.union([z.enum(['as-is', 'row-as-boolean', 'value-as-void']), z.object({ field: z.string().min(1) }).strict()]).optional(),
            columns: z.record(name, name).optional(),
            extraColumns: z.array(name).optional(),
            tableRows: z.record(z.string().min(1), name).optional(),
            rowsOf: name.optional(),
            bigintIds: z.array(name).optional(),
            uuidIds: z.array(name).optional(),
            via: z.enum(['rest', 'sql']).optional(),
          })
          .strict(),
      )
      .optional(),
    conventions: z
      .object({
        functionRefusal: refusal.optional(),
        guardRefusal: refusal.optional(),
        grants: z.enum(['explicit', 'supabase-default']).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** Two mappings as one: `over` wins key by key (a config refining its pack's mapping). */
export function mergeMappings(base: TargetMapping | undefined, over: TargetMapping | undefined): TargetMapping | undefined {
  if (!base) return over;
  if (!over) return base;
  const tables: NonNullable<TargetMapping['tables']> = { ...base.tables };
  for (const [t, m] of Object.entries(over.tables ?? {})) tables[t] = { ...tables[t], ...m, columns: { ...tables[t]?.columns, ...m.columns }, values: { ...tables[t]?.values, ...m.values } };
  const functions: NonNullable<TargetMapping['functions']> = { ...base.functions };
  for (const [f, m] of Object.entries(over.functions ?? {})) functions[f] = { ...functions[f], ...m, args: { ...functions[f]?.args, ...m.args } };
  return { tables, functions, conventions: { ...base.conventions, ...over.conventions } };
}
