import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shownPath } from '../engine/config/shown-path.ts';

/** The package root: the folder holding policyfuzz's package.json, from the sources or from dist/. */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('policyfuzz: cannot find its own package.json');
    dir = up;
  }
  return dir;
}

const root = packageRoot();
export const PROJECT_ROOT = root;
/** Where the bundled reference pack's files are: beside this file's layer, in sources and in dist alike. */
const packsRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'packs', 'reference');
export const BUNDLED_MIGRATIONS = path.join(packsRoot, 'migrations');
export const BUNDLED_MUTANTS = path.join(packsRoot, 'rules');

/** The version recorded in saved failures and reports. */
export const POLICYFUZZ_VERSION: string = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

/** A folder as a user reads it in help and messages (the engine's, re-exported for the CLI). */
export { shownPath } from '../engine/config/shown-path.ts';

/** The pack's own migrations, as a path relative to the current folder where it can be. */
export function defaultMigrationsOption(pack: { migrations?: string }): string {
  const dir = pack.migrations ?? 'supabase/migrations';
  return shownPath(dir);
}
