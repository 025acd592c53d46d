/**
 * `--version`, `--help` and bad input load only the commands' definitions (cli/commands/), never
 * the engine, the SSO properties, the report writers or zod: the tests start the binary hundreds
 * of times, and each load of everything cost ~0.9 s of CPU before doing anything. A data-only run
 * (`fuzz --no-sso`, as most binary tests start it) never loads the SSO half.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runBin } from '../testing/run-bin.ts';
import { PROJECT_ROOT } from './paths.ts';

// Made before the tests, not at import: a run filtering every test out (-t) runs no hook, and the folder would stay.
let dir = '';
let hook = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'policyfuzz-start-up-'));
  // A module loader hook that writes down every module the binary loads.
  const loader = path.join(dir, 'loader.mjs');
  writeFileSync(loader, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(process.env.POLICYFUZZ_TEST_MODULE_LOG, url + '\\n');\n  return next(url, context);\n}\n`);
  hook = path.join(dir, 'hook.mjs');
  // And every require() (node-pg's files, an ES module required synchronously as faker.ts may), which the loader hook does not see.
  writeFileSync(
    hook,
    `import Module, { register } from 'node:module';\nimport { appendFileSync } from 'node:fs';\nregister(${JSON.stringify(pathToFileURL(loader).href)});\n` +
      `const load = Module._load;\nModule._load = function (request, ...rest) {\n  appendFileSync(process.env.POLICYFUZZ_TEST_MODULE_LOG, 'require:' + request + '\\n');\n  return load.call(this, request, ...rest);\n};\n` +
      // And Node's own fetch implementation (undici), which neither hook sees: Node's list of the internal modules it loaded.
      `process.on('exit', () => { if (process.moduleLoadList.some((m) => m.includes('undici'))) appendFileSync(process.env.POLICYFUZZ_TEST_MODULE_LOG, 'node:internal/deps/undici\\n'); });\n`,
  );
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function modulesLoadedBy(args: string[], log: string): Promise<{ code: number; stdout: string; modules: string[] }> {
  const logFile = path.join(dir, log);
  const { code, stdout } = await runBin(args, { env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(hook).href}`, POLICYFUZZ_TEST_MODULE_LOG: logFile } });
  return { code, stdout, modules: readFileSync(logFile, 'utf8').split('\n').filter(Boolean).flatMap(bundledModules) };
}

/**
 * The binary runs policyfuzz's code bundled (scripts/build.mjs): a loaded bundle file stands for
 * the modules it holds (dist/bundle/modules.json), named as their compiled files under dist/.
 */
function bundledModules(loaded: string): string[] {
  const file = /\/dist\/bundle\/([^/]+\.js)$/.exec(loaded)?.[1];
  if (!file) return [loaded];
  bundleContents ??= JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'dist', 'bundle', 'modules.json'), 'utf8')) as Record<string, string[]>;
  return [loaded, ...(bundleContents[file] ?? []).map((source) => pathToFileURL(path.join(PROJECT_ROOT, 'dist', source.replace(/\.ts$/, '.js'))).href)];
}
let bundleContents: Record<string, string[]> | undefined;

// What only a run needs: loading any of these before a command runs is the regression.
const RUN_ONLY = ['/node_modules/zod/', '/dist/engine/run/', '/dist/engine/runner/', '/dist/engine/report/write.js', '/dist/sso/properties/', '/dist/sso/emulator/server.js', '/dist/engine/mutants/kill.js', '/dist/engine/config/init.js', '/dist/cli/fuzz/run-fuzz.js'];

describe('what the binary loads before a command runs', () => {
  it.each([
    [['--version'], 0],
    [['--help'], 0],
    [['fuzz', '--help'], 0],
    [['sso', 'check', '--help'], 0],
    [['fuzz', '--seed', 'x'], 2],
    // Options that need one another (option-combinations.ts): refused before the target is chosen or the run loaded.
    [['fuzz', '--shard', '2/4'], 2],
    [['fuzz', '--update-baseline'], 2],
  ])('policyfuzz %j: the command definitions only, none of the engine', async (args, exitCode) => {
    const { code, modules } = await modulesLoadedBy(args, `${args.join('_').replace(/[^\w-]+/g, '_')}.log`);
    expect(code).toBe(exitCode);
    // The hook saw the binary's own modules (a log that caught nothing would pass vacuously).
    expect(modules.some((m) => m.endsWith('/dist/cli/commands/sso.js'))).toBe(true);
    expect(modules.filter((m) => RUN_ONLY.some((part) => m.includes(part)))).toEqual([]);
  });
});

