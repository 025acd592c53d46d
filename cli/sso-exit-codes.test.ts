/**
 * Exit codes of `policyfuzz sso check|serve` through the real binary (bin/policyfuzz.mjs runs
 * the compiled dist/, so `npm run build` first; `npm test`'s pretest does). The emulator runs in
 * this process; the CLI is a child process, exactly as a CI job runs it.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator, type RunningEmulator } from '../sso/emulator/server.ts';
import { parseSsoConfig } from '../sso/config.ts';
import example from '../sso/examples/sso.config.json' with { type: 'json' };

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONFIG = fileURLToPath(new URL('../sso/examples/sso.config.json', import.meta.url));

function policyfuzz(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/policyfuzz.mjs', ...args], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let clean: RunningEmulator;
let faulty: RunningEmulator;
let dir: string;
beforeAll(async () => {
  const config = parseSsoConfig(example);
  clean = await startEmulator({ config });
  faulty = await startEmulator({ config, faults: ['reusable-code'] });
  dir = await mkdtemp(join(tmpdir(), 'pf-sso-exit-'));
  await writeFile(join(dir, 'empty.json'), '{}');
});
afterAll(async () => {
  await Promise.all([clean?.close(), faulty?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const target = (e: RunningEmulator) => ['--web', e.webUrl, '--api', e.apiUrl];

describe('policyfuzz sso: exit codes through bin/policyfuzz.mjs', () => {
  it('check exits 0 on a clean target', async () => {
    const r = await policyfuzz('sso', 'check', ...target(clean), '--config', CONFIG, '--seed', '3', '--runs', '3', '--only', 'S02,S04');
    expect(r.stdout).toMatch(/^S02 +PASS/m);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  }, 60_000);

  it('check exits 1 when a must property fails', async () => {
    const r = await policyfuzz('sso', 'check', ...target(faulty), '--config', CONFIG, '--seed', '3', '--runs', '3', '--only', 'S02');
    expect(r.stdout).toMatch(/^S02 +FAIL/m);
    expect(r.code, r.stdout + r.stderr).toBe(1);
  }, 60_000);

  it('bad input exits 2 with a one-line message naming what was wrong', async () => {
    const cases: [string[], RegExp][] = [
      [['sso', 'check', ...target(clean), '--config', join(dir, 'missing.json')], /cannot read SSO config .*missing\.json: ENOENT/],
      [['sso', 'check', ...target(clean), '--config', join(dir, 'empty.json')], /empty\.json is not a valid SSO config:\n\s+- clients: /],
      [['sso', 'check', '--web', 'notaurl', '--api', clean.apiUrl, '--config', CONFIG], /--web must be an absolute http\(s\) URL, got "notaurl"/],
      [['sso', 'serve', '--config', join(dir, 'missing.json')], /cannot read SSO config/],
      [['sso', 'serve', '--config', join(dir, 'empty.json')], /is not a valid SSO config/],
      [['sso', 'serve', '--config', CONFIG, '--port', '99999'], /--port must be between 0 and 65535/],
    ];
    const runs = await Promise.all(cases.map(([args]) => policyfuzz(...args)));
    runs.forEach((r, i) => {
      expect(r.stderr, cases[i]![0].join(' ')).toMatch(cases[i]![1]);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(r.code, cases[i]![0].join(' ')).toBe(2);
    });
  }, 60_000);
});
