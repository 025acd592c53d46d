/**
 * A function, trigger, CHECK or policy body read for a setting (Pack.sourceSettings) with the
 * target's quoted column names as the model's: the patterns are written in the model's names
 * (`category is not distinct from`), and an ORM's schema names its columns in quoted camelCase
 * (stranger-app-15's `t."categoryId" IS NOT DISTINCT FROM src."categoryId"`, Prisma's naming).
 * Only quoted identifiers that need their quotes (camelCase) are renamed (never a string literal),
 * and only a target name every mapped table reads as one model name. Pure.
 */
import type { TargetMapping } from './mapping.ts';

export function quotedColumnsAsModel(source: string, mapping: TargetMapping): string {
  const asModel = new Map<string, string | null>();
  for (const table of Object.values(mapping.tables ?? {})) {
    for (const [model, target] of Object.entries(table?.columns ?? {})) {
      if (typeof target !== 'string' || target === model) continue;
      // Two tables reading one target name as two model names: left as it is.
      asModel.set(target, asModel.has(target) && asModel.get(target) !== model ? null : model);
    }
  }
  // A quoted name Postgres would fold to itself ("title") is the unquoted word, left as every unquoted
  // word is: another table may keep a column of that name unmapped (pr_tickets' own title).
  return source.replace(/"((?:[^"]|"")+)"/g, (quoted, name: string) => (name === name.toLowerCase() ? quoted : asModel.get(name) ?? quoted));
}
