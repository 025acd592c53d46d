import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { parseSsoConfig, type SsoConfig } from '../config.ts';
import example from '../examples/sso.config.json' with { type: 'json' };
import { startEmulator, type RunningEmulator } from '../emulator/server.ts';
import { runSsoProperties, SSO_PROPERTIES } from './index.ts';

const SEED = 20240521;

describe('SSO properties on the strict emulator', () => {
  const strict = parseSsoConfig(example);
  // The other answer to every open question: the model and the emulator must follow it too.
  const lenient = parseSsoConfig({
    ...example,
    settings: { codeLifetimeSeconds: 300, failedExchangeConsumesCode: false, replayRevokesToken: false, logoutRevokesTokens: false, silentLoginWithSession: false, loginRedirectStatus: 303, logoutRedirectStatus: 303 },
  });
  const emulators: RunningEmulator[] = [];
  const start = async (config: SsoConfig) => {
    const e = await startEmulator({ config });
    emulators.push(e);
    return e;
  };
  beforeAll(() => {});
  afterAll(async () => {
    await Promise.all(emulators.map((e) => e.close()));
  });

  it('every property passes with the default settings', async () => {
    const emu = await start(strict);
    const results = await runSsoProperties({ webUrl: emu.webUrl, apiUrl: emu.apiUrl, config: strict, control: true }, { seed: SEED, numRuns: 15 });
    expect(results.map((r) => r.id)).toEqual(SSO_PROPERTIES.map((p) => p.id));
    for (const r of results) {
      expect(r.area).toBe('sso');
      expect({ id: r.id, status: r.status, failure: r.failure, note: r.note }).toMatchObject({ id: r.id, status: 'passed' });
      // These run one case per variant on top of the 15 generated ones.
      if (['S04', 'S05', 'S07', 'S08', 'S10', 'S11', 'S15', 'S20'].includes(r.id)) expect(r.cases).toBeGreaterThan(15);
      else expect(r.cases).toBe(15);
    }
  }, 60_000);

  it('the emulator agrees with the model (S01) under the opposite settings, and the settings-bound properties say N/A', async () => {
    const emu = await start(lenient);
    const results = await runSsoProperties({ webUrl: emu.webUrl, apiUrl: emu.apiUrl, config: lenient, control: true }, { seed: SEED, numRuns: 20, only: ['S01', 'S02', 'S07', 'S11', 'S13'] });
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    expect(byId['S01']).toMatchObject({ status: 'passed', cases: 20 });
    expect(byId['S02']!.status).toBe('passed');
    expect(byId['S07']!.status).toBe('passed');
    expect(byId['S11']!.status).toBe('passed');
    expect(byId['S13']).toMatchObject({ status: 'not-applicable', note: expect.stringContaining('replayRevokesToken') });
  }, 60_000);

  it('says N/A for expiry without a control API, and is deterministic for a seed', async () => {
    const emu = await start(strict);
    const target = { webUrl: emu.webUrl, apiUrl: emu.apiUrl, config: strict, control: false };
    const a = await runSsoProperties(target, { seed: SEED, numRuns: 8, only: ['S04', 'S06'] });
    const b = await runSsoProperties(target, { seed: SEED, numRuns: 8, only: ['S04', 'S06'] });
    expect(a[1]).toMatchObject({ id: 'S06', status: 'not-applicable', note: expect.stringContaining('control API') });
    expect(a[0]!.status).toBe('passed');
    expect(a[0]!.counts).toEqual(b[0]!.counts);
  }, 30_000);

  it('ends the property PARTIAL with the cases run (never ERROR) when the request cap is reached, and the next NOT REACHED', async () => {
    const emu = await start(strict);
    const [r, next] = await runSsoProperties({ webUrl: emu.webUrl, apiUrl: emu.apiUrl, config: strict, maxRequests: 10 }, { seed: SEED, numRuns: 20, only: ['S03', 'S07'] });
    expect(r).toMatchObject({ status: 'partial', planned: 20, note: expect.stringMatching(/^partial \(\d+ of 20 cases\): request budget of 10 used up$/) });
    expect(r!.cases).toBeGreaterThan(0);
    expect(next).toMatchObject({ status: 'not-reached', cases: 0, note: 'not reached: request budget of 10 used up before its first case' });
  });

  it('rejects unknown property ids', async () => {
    await expect(runSsoProperties({ webUrl: 'http://127.0.0.1:1', apiUrl: 'http://127.0.0.1:1', config: strict, control: false }, { only: ['S99'] })).rejects.toThrow(/unknown SSO property id\(s\): S99/);
  });
});
