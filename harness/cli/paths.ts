import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PROJECT_ROOT = root;
export const BUNDLED_MIGRATIONS = path.join(root, 'db', 'migrations');
export const BUNDLED_MUTANTS = path.join(root, 'db', 'mutants');

/** The version recorded in saved failures and reports. */
export const POLICYFUZZ_VERSION: string = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
