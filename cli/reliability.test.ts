/**
 * A clean target stays green, through the real binary: the shipped profiles' request caps, sharded
 * runs merged, a connecting role that lacks what a run needs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { RunSummary } from '../engine/report/summary.ts';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { PROFILES } from './profiles.ts';
import { ssoPropertyIds } from './sso-integration.ts';

const summaryOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as RunSummary;
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

describe('the nightly profile on the clean reference', () => {
  it("runs every SSO property at the nightly's cases under its request cap, under two seeds (both ran out at 20 000)", async () => {
    // The data half's cases are shortened elsewhere; the SSO half here is the nightly's in full
    // (its cases and its cap), the half that ran out of requests.
    const only = (await ssoPropertyIds()).join(',');
    for (const seed of [1, 2]) {
      const dir = tempDir('nightly-sso');
      const r = await runBin(['fuzz', '--profile', 'nightly', '--only', only, '--seed', String(seed), '--no-replay', '--no-color', '--report-dir', dir, '--failures-dir', path.join(dir, 'f')]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(lastLine(r.stdout)).toBe(`19 passed, 0 failed (seed ${seed})`);
      expect(r.stdout).toContain(`${PROFILES.nightly.ssoRuns} runs each`);
    }
  }, 300_000);
});
