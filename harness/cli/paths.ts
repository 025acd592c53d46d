import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PROJECT_ROOT = root;
export const BUNDLED_MIGRATIONS = path.join(root, 'db', 'migrations');
export const BUNDLED_MUTANTS = path.join(root, 'db', 'mutants');
