// Compiles the package to dist/ (tsc, with .d.ts) and copies the files the code reads at run
// time (SQL, JSON) beside their compiled modules, so dist/ mirrors the source layout.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

// The reference pack's faker pools, filled once here (after the pruning, which removes a file with
// no source beside it): a run reads them instead of loading faker and filling them
// (packs/reference/generators/faker.ts). Every module that declares a pool is loaded first.
execFileSync(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `await import(${JSON.stringify(new URL('../dist/packs/reference/properties.js', import.meta.url).href)});
     const { writeKeptPools } = await import(${JSON.stringify(new URL('../dist/packs/reference/generators/faker.js', import.meta.url).href)});
     writeKeptPools();`,
  ],
  { stdio: 'inherit', cwd: root },
);
