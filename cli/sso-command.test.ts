import { describe, it, expect, afterAll, afterEach } from 'vitest';
import { ssoCheck, ssoServe, type Output } from './sso-command.ts';
import type { RunningEmulator } from '../sso/emulator/server.ts';

const CONFIG = new URL('../sso/examples/sso.config.json', import.meta.url).pathname;
const running: RunningEmulator[] = [];
afterAll(async () => Promise.all(running.map((e) => e.close())));

function capture(): Output & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (l) => lines.push(l), err: (l) => lines.push(`ERR ${l}`) };
}

describe('sso CLI', () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it('serve prints the two base URLs; check passes against it with exit code 0', async () => {
    const io = capture();
    const emu = await ssoServe({ config: CONFIG }, io);
    running.push(emu);
    expect(io.lines[0]).toMatch(/^policyfuzz SSO emulator on 127\.0\.0\.1:\d+$/);
    expect(io.lines.join('\n')).toContain(`sso_api_url  ${emu.apiUrl}`);
    const check = capture();
    const { exitCode, results } = await ssoCheck({ web: emu.webUrl, api: emu.apiUrl, config: CONFIG, seed: '5', runs: '5', throttleMs: '0', maxRequests: '5000', controlApi: true }, check);
    expect(exitCode, check.lines.join('\n')).toBe(0);
    expect(results).toHaveLength(20);
    expect(check.lines.filter((l) => /^S\d\d {2}PASS/.test(l))).toHaveLength(20);
    expect(check.lines.at(-1)).toBe('20 passed, 0 failed, 0 not applicable, 0 errors (seed 5)');
  }, 30_000);

  it('check exits 1 naming the property when the target breaks it', async () => {
    const emu = await ssoServe({ config: CONFIG, fault: ['code-never-expires'] }, capture());
    running.push(emu);
    const io = capture();
    const { exitCode } = await ssoCheck({ web: emu.webUrl, api: emu.apiUrl, config: CONFIG, seed: '1', runs: '5', only: 'S06,S02', controlApi: true }, io);
    expect(exitCode).toBe(1);
    expect(io.lines.some((l) => l.startsWith('S06  FAIL'))).toBe(true);
    expect(io.lines.some((l) => l.startsWith('S02  PASS'))).toBe(true);
  });
});
