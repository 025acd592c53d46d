/**
 * A TypeScript module of the project (a pack, a config) where Node cannot strip types (Node 20):
 * esbuild bundles it with its relative imports into one ES module written beside it, which Node
 * imports like any other, and the file is removed once loaded. tsx's loader did the same job
 * through Node's module.register hooks, which run on a thread of their own that every later import
 * of the run then went through: 0.4–0.5 s more CPU each start of a .ts pack (issue 27).
 *
 * What a module sees stays as it was, file by file:
 * - `import.meta.url` (`.dirname`, `.filename`), `__dirname` and `__filename` are its own file's,
 *   not the bundle's (a pack finds its migrations beside itself);
 * - packages are not bundled: written beside the module, the bundle imports them as the module
 *   would (a pack shares fast-check with the engine, and the installed `policyfuzz`); `policyfuzz`
 *   where none is installed is the running copy (`npx policyfuzz`);
 * - `require` (a .cts module's, or one in a project without "type": "module") is Node's, from there;
 * - a thrown error's stack names the .ts file and line (an inline source map), and a module that
 *   does not compile is an error naming its file, line and column.
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { processAlive } from '../db/process-alive.ts';

/** `policyfuzz`, `policyfuzz/vitest`, `policyfuzz/config`: the specifiers a pack or config imports. */
export const OWN_SPECIFIER = /^policyfuzz(\/|$)/;

/** A module's own location, declared at its top and read where it names it (define, below). */
const OWN_LOCATION = { url: '__pfModuleUrl', filename: '__pfModuleFilename', dirname: '__pfModuleDirname' };
const NAMES_ITS_LOCATION = /import\.meta|__dirname|__filename/;
const JAVASCRIPT = /\.[cm]?jsx?$/;
const LOADER_OF = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.jsx': 'jsx' } as const;

/** Errors from a folder the bundle cannot be written to: the caller loads the module another way. */
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

let bundlesWritten = 0;

/**
 * The module at `file` (absolute), bundled and imported; undefined where its folder cannot be
 * written (read-only), for the caller to load it another way.
 */
export async function importBundledTypeScript(file: string): Promise<({ default?: unknown } & Record<string, unknown>) | undefined> {
  const esbuild = await import('esbuild');
  const dir = path.dirname(file);
  const fromTheModule = createRequire(file);
  const fromHere = createRequire(import.meta.url);
  let code: string;
  try {
    const result = await esbuild.build({
      entryPoints: [file],
      absWorkingDir: dir,
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node}`,
      packages: 'external',
      sourcemap: 'inline',
      // As tsx was told (tsconfig: false): a project's tsconfig (its `paths`, say) is not read.
      tsconfigRaw: {},
      logLevel: 'silent',
      banner: { js: `import { createRequire as __policyfuzzPackCreateRequire } from 'node:module'; const require = __policyfuzzPackCreateRequire(${JSON.stringify(pathToFileURL(file).href)});` },
      define: {
        'import.meta.url': OWN_LOCATION.url,
        'import.meta.filename': OWN_LOCATION.filename,
        'import.meta.dirname': OWN_LOCATION.dirname,
        __filename: OWN_LOCATION.filename,
        __dirname: OWN_LOCATION.dirname,
      },
      plugins: [
        {
          name: 'policyfuzz-module-location',
          setup(build) {
            build.onResolve({ filter: OWN_SPECIFIER }, (args) => {
              try {
                fromTheModule.resolve(args.path);
                return { path: args.path, external: true };
              } catch {
                // A file URL for import, a path for require (which takes no URL).
                const running = fromHere.resolve(args.path);
                return { path: args.kind === 'require-call' ? running : pathToFileURL(running).href, external: true };
              }
            });
            // JavaScript stays a file Node loads, bundled only TypeScript: a module the CLI loads
            // too (a built policyfuzz by its path, a project's compiled helper) is then the one
            // module, not a second copy in the bundle.
            build.onResolve({ filter: /^[./]|^[A-Za-z]:[\\/]/ }, async (args) => {
              if ((args.pluginData as { resolving?: boolean } | undefined)?.resolving) return undefined;
              const found = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { resolving: true } });
              if (found.errors.length || found.external || !JAVASCRIPT.test(found.path)) return undefined;
              return { path: args.kind === 'require-call' ? found.path : pathToFileURL(found.path).href, external: true };
            });
            build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
              const source = await readFile(args.path, 'utf8');
              const loader = LOADER_OF[path.extname(args.path) as keyof typeof LOADER_OF] ?? 'js';
              if (!NAMES_ITS_LOCATION.test(source)) return { contents: source, loader };
              // On the first line (after a #! line), so every line keeps its number in the source map.
              const declared = `const ${OWN_LOCATION.url} = ${JSON.stringify(pathToFileURL(args.path).href)}, ${OWN_LOCATION.filename} = ${JSON.stringify(args.path)}, ${OWN_LOCATION.dirname} = ${JSON.stringify(path.dirname(args.path))};`;
              const at = source.startsWith('#!') ? source.indexOf('\n') + 1 : 0;
              return { contents: source.slice(0, at) + declared + source.slice(at), loader };
            });
          },
        },
      ],
    });
    code = result.outputFiles[0].text;
  } catch (e) {
    throw compileError(e, dir);
  } finally {
    await esbuild.stop();
  }
  removeBundlesOfDeadRuns(dir, path.basename(file));
  const bundle = path.join(dir, `.${path.basename(file)}.policyfuzz-${process.pid}-${++bundlesWritten}.mjs`);
  try {
    writeFileSync(bundle, code, { flag: 'wx' });
  } catch (e) {
    if (UNWRITABLE.has((e as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw e;
  }
  // A signal while the module runs ends the process through exit (the CLI's handlers): the bundle goes then too.
  const removeBundle = () => rmSync(bundle, { force: true });
  process.once('exit', removeBundle);
  try {
    // A stack then names the .ts file and line (the bundle's source map), as a pack's blame reads it.
    process.setSourceMapsEnabled(true);
    return await import(pathToFileURL(bundle).href);
  } finally {
    process.off('exit', removeBundle);
    removeBundle();
  }
}

/** The bundles of `base` a run left beside it when it was killed outright (SIGKILL: no exit handler ran), by their process id. */
function removeBundlesOfDeadRuns(dir: string, base: string): void {
  const prefix = `.${base}.policyfuzz-`;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix) || !name.endsWith('.mjs')) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid)) rmSync(path.join(dir, name), { force: true });
  }
}

/** esbuild's "Build failed with 1 error:" as the first error's file:line:column and text. */
function compileError(e: unknown, dir: string): Error {
  const first = (e as { errors?: { text: string; location: { file: string; line: number; column: number } | null }[] }).errors?.[0];
  if (!first) return e as Error;
  const where = first.location ? `${path.resolve(dir, first.location.file)}:${first.location.line}:${first.location.column + 1}: ` : '';
  return new Error(`${where}${first.text}`);
}
