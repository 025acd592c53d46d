import { describe, expect, it } from 'vitest';
import { parseDuration, parseShard, PROFILES, ssoReserveMs, ssoSlowdown } from './profiles.ts';
import { UsageError } from '../engine/errors.ts';
import { plannedRuns } from '../engine/runner/run-data-property.ts';

describe('profiles and their values', () => {
  it('durations', () => {
    expect(parseDuration('20m')).toBe(1_200_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('90')).toBe(90_000);
    expect(parseDuration('1500ms')).toBe(1500);
    expect(parseDuration('2.5s')).toBe(2500);
    expect(parseDuration('m20')).toBeUndefined();
    expect(parseDuration('20 minutes')).toBeUndefined();
  });

  it('shards are 1-based i/n', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard('0/4')).toBeUndefined();
    expect(parseShard('5/4')).toBeUndefined();
  });

  it('lanes split the runs exactly: the shards of a run add up to it', () => {
    for (const runs of [1, 7, 150, 301]) {
      const whole = plannedRuns(runs, { first: 0, count: 6, total: 6 });
      const parts = [0, 2, 4].map((first) => plannedRuns(runs, { first, count: 2, total: 6 }));
      expect(parts.reduce((a, b) => a + b, 0)).toBe(whole);
      expect(whole).toBe(runs);
    }
  });

  it('the pr profile is the fast one', () => {
    expect(PROFILES.pr.timeBudgetMs).toBeLessThan(60_000);
    expect(PROFILES.nightly.runs).toBeGreaterThan(PROFILES.pr.runs);
    expect(PROFILES.nightly.sso).toBe(true);
    // npm run fuzz covers the whole mission: the SSO half runs in the pr profile too.
    expect(PROFILES.pr.sso).toBe(true);
  });
});

describe('what the SSO half needs at the present load', () => {
  it('its calibrated reserve up to 2 runnable tasks a core, scaled above; POLICYFUZZ_SLOWDOWN overrides, refused (exit 2) when not a number ≥ 1', () => {
    expect(ssoSlowdown({}, 1, 2)).toBe(1);
    expect(ssoSlowdown({}, 14, 2)).toBe(3.5);
    expect(ssoReserveMs(20, 25, ssoSlowdown({}, 14, 2))).toBe(21_000);
    expect(ssoSlowdown({ POLICYFUZZ_SLOWDOWN: '4' }, 1, 2)).toBe(4);
    expect(ssoSlowdown({ POLICYFUZZ_SLOWDOWN: '' }, 14, 2)).toBe(3.5);
    for (const bad of ['fast', '0.5', '0', 'Infinity', '-2']) expect(() => ssoSlowdown({ POLICYFUZZ_SLOWDOWN: bad }, 14, 2)).toThrow(new UsageError(`POLICYFUZZ_SLOWDOWN: "${bad}" is not a number ≥ 1 (how many times slower than calibrated the SSO half runs); unset it to follow the load average`));
  });
});
