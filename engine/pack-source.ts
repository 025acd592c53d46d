// Light on purpose (no zod, no model, no import of pack.ts): the CLI holds a pack source from its
// first line. `Pack` is a parameter here, not an import, so this module and pack.ts form no loop.

/**
 * A pack as the CLI first sees it: its name and folders, and how to load it. Loading is
 * deferred to the command that needs it, so `--help` and bad input answer at once.
 * pack.ts names it with its `Pack`: `PackSource` there is `LoadablePack<Pack>`.
 */
export interface LoadablePack<P> {
  name: string;
  migrations?: string;
  mutants?: string;
  load(): Promise<P>;
}

/** A pack already in hand, as a source. */
export function packSource<P extends { name: string; migrations?: string; mutants?: string }>(pack: P): LoadablePack<P> {
  return { name: pack.name, migrations: pack.migrations, mutants: pack.mutants, load: async () => pack };
}
