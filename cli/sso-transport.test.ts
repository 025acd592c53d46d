/**
 * `policyfuzz sso check` through the real binary (bin/policyfuzz.mjs, a child process) against
 * targets that do not answer like a service, and against a real-style service whose post-login
 * redirect carries more than the code (issue 26).
 */
import { describe, it, expect, afterAll } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import example from '../sso/examples/sso.config.json' with { type: 'json' };
import { parseSsoConfig } from '../sso/config.ts';
import { startEmulator, type RunningEmulator } from '../sso/emulator/server.ts';
import { otherHandConfig, startOtherHandServer, type OtherHandFault, type OtherHandServer } from '../sso/testing/other-hand-server.ts';

const dir = tempDir('sso-transport');
const EXAMPLE = join(process.cwd(), 'sso/examples/sso.config.json');
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

/** A TCP server that accepts and then says nothing (silent) or resets the connection at the first byte. */
async function rawServer(mode: 'silent' | 'reset'): Promise<string> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    if (mode === 'reset') socket.on('data', () => socket.resetAndDestroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** A port that was free a moment ago: nothing listens there. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

const check = (web: string, api: string, config: string, ...extra: string[]) => runBin(['sso', 'check', '--web', web, '--api', api, '--config', config, ...extra]);

describe('sso check: a transport failure is one line naming the URL, the cause and the fix; exit 2', () => {
  it('closed port, connection reset, silent server (timeout), and an API that is down behind a live login page', async () => {
    const [closed, reset, silent] = await Promise.all([closedPort(), rawServer('reset'), rawServer('silent')]);
    const emulator: RunningEmulator = await startEmulator({ config: parseSsoConfig(example) });
    closers.push(() => emulator.close());
    const runs = await Promise.all([
      check(closed, `${closed}/api`, EXAMPLE),
      check(reset, `${reset}/api`, EXAMPLE),
      check(silent, `${silent}/api`, EXAMPLE, '--timeout-ms', '500'),
      check(emulator.webUrl, `${closed}/api`, EXAMPLE),
    ]);
    const expected = [
      new RegExp(`^error: GET ${closed}/login: connection refused \\(ECONNREFUSED\\): nothing listens on 127\\.0\\.0\\.1:\\d+; check the URL \\(--web, --api\\) and that the service is running$`),
      new RegExp(`^error: GET ${reset}/login: connection reset by the service \\(ECONNRESET\\): check the scheme \\(http or https\\) and the port of the URL`),
      new RegExp(`^error: GET ${silent}/login: no answer within 0\\.5 s \\(timeout\\): check that the service is up .*, or allow it longer with --timeout-ms$`),
      new RegExp(`^error: POST ${closed}/api/auth\\.token: connection refused \\(ECONNREFUSED\\)`),
    ];
    runs.forEach((run, i) => {
      const text = run.stdout + run.stderr;
      expect(run.code, text).toBe(2);
      expect(run.stderr.trimEnd().split('\n'), text).toHaveLength(1);
      expect(run.stderr.trimEnd(), text).toMatch(expected[i]!);
      expect(text).not.toMatch(/internal error|\n\s+at /);
      expect(run.stdout).not.toMatch(/^S\d\d /m);
    });
  }, 60_000);
});

describe('sso check: the preflight takes any post-login redirect with a code; the properties judge the rest', () => {
  async function otherHand(faults: OtherHandFault[]): Promise<{ server: OtherHandServer; config: string }> {
    const data = otherHandConfig(example);
    const server = await startOtherHandServer({ ...parseSsoConfig(data), faults });
    closers.push(() => server.close());
    const config = join(dir, `other-hand-${faults.join('-') || 'correct'}.json`);
    await writeFile(config, JSON.stringify(data));
    return { server, config };
  }

  it('a correct server adding iss passes (exit 0); one leaking its session cookie in the redirect is an S09 finding (exit 1), not a setup error', async () => {
    const [correct, leaking] = await Promise.all([otherHand([]), otherHand(['session-in-redirect'])]);
    const [ok, leak] = await Promise.all([
      check(correct.server.webUrl, correct.server.apiUrl, correct.config, '--seed', '5', '--runs', '10', '--only', 'S04,S07,S09'),
      check(leaking.server.webUrl, leaking.server.apiUrl, leaking.config, '--seed', '5', '--runs', '10', '--only', 'S07,S09'),
    ]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^S07 {2}PASS/m);
    expect(leak.code, leak.stdout + leak.stderr).toBe(1);
    expect(leak.stdout).toMatch(/^S07 {2}PASS/m);
    expect(leak.stdout).toMatch(/^S09 {2}FAIL/m);
    expect(leak.stdout).toMatch(/the front-channel URL carries the value of the cookie osid/);
    expect(leak.stderr).not.toMatch(/preflight/);
  }, 60_000);
});