// What loading the pack, the target or a run needs: a bad config is answered before any of it.
const PACK_AND_ENGINE = ['/dist/engine/config/target.js', '/dist/engine/config/config-file.js', '/dist/packs/reference/index.js', '/dist/engine/db/migrations.js', '/dist/engine/model/', '/dist/engine/run/', '/dist/engine/runner/', '/node_modules/pg/', '/node_modules/fast-check/', '/node_modules/@faker-js/'];

describe('what the binary loads before it answers a bad config', () => {
  it.each([
    // Nothing to check against the schema: zod is not loaded either.
    ['not found', () => path.join(dir, 'absent.config.json'), /^policyfuzz: config file not found: /, ['/node_modules/zod/', '/dist/engine/config/config-schema.js']],
    ['a key it does not know', () => writeConfig('bad-key.config.json', { migrations: 'm', bogusKey: 1 }), /is not a valid policyfuzz config:\n {2}\(top level\): Unrecognized key: "bogusKey"/, []],
  ])('fuzz --config (%s): the config read and checked, the pack and the engine never loaded', async (_, config, message, alsoUnloaded) => {
    const file = config();
    const logFile = path.join(dir, `${path.basename(file)}.log`);
    const { code, stderr } = await runBin(['fuzz', '--config', file], { env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(hook).href}`, POLICYFUZZ_TEST_MODULE_LOG: logFile } });
    expect(stderr).toMatch(message);
    expect(code).toBe(2);
    const modules = readFileSync(logFile, 'utf8').split('\n').filter(Boolean).flatMap(bundledModules);
    // The config was checked by its own module (the log caught it), and nothing past it was loaded.
    expect(modules.some((m) => m.endsWith('/dist/engine/config/config-shape.js'))).toBe(true);
    expect(modules.filter((m) => [...PACK_AND_ENGINE, ...alsoUnloaded].some((part) => m.includes(part)))).toEqual([]);
  });
});

function writeConfig(name: string, config: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(config));
  return file;
}

// The SSO half proper (its properties, client, config reader, emulator server, thread): the
// commands' definitions may name the emulator's faults for `sso serve --help`, nothing more.
const SSO_HALF = ['/dist/sso/properties/', '/dist/sso/client/', '/dist/sso/config.js', '/dist/sso/emulator/server.js', '/dist/cli/fuzz/sso-thread-entry.js'];

describe('what a data-only run loads', () => {
  it('fuzz --no-sso runs the data half without loading the SSO half (~45 ms of CPU a start, in every binary test)', async () => {
    const report = path.join(dir, 'no-sso');
    const { code, stdout, modules } = await modulesLoadedBy(
      ['fuzz', '--no-sso', '--only', 'R01', '--runs', '5', '--seed', '1', '--database-url', inject('databaseUrl'), '--report-dir', path.join(report, 'report'), '--failures-dir', path.join(report, 'failures'), '--quiet'],
      'fuzz-no-sso.log',
    );
    expect(stdout).toMatch(/^1 passed, 0 failed/m);
    expect(code).toBe(0);
    // It ran: the data half's modules were loaded, and the log caught them.
    expect(modules.some((m) => m.endsWith('/dist/engine/run/data-run.js'))).toBe(true);
    expect(modules.filter((m) => SSO_HALF.some((part) => m.includes(part)))).toEqual([]);
    // Its faker pools come from the build (packs/reference/generators/faker.ts): faker itself stays unloaded.
    expect(modules.filter((m) => m.includes('@faker-js/'))).toEqual([]);
    // Nor Node's fetch (undici), which node-pg's Cloudflare probe loaded on Node 20 (45-85 ms of CPU a start; bin/policyfuzz.mjs).
    expect(modules.filter((m) => m.includes('undici'))).toEqual([]);
  });
});
