/**
 * Exit codes of `policyfuzz sso check` / `sso serve` as a user gets them: the real binary
 * (bin/policyfuzz.mjs, which runs the compiled dist/; `npm test` builds it first) as a child process.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator, type RunningEmulator } from '../sso/emulator/server.ts';
import { loadSsoConfig } from '../sso/config.ts';
import { tempDir } from '../testing/temp-dir.ts';

const BIN = fileURLToPath(new URL('../bin/policyfuzz.mjs', import.meta.url));
const CONFIG = fileURLToPath(new URL('../sso/examples/sso.config.json', import.meta.url));
const running: RunningEmulator[] = [];
afterAll(async () => {
  await Promise.all(running.map((e) => e.close()));
});

function policyfuzz(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function emulator(faults: Parameters<typeof startEmulator>[0]['faults'] = []): Promise<RunningEmulator> {
  const emu = await startEmulator({ config: await loadSsoConfig(CONFIG), faults });
  running.push(emu);
  return emu;
}

describe('policyfuzz sso exit codes through bin/policyfuzz.mjs', () => {
  it('check stops cleanly on SIGTERM: no ERROR rows, what ran is reported (the property under way cut short), exit 130', async () => {
    const emu = await emulator();
    const child = spawn(process.execPath, [BIN, 'sso', 'check', '--web', emu.webUrl, '--api', emu.apiUrl, '--config', CONFIG, '--seed', '1', '--runs', '100000', '--only', 'S03,S02'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stdout += c.toString()));
    // The legend is printed in the same tick as the signal handlers are installed.
    while (!stdout.includes('M = must')) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code, stdout).toBe(130);
    expect(stdout).toContain('interrupted by SIGTERM: 0 of 2 properties finished, 1 cut short; the rest did not run');
    expect(stdout).not.toMatch(/ERROR|internal error/);
  }, 30_000);

  it('check: 0 on a clean target, 1 when a must fails, 2 on bad input', async () => {
    const clean = await emulator();
    const faulty = await emulator(['reusable-code']);
    // Named by this process (tempDir): removed at the file's end, or by the next run's sweep if this one is killed.
    const tmp = tempDir('sso-exit');
    const emptyConfig = join(tmp, 'empty.json');
    await writeFile(emptyConfig, '{}');
    const example = JSON.parse(await readFile(CONFIG, 'utf8'));
    const wrongPassword = join(tmp, 'wrong-password.json');
    await writeFile(wrongPassword, JSON.stringify({ ...example, users: [{ ...example.users[0], password: 'not-the-password' }, ...example.users.slice(1)] }));
    const check = (emu: RunningEmulator, ...extra: string[]) => ['sso', 'check', '--web', emu.webUrl, '--api', emu.apiUrl, '--config', CONFIG, '--seed', '3', '--runs', '5', ...extra];

    const [ok, failed, missing, empty, badWeb, badServe, preflight] = await Promise.all([
      policyfuzz(...check(clean, '--only', 'S02,S10')),
      policyfuzz(...check(faulty, '--only', 'S02')),
      policyfuzz('sso', 'check', '--web', clean.webUrl, '--api', clean.apiUrl, '--config', join(tmp, 'nope.json')),
      policyfuzz('sso', 'check', '--web', clean.webUrl, '--api', clean.apiUrl, '--config', emptyConfig),
      policyfuzz('sso', 'check', '--web', 'notaurl', '--api', clean.apiUrl, '--config', CONFIG),
      policyfuzz('sso', 'serve', '--config', emptyConfig),
      policyfuzz('sso', 'check', '--web', clean.webUrl, '--api', clean.apiUrl, '--config', wrongPassword, '--only', 'S02'),
    ]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^S02 {2}PASS .*\[M\]/m);
    expect(failed.code, failed.stdout + failed.stderr).toBe(1);
    expect(failed.stdout).toMatch(/^S02 {2}FAIL .*\[M\]/m);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read SSO config .*nope\.json: ENOENT/);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/empty\.json is not a valid SSO config/);
    expect(badWeb.code).toBe(2);
    expect(badWeb.stderr).toContain('--web must be an absolute http(s) URL, got "notaurl"');
    expect(badServe.code).toBe(2);
    expect(badServe.stderr).toMatch(/not a valid SSO config/);
    // A driver that cannot log in ends the run before any property, saying what the page showed.
    expect(preflight.code, preflight.stdout + preflight.stderr).toBe(2);
    expect(preflight.stderr).toMatch(/preflight login failed: logging in somchai\.j to .* gave a 401 page: title "Sign in"; text ".*Wrong username or password\./);
    expect(preflight.stdout).not.toMatch(/^S02/m);
    for (const r of [missing, empty, badWeb, badServe, preflight]) expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  }, 60_000);
});
