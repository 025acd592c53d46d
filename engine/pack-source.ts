// Light on purpose (no zod, no model): the CLI holds a pack source from its first line.
import type { Pack } from './pack.ts';

/**
 * A pack as the CLI first sees it: its name and folders, and how to load it. Loading is
 * deferred to the command that needs it, so `--help` and bad input answer at once.
 */
export interface PackSource {
  name: string;
  migrations?: string;
  mutants?: string;
  load(): Promise<Pack>;
}

/** A pack already in hand, as a source. */
export function packSource(pack: Pack): PackSource {
  return { name: pack.name, migrations: pack.migrations, mutants: pack.mutants, load: async () => pack };
}
