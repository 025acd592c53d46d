/**
 * policyfuzz.config.json (or .ts exporting the same object as default): where a project's
 * migrations are, whether to apply the Supabase compatibility layer, the model's settings
 * (every choice made where the spec is silent), which rules apply, and how fixtures are
 * written into a schema policyfuzz did not write. Validated with zod; errors name the field.
 */
import path from 'node:path';
import type { z } from 'zod';
import { PARSED_ONCE, type Pack } from '../pack.ts';
import { UsageError } from '../errors.ts';
import { isSsoPropertyId } from '../property-id.ts';
import { catalogPropertiesOf } from '../runner/security-lints-property.ts';
import { checkConfigShape, describeIssues, type ConfigSchema } from './config-schema.ts';
import { readConfigFile } from './config-shape.ts';

export type PolicyfuzzConfig = Omit<z.infer<typeof ConfigSchema>, 'model'> & {
  /** The pack's settings, overrides applied. */
  model: unknown;
  /** Absolute migration folders. */
  migrationDirs: string[];
  /** The `pack` module, as an absolute path. */
  packModule?: string;
  file: string;
};

export function parseConfig(raw: unknown, file: string, pack: Pack): PolicyfuzzConfig {
  const data = checkConfigShape(raw, file);
  const model = pack.settingsSchema.safeParse(data.model, PARSED_ONCE);
  if (!model.success) throw new UsageError(`${file} is not a valid policyfuzz config:\n${describeIssues(model.error).replace(/^ {2}/gm, '  model.')}`);
  // The pack's rules, its catalog-only ones and the engine's own it gets (the security lints, LINT01; its model's grants, GRANT01).
  const known = [...new Set([...pack.properties, ...catalogPropertiesOf(pack)].map((p) => p.id))];
  // `R16:catalog` names a rule's catalog half: the rule itself must exist.
  const unknown = [...(data.rules.include ?? []), ...data.rules.exclude].filter((id) => !isSsoPropertyId(id) && !known.includes(id.replace(/:catalog$/, '')));
  if (unknown.length) throw new UsageError(`${file}: rules name ${[...new Set(unknown)].join(', ')}, which this pack does not have (known rules: ${known.join(', ')})`);
  const base = path.dirname(path.resolve(file));
  const migrationDirs = data.migrations.map((m) => path.resolve(base, m));
  return { ...data, model: model.data, migrationDirs, file, ...(data.pack ? { packModule: path.resolve(base, data.pack) } : {}) };
}

export async function loadConfig(file: string, pack: Pack): Promise<PolicyfuzzConfig> {
  return parseConfig(await readConfigFile(file), file, pack);
}
