/**
 * The config file found and read, and its shape checked (config-schema.ts), before any pack or the
 * engine is loaded (the pack's `model` settings and rule ids are checked against the pack in
 * config-file.ts parseConfig): a bad config answers in a start that loaded only these, a missing
 * one without zod too (cli/start-up-modules.test.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.ts';
import { MODULE_EXTENSIONS } from './module-extensions.ts';

export const CONFIG_FILE_NAMES = ['policyfuzz.config.ts', 'policyfuzz.config.json'];

/** The config file's object, unchecked: JSON, or a module's default export. */
export async function readConfigFile(file: string): Promise<unknown> {
  if (!existsSync(file)) throw new UsageError(`config file not found: ${file}`);
  let raw: unknown;
  if (file.endsWith('.json')) {
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new UsageError(`${file} is not valid JSON: ${(e as Error).message}`);
    }
  } else if (MODULE_EXTENSIONS.test(file)) {
    try {
      // A project module only now: a JSON config, or none, never loads the loader.
      const { importModule } = await import('./project-module.ts');
      raw = (await importModule(file)).default;
    } catch (e) {
      throw new UsageError(`${file} could not be loaded: ${(e as Error).message}`);
    }
    if (raw === undefined) throw new UsageError(`${file} must export the config as its default export`);
  } else {
    throw new UsageError(`config file must be .json or .ts: ${file}`);
  }
  return raw;
}

/** The `pack` a config file names (an absolute path), read before the config is checked against a pack. */
export function packModuleOf(raw: unknown, file: string): string | undefined {
  const named = raw && typeof raw === 'object' ? (raw as { pack?: unknown }).pack : undefined;
  if (named === undefined) return undefined;
  if (typeof named !== 'string' || !named) throw new UsageError(`${file} is not a valid policyfuzz config:\n  pack: a module path, like "./policyfuzz.pack.ts"`);
  return path.resolve(path.dirname(path.resolve(file)), named);
}

/** The config in this folder, if there is one. */
export function findConfig(dir: string = process.cwd()): string | undefined {
  return CONFIG_FILE_NAMES.map((n) => path.join(dir, n)).find((f) => existsSync(f));
}

/** What the command line says about the target (fuzz, replay, init). */
export interface TargetChoice {
  config?: string;
  /** Folders named with --migrations. */
  migrations?: string[];
  skip?: string[];
  /** --migration-timeout, in ms. */
  migrationTimeout?: number;
  /** --pack <module>. */
  pack?: string;
  /** --reference: the bundled reference database, whatever the current folder holds. */
  reference?: boolean;
}

/** The config a choice names (or finds here), read and its shape checked; none when it names none. */
export interface ChosenConfig {
  file: string | undefined;
  raw: unknown;
}

/**
 * The options that contradict one another refused, and the config the choice runs with read and
 * checked (engine/config/target.ts chooseTarget, steps 1–2): what a front-end can do before it
 * loads the pack or the engine.
 */
export async function readChosenConfig(choice: TargetChoice): Promise<ChosenConfig> {
  const named = [choice.config && '--config', choice.migrations?.length && '--migrations', choice.pack && '--pack', choice.skip?.length && '--skip'].filter(Boolean);
  if (choice.reference && named.length) throw new UsageError(`--reference runs the bundled reference database; it cannot go with ${named.join(', ')}`);
  // Both given, the config's folders used to win without a word: a migration added on the command line went untested.
  if (choice.config && choice.migrations?.length) {
    throw new UsageError(`--config and --migrations both name the migrations: give one (the config lists its folders under "migrations"; other folders with its pack: --pack <its pack> --migrations <dirs…>)`);
  }
  const file = choice.reference || choice.migrations?.length ? choice.config : (choice.config ?? findConfig());
  if (!file) return { file, raw: undefined };
  const raw = await readConfigFile(file);
  packModuleOf(raw, file);
  const { checkConfigShape } = await import('./config-schema.ts');
  checkConfigShape(raw, file);
  return { file, raw };
}
