/**
 * A .ts pack on Node 20, loaded as the binary loads it (the built modules, in a child process):
 * bundled beside itself by esbuild, never through a module.register hook thread (tsx's loader, or
 * the own-package fallback, cost 0.4–1 s of CPU a start), and each of its modules still sees what
 * it saw: its own import.meta.url, __dirname and __filename, `require`, the running `policyfuzz`
 * where none is installed; an error names the .ts file and line; no bundle is left beside it.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../cli/paths.ts';
import { tempDir } from '../../testing/temp-dir.ts';

const dist = (file: string) => JSON.stringify(path.join(PROJECT_ROOT, 'dist', file));

/** Loads `file` through importModule in a fresh Node; prints what the script's `report` returns. */
async function loadInChild(dir: string, file: string, report: string): Promise<unknown> {
  const script = `
    const { importModule } = await import(${dist('engine/config/project-module.js')});
    const api = await import(${dist('api/index.js')});
    let loaded, error;
    try { loaded = await importModule(${JSON.stringify(file)}); } catch (e) { error = e; }
    const hookThread = process.moduleLoadList.includes('NativeModule internal/modules/esm/hooks');
    console.log(JSON.stringify(${report}));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: dir });
  return JSON.parse(stdout);
}

describe('a TypeScript pack, bundled', () => {
  it('removes the bundles a killed run left beside it (SIGKILL: no exit handler ran), never a live run\'s', async () => {
    const dir = tempDir('bundle-stale');
    writeFileSync(path.join(dir, 'pack.ts'), 'export const answer: number = 42;\n');
    const dead = spawnSync('true').pid!;
    const [left, live] = [`.pack.ts.policyfuzz-${dead}-1.mjs`, `.pack.ts.policyfuzz-${process.ppid}-1.mjs`];
    for (const name of [left, live]) writeFileSync(path.join(dir, name), 'export {};\n');
    const { importBundledTypeScript } = await import('./bundled-typescript.ts');
    expect((await importBundledTypeScript(path.join(dir, 'pack.ts')))?.answer).toBe(42);
    expect(readdirSync(dir).sort()).toEqual([live, 'pack.ts'].sort());
  });

  it('in a folder it cannot write to (read-only: EROFS), loads through tsx instead', async () => {
    const dir = tempDir('bundled-ts-read-only');
    const pack = path.join(dir, 'policyfuzz.pack.ts');
    writeFileSync(pack, "import { definePack, z } from 'policyfuzz';\nexport const url: string = import.meta.url;\nexport default definePack({ name: 'read-only', model: { tables: {}, functions: {}, fixtureOrder: [] }, settingsSchema: z.object({}).strict(), properties: [] });\n");
    // Node's fs as a read-only file system answers a write of the bundle (node:fs's ES exports follow its object: syncBuiltinESMExports).
    const readOnly = path.join(dir, 'read-only.mjs');
    writeFileSync(
      readOnly,
      "import fs from 'node:fs';\nimport { syncBuiltinESMExports } from 'node:module';\nconst write = fs.writeFileSync;\n" +
        "fs.writeFileSync = function (file, ...rest) { if (String(file).includes('.policyfuzz-')) throw Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' }); return write.call(this, file, ...rest); };\nsyncBuiltinESMExports();\n",
    );
    const script = `
      const { importModule } = await import(${dist('engine/config/project-module.js')});
      const loaded = await importModule(${JSON.stringify(pack)});
      console.log(JSON.stringify({ name: loaded.default.name, url: loaded.url.replace(/[?].*$/, ''), hookThread: process.moduleLoadList.includes('NativeModule internal/modules/esm/hooks') }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', pathToFileURL(readOnly).href, '--input-type=module', '-e', script], { cwd: dir });
    // The hook thread is tsx's: the way a read-only folder still loads.
    expect(JSON.parse(stdout)).toEqual({ name: 'read-only', url: pathToFileURL(pack).href, hookThread: true });
    expect(readdirSync(dir).sort()).toEqual(['policyfuzz.pack.ts', 'read-only.mjs']);
  });

  it('in a CommonJS project without policyfuzz installed: each module sees its own location, require works, the API is the running one, JavaScript it imports is the one module, no hook thread, nothing left behind', async () => {
    const dir = tempDir('bundled-ts');
    writeFileSync(path.join(dir, 'package.json'), '{"name":"app","type":"commonjs"}');
    mkdirSync(path.join(dir, 'lib'));
    writeFileSync(path.join(dir, 'lib', 'where.ts'), 'export const where: { url: string; dir: string; file: string } = { url: import.meta.url, dir: __dirname, file: __filename };\n');
    // JavaScript it imports stays the file Node loads: one module for the pack and anyone else (the CLI loading a built policyfuzz by path).
    writeFileSync(path.join(dir, 'lib', 'shared.mjs'), 'export const made = {};\n');
    writeFileSync(
      path.join(dir, 'policyfuzz.pack.ts'),
      [
        "import { definePack, z } from 'policyfuzz';",
        "import { where } from './lib/where';",
        "export * as shared from './lib/shared.mjs';",
        "const api = require('policyfuzz');",
        'export const seen = { where, url: import.meta.url, dir: __dirname, metaDir: import.meta.dirname, sameRequired: api.definePack === definePack };',
        'export const definer = definePack;',
        "export default definePack({ name: 'bundled', model: { tables: {}, functions: {}, fixtureOrder: [] }, settingsSchema: z.object({}).strict(), properties: [] });",
      ].join('\n'),
    );
    const before = readdirSync(dir).sort();
    const pack = path.join(dir, 'policyfuzz.pack.ts');
    const shared = JSON.stringify(pathToFileURL(path.join(dir, 'lib', 'shared.mjs')).href);
    const out = await loadInChild(dir, pack, `{ error: error && error.message, name: loaded?.default.name, seen: loaded?.seen, same: loaded?.definer === api.definePack, sameJavaScript: loaded?.shared.made === (await import(${shared})).made, hookThread }`);
    expect(out).toEqual({
      name: 'bundled',
      seen: {
        where: { url: pathToFileURL(path.join(dir, 'lib', 'where.ts')).href, dir: path.join(dir, 'lib'), file: path.join(dir, 'lib', 'where.ts') },
        url: pathToFileURL(pack).href,
        dir,
        metaDir: dir,
        sameRequired: true,
      },
      same: true,
      sameJavaScript: true,
      hookThread: false,
    });
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('an error thrown as it loads names the .ts file and line; one that does not compile names file, line and column; no bundle is left, nor when the process exits as the pack loads', async () => {
    const dir = tempDir('bundled-ts-errors');
    const throws = path.join(dir, 'throws.pack.ts');
    writeFileSync(throws, "const n: number = 1;\n\nthrow new Error('pack failed at load ' + n);\n");
    const thrown = (await loadInChild(dir, throws, `{ message: error?.message, stack: error?.stack }`)) as { message: string; stack: string };
    expect(thrown.message).toBe('pack failed at load 1');
    expect(thrown.stack).toContain(`${throws}:3:`);
    const broken = path.join(dir, 'broken.pack.ts');
    writeFileSync(broken, "import { extendPack } from 'policyfuzz';\nexport default extendPack(referencePack, {\n");
    expect(await loadInChild(dir, broken, `{ message: error?.message }`)).toEqual({ message: `${broken}:3:1: Expected identifier but found end of file` });
    // The process ending while the pack runs (a signal's handler exits): the bundle goes with it.
    const exits = path.join(dir, 'exits.pack.ts');
    writeFileSync(exits, "const code: number = 0;\nprocess.exit(code);\n");
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', `const { importModule } = await import(${dist('engine/config/project-module.js')}); await importModule(${JSON.stringify(exits)});`], { cwd: dir });
    expect(readdirSync(dir).sort()).toEqual(['broken.pack.ts', 'exits.pack.ts', 'throws.pack.ts']);
  });
});
