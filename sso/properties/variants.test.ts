import { describe, it, expect, afterAll } from 'vitest';
import { startEmulator, type RunningEmulator } from '../emulator/server.ts';
import { parseSsoConfig } from '../config.ts';
import { runSsoProperties } from './index.ts';
import { malformations } from './s10-malformed-token-requests.ts';
import example from '../examples/sso.config.json' with { type: 'json' };

const config = parseSsoConfig(example);
const running: RunningEmulator[] = [];
afterAll(async () => Promise.all(running.map((e) => e.close())));

/** Variant names in a result's counts (`variant:outcome` or `variant:detail:outcome`). */
const variantsSeen = (counts: Record<string, number>, depth = 1) => new Set(Object.keys(counts).map((k) => k.split(':').slice(0, depth).join(':')));

describe('every variant runs in every run, whatever the seed and however few runs', () => {
  it('with --runs 1, S10 and S11 still try each of their variants, and the counts show each', async () => {
    const clean = await startEmulator({ config });
    const faulty = await startEmulator({ config, faults: ['malformed-json-500'] });
    running.push(clean, faulty);
    for (const seed of [1, 2]) {
      const [s10, s11] = await runSsoProperties({ webUrl: clean.webUrl, apiUrl: clean.apiUrl, config, control: true }, { seed, numRuns: 1, only: ['S10', 'S11'] });
      expect(s10!.cases).toBe(malformations().length);
      const seen10 = [...variantsSeen(s10!.counts)];
      expect(seen10.filter((v) => !v.startsWith('json-')).sort()).toEqual(['__proto__-key', 'array-wrapped', 'content-type', 'control-char', 'duplicate-key', 'extra-field', 'form-encoded', 'huge', 'method', 'missing', 'nested', 'not-json', 'truncated-json', 'wrong-type']);
      expect(seen10.filter((v) => v.startsWith('json-'))).toHaveLength(1); // one arm: a JSON value that is not an object
      for (const v of ['missing', 'scheme', 'empty', 'bare-scheme', 'token-only', 'spaces', 'two-headers', 'random', 'truncated', 'head-cut', 'extended', 'bit-flipped', 'logged-out', 'expired']) {
        expect(variantsSeen(s11!.counts).has(v), `${v} in ${JSON.stringify(s11!.counts)}`).toBe(true);
      }
      // The fault that only one variant reaches is found at once, under every seed.
      const [found] = await runSsoProperties({ webUrl: faulty.webUrl, apiUrl: faulty.apiUrl, config, control: true }, { seed, numRuns: 1, only: ['S10'] });
      expect(found!.status).toBe('failed');
      expect(found!.failure!.message).toMatch(/not-json/);
    }
  }, 30_000);

  it('S03, S04, S05, S07 and S08 cover their variants with --runs 1', async () => {
    const emu = await startEmulator({ config });
    running.push(emu);
    const results = await runSsoProperties({ webUrl: emu.webUrl, apiUrl: emu.apiUrl, config, control: true }, { seed: 9, numRuns: 1, only: ['S03', 'S04', 'S05', 'S07', 'S08'] });
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    expect(results.every((r) => r.status === 'passed'), JSON.stringify(results)).toBe(true);
    expect(variantsSeen(byId['S03']!.counts).size).toBe(4);
    expect(variantsSeen(byId['S04']!.counts)).toEqual(new Set(['trailing-slash', 'host-case', 'scheme-swap', 'explicit-port', 'other-port', 'extra-query', 'fragment', 'percent-encoded', 'dot-segment', 'dot-dot', 'leading-space', 'trailing-space', 'nul', 'suffix', 'path-case', 'unicode-lookalike', 'nfd', 'userinfo', 'prefix-extension', 'empty', 'other-client']));
    expect(variantsSeen(byId['S05']!.counts, 2)).toEqual(new Set(['secret:empty', 'secret:case-flip', 'secret:all-caps', 'secret:whitespace', 'secret:leading-space', 'secret:truncated', 'secret:extended', 'secret:random', 'secret:missing', 'client-id:unknown', 'client-id:case-flip']));
    for (const id of ['S07', 'S08']) {
      const bad = new Set(Object.keys(byId[id]!.counts).filter((k) => k.startsWith('bad-app:')).map((k) => k.split(':')[1]));
      expect(bad, id).toEqual(new Set(['missing', 'empty', 'duplicated', 'case-flip', 'whitespace', 'suffix', 'encoded', 'other-name', 'unknown']));
    }
  }, 30_000);
});
