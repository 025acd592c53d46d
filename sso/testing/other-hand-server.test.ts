/**
 * `sso check` against an SSO service written in a different hand (plain node:http, not the
 * emulator): it passes under three seeds, and each classic fault switched on is caught in every
 * seed at the default runs by the property that exists for it (10 of 10 measured, 2 in the suite).
 */
import { describe, it, expect, afterAll } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ssoCheck, type Output } from '../../cli/sso-command.ts';
import example from '../examples/sso.config.json' with { type: 'json' };
import { OTHER_HAND_FAULTS, otherHandConfig, startOtherHandServer, type OtherHandFault, type OtherHandServer } from './other-hand-server.ts';
import { parseSsoConfig } from '../config.ts';
import { severityOf } from '../properties/index.ts';

const CODE_LIFETIME_S = 2;
/** The example config for this server: two Redirect URLs for the first client. */
const CONFIG = otherHandConfig(example, CODE_LIFETIME_S);
const servers: OtherHandServer[] = [];
let dir: string | undefined;
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function configFile(): Promise<string> {
  dir ??= await mkdtemp(join(tmpdir(), 'pf-other-hand-'));
  const file = join(dir, 'sso.config.json');
  await writeFile(file, JSON.stringify(CONFIG));
  return file;
}

async function server(faults: OtherHandFault[] = []): Promise<OtherHandServer> {
  const config = parseSsoConfig(CONFIG);
  const s = await startOtherHandServer({ clients: config.clients, users: config.users, codeLifetimeMs: CODE_LIFETIME_S * 1000, faults });
  servers.push(s);
  return s;
}

function capture(): Output & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (l) => lines.push(l), err: (l) => lines.push(`ERR ${l}`) };
}

// Each ssoCheck listens for SIGTERM and SIGINT while it runs and stops listening when it ends; this
// file runs up to 80 at once in one process, more than Node's default of 10 listeners before it warns.
process.setMaxListeners(100);

describe('sso check against a server written in a different hand', () => {
  it('passes under three seeds (real-time expiry by default, iss in its redirect, two Redirect URLs for a client); replay revocation is only a should', async () => {
    const config = await configFile();
    const srv = await server();
    const runs = await Promise.all(
      ['1', '2', '3'].map(async (seed) => {
        const io = capture();
        return { io, ...(await ssoCheck({ web: srv.webUrl, api: srv.apiUrl, config, seed, runs: '12', maxWait: '5' }, io)) };
      }),
    );
    // S01 met another reading (a replayed code's token kept) and accepted it.
    const readings = runs.flatMap(({ results }) => Object.keys(results.find((r) => r.id === 'S01')!.counts).filter((k) => k.startsWith('reading:')));
    expect(readings).toContain('reading:replay-kept-token');
    for (const { io, exitCode, results } of runs) {
      const text = io.lines.join('\n');
      expect(exitCode, text).toBe(0);
      // Only S13 may warn: this server keeps a token when its code is replayed (RFC 6749 SHOULD).
      expect(results.filter((r) => r.status !== 'passed').map((r) => `${r.id}:${r.status}`), text).toEqual(['S13:failed']);
      expect(text).toMatch(/^S13 {2}WARN .*\[S\]/m);
      expect(results.find((r) => r.id === 'S06')!.note).toMatch(/^real-time mode: waited 3\.0 s/);
      expect(text).toMatch(/^waiting up to 3 s for code expiry \(S06: code lifetime 2 s, token lifetime 3600 s, beyond the 5 s bound \(--max-wait\), not waited for\); --no-wait to skip$/m);
      // Its redirect's iss and echoed state were judged and accepted.
      expect(Object.keys(results.find((r) => r.id === 'S07')!.counts)).toEqual(expect.arrayContaining(['added:iss', 'added:state']));
      // The lenient readings were met and accepted, not skipped.
      const s10 = results.find((r) => r.id === 'S10')!.counts;
      expect(Object.keys(s10).some((k) => /^(content-type|method|form-encoded):4\d\d$/.test(k)), JSON.stringify(s10)).toBe(true);
    }
  }, 60_000);

  const FAULTS: [OtherHandFault, string][] = [
    ['session-not-rotated', 'S17'],
    ['predictable-tokens', 'S18'],
    ['cross-site-login', 'S19'],
    ['code-never-expires', 'S06'],
    ['session-in-redirect', 'S09'],
    ['code-bound-to-client-only', 'S04'],
    ['wrong-iss', 'S07'],
    ['state-truncated', 'S07'],
    ['profile-cache', 'S11'],
    ['revocation-cached', 'S11'],
    ['token-request-in-query', 'S10'],
    ['token-request-as-form', 'S10'],
    ['logout-follows-referer', 'S08'],
    ['markup-reflection', 'S20'],
    ['token-field-renamed', 'S12'],
  ];
  it('catches each fault in every seed at the default runs, by its named property', async () => {
    // Every switch the server has is in the table: none goes untested.
    expect(FAULTS.map(([f]) => f).sort()).toEqual([...OTHER_HAND_FAULTS].sort());
    const config = await configFile();
    // 10 seeds were measured for every fault (PF_OTHER_HAND_SEEDS=10, about 150 s on an idle 2-core machine); the suite runs 2.
    const seeds = Array.from({ length: Number(process.env['PF_OTHER_HAND_SEEDS'] ?? 2) }, (_, i) => String(100 + i));
    const outcomes = await Promise.all(
      FAULTS.flatMap(([fault, property]) =>
        seeds.map(async (seed) => {
          const srv = await server([fault]);
          const io = capture();
          const { exitCode, results } = await ssoCheck({ web: srv.webUrl, api: srv.apiUrl, config, seed, only: property, maxWait: '5' }, io);
          return { fault, property, seed, exitCode, status: results[0]!.status, text: io.lines.join('\n') };
        }),
      ),
    );
    for (const o of outcomes) {
      expect(o.status, `${o.fault} seed ${o.seed}\n${o.text}`).toBe('failed');
      const should = severityOf(o.property) === 'S';
      expect(o.exitCode, o.text).toBe(should ? 0 : 1);
      expect(o.text).toMatch(new RegExp(`^${o.property} {2}${should ? 'WARN' : 'FAIL'}`, 'm'));
    }
  }, 300_000);

  it('a profile cache that outlives logout is a fault, not a setting: S01 and S11 name no setting', async () => {
    const config = await configFile();
    const outcomes = await Promise.all(
      // S11 catches it under every seed; S01 under 5 of 200–209 (200, 202, 205, 206, 208): three of them.
      ['200', '205', '208'].map(async (seed) => {
        const srv = await server(['profile-cache']);
        const io = capture();
        const { results } = await ssoCheck({ web: srv.webUrl, api: srv.apiUrl, config, seed, only: 'S01,S11' }, io);
        return { seed, results, text: io.lines.join('\n') };
      }),
    );
    for (const { results, text } of outcomes) {
      expect(results.find((r) => r.id === 'S11')!.status, text).toBe('failed');
      expect(text).toMatch(/they disagree: user\.profile 200, auth\.status 401; a fault under any setting/);
      expect(text).not.toMatch(/a setting or a fault/);
    }
    // S01 meets it too under these seeds, and then says why no setting explains it.
    const s01 = outcomes.filter(({ results }) => results.find((r) => r.id === 'S01')!.status === 'failed');
    expect(s01.length, outcomes.map((o) => o.text).join('\n')).toBe(3);
    for (const { text } of s01) expect(text).toMatch(/auth\.status answered 401 for the same token, as the configured settings predict, so no setting explains it: a fault/);
  }, 300_000);
});
