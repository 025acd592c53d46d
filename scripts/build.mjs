// Compiles the package to dist/ (tsc, with .d.ts) and copies the files the code reads at run
// time (SQL, JSON) beside their compiled modules, so dist/ mirrors the source layout. Then bundles
// what runs (the CLI, the reference pack, the public API) into dist/bundle/ (see bundle() below).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });

const ASSET = /\.(sql|json)$/;
function copyAssets(dir) {
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) copyAssets(rel);
    else if (ASSET.test(name)) {
      mkdirSync(path.join(root, 'dist', dir), { recursive: true });
      cpSync(path.join(root, rel), path.join(root, 'dist', rel));
    }
  }
}
for (const layer of ['engine', 'sso', 'packs', 'cli', 'api']) copyAssets(layer);

// tsc never deletes output: a module moved or removed would linger in dist/ and still be importable.
function pruneStale(dir) {
  const out = path.join(root, 'dist', dir);
  if (!existsSync(out)) return;
  for (const name of readdirSync(out)) {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, 'dist', rel)).isDirectory()) {
      if (!existsSync(path.join(root, rel))) rmSync(path.join(root, 'dist', rel), { recursive: true, force: true });
      else pruneStale(rel);
      continue;
    }
    const source = ASSET.test(name) ? rel : rel.replace(/\.d\.ts$|\.js$/, '.ts');
    if (source !== rel || ASSET.test(name)) if (!existsSync(path.join(root, source))) rmSync(path.join(root, 'dist', rel), { force: true });
  }
}
for (const layer of ['engine', 'sso', 'packs', 'cli', 'api']) pruneStale(layer);

/**
 * The modules a start loads, bundled: Node 20 loads ES modules one file at a time (resolve, read,
 * compile, link each of ~380), about 0.3 s of CPU of every start of the binary, `--help` and bad
 * input included. esbuild puts policyfuzz's own code into a few files under dist/bundle/, split by
 * entry point and dynamic import, so a start still loads only what its command needs (--help never
 * loads the engine). Dependencies stay external (a pack shares fast-check and pg with the engine
 * as before: fast-check's arbitraries are told apart by class), but for BUNDLED_PACKAGES below.
 *
 * Each entry's compiled module (dist/cli/main.js, dist/api/index.js…) becomes a line re-exporting
 * its bundle, so whatever loads it by path or by the package's exports (bin/, a project pack's
 * `policyfuzz`, the SSO thread) gets the one bundled copy. Code that finds its files beside itself
 * (import.meta.url: SQL, the reference migrations, faker-pools.json) is given the URL its compiled
 * module has under dist/, so those files stay where they are. The other compiled modules stay for
 * tests that load one module by path; nothing the binary runs loads them.
 */
export const BUNDLE_DIR = 'bundle';
/**
 * Dependencies bundled in: ones of many small files, which Node 20 resolves, reads and links one by
 * one (zod alone is 95 ES modules, commander and cli-progress 25 CommonJS files), and whose objects
 * no pack needs to share by identity with the engine (a pack's own zod schema is only called:
 * `safeParse`; one from `policyfuzz`'s `z` is this very copy).
 */
const BUNDLED_PACKAGES = ['zod', 'smol-toml', 'commander', 'cli-progress'];
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const EXTERNAL_PACKAGES = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})].filter((p) => !BUNDLED_PACKAGES.includes(p)).flatMap((p) => [p, `${p}/*`]);
const ENTRIES = {
  'cli-main': 'cli/main.ts',
  'reference-manifest': 'packs/reference/manifest.ts',
  'api-index': 'api/index.ts',
  'api-vitest': 'api/vitest.ts',
  'api-config': 'api/config.ts',
  'sso-thread-entry': 'cli/fuzz/sso-thread-entry.ts',
  // Build only: writes the bundle's faker pools (below).
  'faker-pools': 'scripts/faker-pools-entry.ts',
};

/**
 * `source` with each `import.meta.url` expression replaced: the code's own, read off the syntax
 * tree, never the text inside a string (a saved regression test's template writes
 * `import.meta.url` for the user's file, which must stay as written).
 */
