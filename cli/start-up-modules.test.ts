/**
 * `--version`, `--help` and bad input load only the commands' definitions (cli/commands/), never
 * the engine, the SSO properties, the report writers or zod: the tests start the binary hundreds
 * of times, and each load of everything cost ~0.9 s of CPU before doing anything.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../testing/run-bin.ts';

// Made before the tests, not at import: a run filtering every test out (-t) runs no hook, and the folder would stay.
let dir = '';
let hook = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'policyfuzz-start-up-'));
  // A module loader hook that writes down every module the binary loads.
  const loader = path.join(dir, 'loader.mjs');
  writeFileSync(loader, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(process.env.POLICYFUZZ_TEST_MODULE_LOG, url + '\\n');\n  return next(url, context);\n}\n`);
  hook = path.join(dir, 'hook.mjs');
  writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(loader).href)});\n`);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function modulesLoadedBy(args: string[], log: string): Promise<{ code: number; modules: string[] }> {
  const logFile = path.join(dir, log);
  const { code } = await runBin(args, { env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(hook).href}`, POLICYFUZZ_TEST_MODULE_LOG: logFile } });
  return { code, modules: readFileSync(logFile, 'utf8').split('\n').filter(Boolean) };
}

// What only a run needs: loading any of these before a command runs is the regression.
const RUN_ONLY = ['/node_modules/zod/', '/dist/engine/run/', '/dist/engine/runner/', '/dist/engine/report/write.js', '/dist/sso/properties/', '/dist/sso/emulator/server.js', '/dist/engine/mutants/kill.js', '/dist/engine/config/init.js', '/dist/cli/fuzz/run-fuzz.js'];

describe('what the binary loads before a command runs', () => {
  it.each([
    [['--version'], 0],
    [['--help'], 0],
    [['fuzz', '--help'], 0],
    [['sso', 'check', '--help'], 0],
    [['fuzz', '--seed', 'x'], 2],
  ])('policyfuzz %j: the command definitions only, none of the engine', async (args, exitCode) => {
    const { code, modules } = await modulesLoadedBy(args, `${args.join('_')}.log`);
    expect(code).toBe(exitCode);
    // The hook saw the binary's own modules (a log that caught nothing would pass vacuously).
    expect(modules.some((m) => m.endsWith('/dist/cli/commands/sso.js'))).toBe(true);
    expect(modules.filter((m) => RUN_ONLY.some((part) => m.includes(part)))).toEqual([]);
  });
});
