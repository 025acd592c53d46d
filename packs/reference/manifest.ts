/**
 * What the CLI needs to know of the reference pack before it runs anything: its name and
 * folders, and how to load it. Light on purpose (no model, no generators), so `--help` and a
 * config error answer at once; the pack itself is loaded when a command runs.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PackSource } from '../../engine/pack.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export const referencePackSource: PackSource = {
  name: 'reference',
  migrations: path.join(here, 'migrations'),
  mutants: path.join(here, 'rules'),
  load: async () => (await import('./index.ts')).referencePack,
};
