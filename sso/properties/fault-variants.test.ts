import { describe, it, expect, afterAll } from 'vitest';
import { ssoCheck, type Output } from '../../cli/sso-command.ts';
import { startEmulator, type RunningEmulator } from '../emulator/server.ts';
import type { SsoFault } from '../emulator/faults/index.ts';
import { parseSsoConfig } from '../config.ts';
import { severityOf } from './index.ts';
import example from '../examples/sso.config.json' with { type: 'json' };

const CONFIG = new URL('../examples/sso.config.json', import.meta.url).pathname;
const config = parseSsoConfig(example);

/** Each broken variant of the emulator and the property that exists to catch it. */
const EXPECTED: [SsoFault, string][] = [
  ['reusable-code', 'S02'],
  ['redirect-prefix-match', 'S04'],
  ['logout-follows-redirect-param', 'S08'],
  ['token-survives-logout', 'S11'],
  ['malformed-json-500', 'S10'],
  ['ignore-client-secret', 'S05'],
  ['code-never-expires', 'S06'],
  ['login-redirect-307', 'S07'],
  ['login-follows-redirect-uri', 'S07'],
  ['token-in-front-channel', 'S09'],
  ['profile-camelcase', 'S12'],
  ['guessable-codes', 'S14'],
  ['no-frame-protection', 'S15'],
  // S16 is a should: a WARN, and the exit code stays 0.
  ['token-in-query-accepted', 'S16'],
  ['login-accepts-cross-site-post', 'S19'],
  // Only the model-based run sees that a failed exchange must burn the code.
  ['failed-exchange-keeps-code', 'S01'],
];

const timings: { fault: string; property: string; propertyMs: number; checkMs: number; failedAlso: string }[] = [];
const running: RunningEmulator[] = [];
afterAll(async () => {
  await Promise.all(running.map((e) => e.close()));
  console.log(['fault → property: time to catch (property run / whole sso check)', ...timings.map((t) => `  ${t.fault.padEnd(30)} ${t.property}  ${String(t.propertyMs).padStart(5)} ms / ${String(t.checkMs).padStart(5)} ms   (also failed: ${t.failedAlso || '-'})`)].join('\n'));
});

describe('sso check fails on every broken emulator variant, naming the property', () => {
  for (const [fault, property] of EXPECTED) {
    it(`${fault} → ${property}`, async () => {
      const emu = await startEmulator({ config, faults: [fault] });
      running.push(emu);
      const lines: string[] = [];
      const io: Output = { out: (l) => lines.push(l), err: (l) => lines.push(l) };
      const t = performance.now();
      const should = severityOf(property) === 'S';
      // A must's fault: only its property runs (each property's cases come from the seed alone, so
      // it fails as in a whole check: the replay line below says so). A should's: the whole check,
      // to show it hides no must; each whole check cost up to 15 s at a load of 17 on 2 cores.
      const { exitCode, results } = await ssoCheck({ web: emu.webUrl, api: emu.apiUrl, config: CONFIG, seed: '7', runs: '15', controlApi: true, ...(should ? {} : { only: property }) }, io);
      const checkMs = Math.round(performance.now() - t);
      const hit = results.find((r) => r.id === property)!;
      expect(hit.status, lines.join('\n')).toBe('failed');
      expect(exitCode, lines.join('\n')).toBe(should ? 0 : 1);
      expect(hit.failure).toMatchObject({ seed: 7, path: expect.any(String), message: expect.any(String) });
      expect(lines.some((l) => l.startsWith(`${property}  ${should ? 'WARN' : 'FAIL'}`))).toBe(true);
      // A should never hides a must: nothing else failed or errored.
      if (should) expect(results.filter((r) => r.id !== property && r.status !== 'passed' && r.status !== 'not-applicable')).toEqual([]);
      expect(lines.join('\n')).toContain(`replay: --seed 7 --only ${property} --path ${hit.failure!.path}`);
      // The report names registered users instead of repeating their passwords.
      expect(JSON.stringify(hit.failure!.counterexample)).not.toMatch(/correct-horse/);
      // S01 names the open setting that explains the difference when one does.
      if (fault === 'failed-exchange-keeps-code') expect(hit.failure!.message).toContain('a setting or a fault: what was observed matches setting failedExchangeConsumesCode (configured true; the service behaves as if it were false)');
      expect(hit.failure!.message).toMatch(/diff \(expected → observed\):\n {2}\$/);
      timings.push({ fault, property, propertyMs: hit.durationMs, checkMs, failedAlso: results.filter((r) => r.status === 'failed' && r.id !== property).map((r) => r.id).join(',') });
    }, 60_000);
  }

  it('replays a failure from its seed and path', async () => {
    const emu = await startEmulator({ config, faults: ['redirect-prefix-match'] });
    running.push(emu);
    const quiet: Output = { out: () => {}, err: () => {} };
    const first = await ssoCheck({ web: emu.webUrl, api: emu.apiUrl, config: CONFIG, seed: '11', runs: '15', only: 'S04' }, quiet);
    const failure = first.results[0]!.failure!;
    const replay = await ssoCheck({ web: emu.webUrl, api: emu.apiUrl, config: CONFIG, seed: '11', runs: '15', only: 'S04', path: failure.path }, quiet);
    expect(replay.results[0]!.failure!.counterexample).toEqual(failure.counterexample);
    expect(replay.results[0]!.cases).toBe(1);
  }, 30_000);
});
