/**
 * A module of the project (a pack, a .ts config), imported as Node would, TypeScript included:
 * loaded only by a command that has one to load.
 */
import Module, { createRequire, register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { importBundledTypeScript, OWN_SPECIFIER } from './bundled-typescript.ts';
export { MODULE_EXTENSIONS } from './module-extensions.ts';

let typeScriptLoader: Promise<unknown> | undefined;
let ownPackageFallbackForCommonJs = false;
let ownPackageFallbackForEsModules = false;

/**
 * A project that runs policyfuzz through `npx` has no `policyfuzz` in its node_modules, yet its
 * pack imports it. Where Node finds none, `policyfuzz` resolves to the running copy (the package
 * naming itself through its own `exports`); an installed copy still wins. For CommonJS a patch of
 * the resolver, always; for ES modules a module.register hook, only when the module's folder
 * finds no `policyfuzz`: the hook runs on a thread of its own that every later import goes
 * through (0.1–0.2 s of CPU a start).
 */
function resolveOwnPackageAsFallback(file: string): void {
  const here = import.meta.url;
  if (!ownPackageFallbackForCommonJs) {
    ownPackageFallbackForCommonJs = true;
    const ownRequire = createRequire(here);
    const cjs = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
    const original = cjs._resolveFilename;
    cjs._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
      try {
        return original.call(this, request, ...rest);
      } catch (e) {
        if (!OWN_SPECIFIER.test(request) || (e as { code?: string }).code !== 'MODULE_NOT_FOUND') throw e;
        return ownRequire.resolve(request);
      }
    };
  }
  if (ownPackageFallbackForEsModules || findsOwnPackage(file)) return;
  ownPackageFallbackForEsModules = true;
  const hooks = `export async function resolve(specifier, context, next) {
  try { return await next(specifier, context); }
  catch (e) {
    if (!/^policyfuzz(\\/|$)/.test(specifier) || (e && e.code !== 'ERR_MODULE_NOT_FOUND')) throw e;
    return next(specifier, { ...context, parentURL: ${JSON.stringify(here)} });
  }
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

/** Whether `policyfuzz` resolves from the module's folder (installed above it, or the package itself). */
function findsOwnPackage(file: string): boolean {
  try {
    createRequire(file).resolve('policyfuzz');
    return true;
  } catch {
    return false;
  }
}

/**
 * A .js/.mjs/.cjs module as it is. A TypeScript one (.ts, .mts, .cts) as Node loads it where
 * Node strips types itself (22.18+, 23.6+); Node 20 cannot, so then bundled by esbuild and
 * imported (bundled-typescript.ts). A .ts file in a folder policyfuzz cannot write to is loaded
 * through tsx, a dependency of policyfuzz, registered for the rest of the process (--help and
 * JSON configs never load it). A .ts file is an ES module or CommonJS as its package.json says,
 * like any other; `policyfuzz` in it resolves as Node resolves it (the installed package, so a
 * pack shares the very modules the CLI runs), else to the running copy (`npx policyfuzz`).
 */
export async function importModule(file: string): Promise<{ default?: unknown } & Record<string, unknown>> {
  const absolute = path.resolve(file);
  const url = pathToFileURL(absolute).href;
  const typeScript = /\.[mc]?ts$/.test(file);
  if (!typeScript || nodeStripsTypes()) {
    resolveOwnPackageAsFallback(absolute);
    return esModuleView(await import(url));
  }
  const bundled = await importBundledTypeScript(absolute);
  if (bundled) return esModuleView(bundled);
  resolveOwnPackageAsFallback(absolute);
  // Both halves: a .ts file in a CommonJS project is compiled to CommonJS, and Node's own
  // CommonJS loader cannot read TypeScript.
  typeScriptLoader ??= Promise.all([
    import('tsx/esm/api').then(({ register }) => register({ tsconfig: false })),
    import('tsx/cjs/api').then(({ register }) => register()),
  ]);
  await typeScriptLoader;
  return esModuleView(await import(url));
}

/** Node 22.18+ and 23.6+ load TypeScript themselves (process.features.typescript 'strip' or 'transform'; false or absent before). */
function nodeStripsTypes(): boolean {
  return Boolean((process.features as { typescript?: string | false }).typescript);
}

/** A CommonJS module compiled from ES syntax arrives as `{ default: exports }`: its exports, then. */
function esModuleView(m: { default?: unknown } & Record<string, unknown>): { default?: unknown } & Record<string, unknown> {
  const inner = m.default as ({ __esModule?: boolean } & Record<string, unknown>) | undefined;
  return inner && typeof inner === 'object' && inner.__esModule === true ? inner : m;
}
