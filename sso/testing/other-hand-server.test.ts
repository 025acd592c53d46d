/**
 * `sso check` against an SSO service written in another hand (not the emulator): it passes on
 * the correct server whatever secure reading it chose, and each classic fault switched on in
 * that server is caught, under every one of 10 seeds at the default runs, by its own property.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ssoCheck, type Output } from '../../cli/sso-command.ts';
import { parseSsoConfig, type SsoConfigInput } from '../config.ts';
import { runSsoProperties } from '../properties/index.ts';
import example from '../examples/sso.config.json' with { type: 'json' };
import { startOtherHandServer, type OtherHandFault, type OtherHandServer } from './other-hand-server.ts';

/** The example's users; the first one's profile shows other names and mail than its token result. */
const users = example.users.map((u, i) => (i === 0 ? { ...u, profile: { ...u.profile, firstname: 'Somchai (staff directory)', email: 'somchai@staff.uni.example' } } : u));

/** The example's clients and these users, described as this service behaves. */
function configFor(codeLifetimeSeconds: number): SsoConfigInput {
  return {
    clients: example.clients,
    users,
    settings: { loginRedirectStatus: 303, codeLifetimeSeconds },
    loginPage: { usernameField: 'login_name', passwordField: 'secret' },
  };
}

const servers: OtherHandServer[] = [];
async function start(codeLifetimeSeconds: number, faults: OtherHandFault[] = []): Promise<OtherHandServer> {
  const s = await startOtherHandServer({ clients: example.clients, users, codeLifetimeSeconds, tokenLifetimeSeconds: 3600, faults });
  servers.push(s);
  return s;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pf-sso-other-'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

const quiet = (lines: string[]): Output => ({ out: (l) => lines.push(l), err: (l) => lines.push(`ERR ${l}`) });

describe('sso check against a server written in another hand', () => {
  it('passes (exit 0) under three seeds, accepting its readings where the spec is silent', async () => {
    const server = await start(60);
    const file = join(dir, 'other-hand.json');
    await writeFile(file, JSON.stringify(configFor(60)));
    const seen: Record<string, number> = {};
    const runs = await Promise.all(
      ['1', '2', '3'].map(async (seed) => {
        const lines: string[] = [];
        return { lines, ...(await ssoCheck({ web: server.webUrl, api: server.apiUrl, config: file, seed }, quiet(lines))) };
      }),
    );
    for (const { lines, exitCode, results } of runs) {
      const byId = Object.fromEntries(results.map((r) => [r.id, r]));
      expect(exitCode, lines.join('\n')).toBe(0);
      expect(results.filter((r) => r.status === 'failed' || r.status === 'error').map((r) => r.id), lines.join('\n')).toEqual(['S13']);
      // Replay revocation is a should: a WARN, named, and the exit code stays 0.
      expect(lines.some((l) => /^S13 +WARN/.test(l))).toBe(true);
      expect(byId['S06']).toMatchObject({ status: 'not-applicable', note: expect.stringContaining('--real-time') });
      for (const r of results) for (const [k, n] of Object.entries(r.counts)) seen[`${r.id} ${k}`] = (seen[`${r.id} ${k}`] ?? 0) + n;
    }
    // A real service is never probed for the emulator's control API.
    expect(server.paths.filter((p) => p.includes('__control'))).toEqual([]);
    expect(server.paths.length).toBeGreaterThan(1000);
    // Its own choices were met and accepted: 405 and 415, extra members and duplicate keys
    // ignored, the first of two Authorization lines, a fresh session at login.
    for (const k of ['S01 accepted-reading:logout-ended-codes', 'S01 accepted-reading:replay-kept-token', 'S10 method:405', 'S10 content-type:415', 'S10 form-encoded:415', 'S10 extra-field:ignored', 'S10 duplicate-key:ignored', 'S11 two-headers:200', 'S17 fixation:refused']) {
      expect(seen[k] ?? 0, `${k} in ${JSON.stringify(seen)}`).toBeGreaterThan(0);
    }
  }, 120_000);

  it('a driver that cannot log in ends the run with exit 2 and what the page showed', async () => {
    const server = await start(60);
    const file = join(dir, 'wrong-fields.json');
    await writeFile(file, JSON.stringify({ ...configFor(60), loginPage: {} }));
    const lines: string[] = [];
    const { exitCode } = await ssoCheck({ web: server.webUrl, api: server.apiUrl, config: file, seed: '1' }, quiet(lines)).catch((e: Error) => {
      lines.push(e.message);
      return { exitCode: 2 };
    });
    expect(exitCode).toBe(2);
    expect(lines.join('\n')).toMatch(/preflight login failed: .* the service answered a 200 page: "Sign in to intranet-portal/);
  }, 30_000);

  const FAULTS: [OtherHandFault, string, 'FAIL' | 'WARN'][] = [
    ['session-not-rotated', 'S17', 'FAIL'],
    ['predictable-token', 'S14', 'FAIL'],
    ['login-csrf-missing', 'S18', 'WARN'],
    ['code-never-expires', 'S06', 'FAIL'],
  ];
  const SEEDS = Array.from({ length: 10 }, (_, i) => 101 + i);

  for (const [fault, property, verdict] of FAULTS) {
    it(`${fault} is caught by ${property} under each of 10 seeds at the default runs; the correct server passes it`, async () => {
      // Real time: codes live 1 s here, so S06 waits about 2 s.
      const config = parseSsoConfig(configFor(1));
      const faulty = await start(1, [fault]);
      const clean = await start(1);
      const announced: string[] = [];
      const realTime = { maxWaitMs: 10_000, announce: (l: string) => announced.push(l) };
      const run = (s: OtherHandServer, seed: number) => runSsoProperties({ webUrl: s.webUrl, apiUrl: s.apiUrl, config, realTime }, { seed, only: [property] });
      const [caught, passed] = await Promise.all([Promise.all(SEEDS.map((seed) => run(faulty, seed))), Promise.all(SEEDS.map((seed) => run(clean, seed)))]);
      caught.forEach(([r], i) => expect(r, `seed ${SEEDS[i]}: ${JSON.stringify(r)}`).toMatchObject({ id: property, status: 'failed' }));
      passed.forEach(([r], i) => expect(r, `seed ${SEEDS[i]}: ${JSON.stringify(r)}`).toMatchObject({ id: property, status: 'passed' }));
      if (property === 'S06') expect(announced[0]).toMatch(/^S06: waiting 2\.0 s in real time past codeLifetimeSeconds \(1 s\)/);
      void verdict;
    }, 60_000);
  }
});