function withCompiledModuleUrl(source, file, replacement) {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const spans = [];
  const visit = (node) => {
    if (ts.isPropertyAccessExpression(node) && ts.isMetaProperty(node.expression) && node.expression.keywordToken === ts.SyntaxKind.ImportKeyword && node.name.text === 'url') spans.push([node.getStart(tree), node.getEnd()]);
    ts.forEachChild(node, visit);
  };
  visit(tree);
  let out = source;
  for (const [start, end] of spans.reverse()) out = out.slice(0, start) + replacement + out.slice(end);
  return out;
}

async function bundle() {
  const outdir = path.join(root, 'dist', BUNDLE_DIR);
  rmSync(outdir, { recursive: true, force: true });
  const compiledUrl = {
    name: 'compiled-module-url',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const compiled = path.relative(outdir, path.join(root, 'dist', path.relative(root, args.path).replace(/\.ts$/, '.js'))).split(path.sep).join('/');
        return { contents: withCompiledModuleUrl(source, args.path, `new URL(${JSON.stringify(compiled)}, import.meta.url).href`), loader: 'ts' };
      });
    },
  };
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL_PACKAGES,
    // A bundled CommonJS package's require() of Node's own modules (cli-progress: readline, events).
    banner: { js: `import { createRequire as __pfCreateRequire } from 'node:module'; const require = __pfCreateRequire(import.meta.url);` },
    plugins: [compiledUrl],
    metafile: true,
    logLevel: 'warning',
  });
  // What each bundle file holds (tests map a loaded file back to its modules: cli/start-up-modules.test.ts).
  const modules = {};
  // A bundled package's files are listed too (…/node_modules/zod/…): the test that no command but a run loads zod still sees it.
  for (const [file, output] of Object.entries(result.metafile.outputs)) modules[path.basename(file)] = Object.keys(output.inputs);
  writeFileSync(path.join(outdir, 'modules.json'), JSON.stringify(modules, null, 1));
  for (const [name, source] of Object.entries(ENTRIES)) {
    if (source.startsWith('scripts/')) continue;
    const output = Object.values(result.metafile.outputs).find((o) => o.entryPoint === source);
    const compiled = path.join(root, 'dist', source.replace(/\.ts$/, '.js'));
    const target = path.relative(path.dirname(compiled), path.join(outdir, `${name}.js`)).split(path.sep).join('/');
    const names = output.exports.length ? `export { ${output.exports.join(', ')} } from './${target}';\n` : `import './${target}';\n`;
    writeFileSync(compiled, `// The bundled module (scripts/build.mjs).\n${names}`);
  }
}
await bundle();

// The engine's code digest (engine/db/catalog-cache.ts engineCodeDigest), which a start would
// otherwise hash from every file of dist/engine: computed once here, from the same files.
{
  const { hashEngineCode, BUILT_ENGINE_DIGEST } = await import(pathToFileURL(path.join(root, 'dist', 'engine', 'db', 'catalog-cache.js')).href);
  writeFileSync(path.join(root, 'dist', 'engine', BUILT_ENGINE_DIGEST), `${hashEngineCode(path.join(root, 'dist', 'engine'))}\n`);
}

// The reference pack's faker pools, filled once here (after the pruning, which removes a file with
// no source beside it): a run reads them instead of loading faker and filling them
// (packs/reference/generators/faker.ts). Every module that declares a pool is loaded first. The
// key of a pool holds its code's text, which esbuild prints otherwise than tsc: the bundle's pools
// (what runs) and the compiled modules' (faker.test.ts loads those) are both kept.
const poolsFile = path.join(root, 'dist', 'packs', 'reference', 'generators', 'faker-pools.json');
rmSync(poolsFile, { force: true });
for (const poolsOf of [['dist/packs/reference/properties.js', 'dist/packs/reference/generators/faker.js'], [null, `dist/${BUNDLE_DIR}/faker-pools.js`]]) {
  const [declaring, writer] = poolsOf.map((f) => f && JSON.stringify(pathToFileURL(path.join(root, f)).href));
  execFileSync(process.execPath, ['--input-type=module', '-e', `${declaring ? `await import(${declaring});` : ''} const { writeKeptPools } = await import(${writer}); writeKeptPools();`], { stdio: 'inherit', cwd: root });
}
