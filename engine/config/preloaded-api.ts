/**
 * `policyfuzz` (its public API, as a project pack imports it) loaded before the pack, for speed:
 *
 * - Before importModule registers its loader hooks (the own-package fallback, tsx for a .ts pack):
 *   loaded after them, each of its modules was resolved and read through the hooks' thread, 1.0–1.2 s
 *   of CPU where loading them first takes 0.45 s.
 * - A pack compiled to CommonJS (a .ts pack in a project without "type": "module", as most are)
 *   `require`s it: that compiled a second copy of every module of the API to CommonJS (~1 s of CPU).
 *   Its require of this very copy (same file) is handed the loaded module instead, as an ES module
 *   importing it gets it; an installed copy elsewhere is still the pack's own.
 *
 * Where it cannot be loaded, the pack's own import decides, with its own error.
 */
import Module, { createRequire } from 'node:module';

/** A variable: the layers below the API load it by the name a pack uses, never import it. */
const API = 'policyfuzz';

interface CommonJsLoader {
  _load(request: string, parent: unknown, isMain: boolean): unknown;
  _resolveFilename(request: string, parent: unknown, isMain: boolean): string;
}

let preloaded: Promise<void> | undefined;

export function preloadTheApiPacksImport(): Promise<void> {
  preloaded ??= (async () => {
    let api: unknown;
    let file: string;
    try {
      api = await import(API);
      file = createRequire(import.meta.url).resolve(API);
    } catch {
      return;
    }
    const loader = Module as unknown as CommonJsLoader;
    const load = loader._load;
    loader._load = function (request, parent, isMain) {
      if (request === API) {
        let resolved: string | undefined;
        try {
          resolved = loader._resolveFilename(request, parent, isMain);
        } catch {
          // Not found from there: the loader's own error, below.
        }
        if (resolved === file) return api;
      }
      return load.call(this, request, parent, isMain);
    };
  })();
  return preloaded;
}
