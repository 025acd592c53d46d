/** `policyfuzz init`: read an existing migrations folder and write a starting config. */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startDatabaseServer } from '../engine/db/providers/index.ts';
import { inspectMigrations } from '../engine/config/init.ts';
import { SUPABASE_MIGRATIONS } from '../engine/config/supabase-project.ts';
import { UsageError } from '../engine/errors.ts';
import { packSettings, type Pack } from '../engine/pack.ts';
import { defaultMigrationsOption } from './paths.ts';

export interface InitOptions {
  /** Migration folders; default: supabase/migrations when the current folder has one. */
  migrations?: string[];
  /** Migration file names left out (data repairs that cannot apply to an empty database). */
  skip?: string[];
  /** A project pack module (`--pack`): its model is what init maps, and the config names it. */
  packModule?: string;
  out: string;
  force?: boolean;
  databaseUrl?: string;
}

export { SUPABASE_MIGRATIONS };

/** The pack's settings with nothing overridden (init reads a function's default output columns there). */
const defaultSettingsOf = (pack: Pack): unknown => {
  try {
    return packSettings(pack);
  } catch {
    return undefined;
  }
};

/** The keys of a pack's settings (a zod object's shape); undefined where the schema is not an object. */
const settingsKeysOf = (pack: Pack): string[] | undefined => {
  const shape = (pack.settingsSchema as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : undefined;
};

/**
 * The folders init reads, and how the user named them: `--migrations`; else, with `--pack`, the
 * pack's own `migrations` (as `fuzz --pack` runs it); else supabase/migrations when present.
 */
function foldersToRead(options: InitOptions & { pack: Pack }): { folders: string[]; named: string } {
  if (options.migrations?.length) return { folders: options.migrations, named: '--migrations' };
  if (options.packModule && options.pack.migrations) return { folders: [defaultMigrationsOption(options.pack)], named: `the pack's migrations (${options.packModule})` };
  return { folders: existsSync(SUPABASE_MIGRATIONS) ? [SUPABASE_MIGRATIONS] : [], named: '--migrations' };
}

export async function init(options: InitOptions & { pack: Pack }, out: (line: string) => void = console.log): Promise<number> {
  if (existsSync(options.out) && !options.force) throw new UsageError(`${options.out} exists; pass --force to overwrite it`);
  const { folders, named } = foldersToRead(options);
  if (!folders.length) throw new UsageError(`no migrations: pass --migrations <dir> (there is no ${SUPABASE_MIGRATIONS} here)`);
  for (const f of folders) if (!existsSync(f)) throw new UsageError(`${named} ${f}: no such folder`);
  const server = await startDatabaseServer({ databaseUrl: options.databaseUrl });
  try {
    const report = await inspectMigrations(server, folders, options.pack.properties, path.dirname(path.resolve(options.out)), options.pack.model, options.pack.vocabularies, { skip: options.skip, packModule: options.packModule && path.resolve(options.packModule), catalogIds: (options.pack.catalogProperties ?? []).map((p) => p.id), settingsKeys: settingsKeysOf(options.pack), defaultSettings: defaultSettingsOf(options.pack), ...(options.pack.projectSettings ? { projectSettings: options.pack.projectSettings } : {}), ...(options.pack.notNullDraws ? { notNullDraws: options.pack.notNullDraws } : {}), ...(options.pack.normalizedDraws ? { normalizedDraws: options.pack.normalizedDraws } : {}), ...(options.pack.targetIdSettings ? { targetIdSettings: options.pack.targetIdSettings } : {}), ...(options.pack.targetDrawSettings ? { targetDrawSettings: options.pack.targetDrawSettings } : {}), ...(options.pack.userKeySettings ? { userKeySettings: options.pack.userKeySettings } : {}), ...(options.pack.sourceSettings ? { sourceSettings: options.pack.sourceSettings } : {}), packMapping: options.pack.mapping });
    writeFileSync(options.out, `${JSON.stringify(report.config, null, 2)}\n`);
    out(`wrote ${options.out}`);
    for (const note of report.config.notes as string[]) out(`  ${note}`);
    out(`  rules that apply: ${report.applicable.join(', ') || 'none'}`);
    return 0;
  } finally {
    await server.stop();
  }
}
