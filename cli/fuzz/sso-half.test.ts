/**
 * The SSO half's thread failing (it crashed, or could not send its results) costs its own
 * properties their verdicts, never the run: each is an ERROR, named, and the run goes on to
 * report the data half's findings. (The thread itself runs from the compiled dist/ only:
 * cli/budget.test.ts, cli/sso-half-limits.test.ts run it through bin/policyfuzz.mjs.)
 */
import { describe, expect, it } from 'vitest';
import { RunEvents, type RunEvent } from '../../engine/report/run-events.ts';
import { RunControl } from '../../engine/run/index.ts';
import type { RunPlan } from './plan.ts';
import { runSsoHalf } from './sso-half.ts';
import type { SsoThread } from './sso-thread.ts';

describe("the SSO half's thread", () => {
  it('that fails before answering leaves each SSO property an ERROR naming why; runSsoHalf resolves', async () => {
    const seen: RunEvent[] = [];
    const events = new RunEvents().subscribe({ on: (e) => void seen.push(e) });
    const control = new RunControl(events, undefined);
    const plan = { ssoIds: ['S02', 'S03'], seed: 4, options: {}, profile: { ssoRuns: 25 }, savedSso: [] } as unknown as RunPlan;
    const answer = Promise.reject(new Error('DataCloneError: could not be cloned'));
    answer.catch(() => {});
    const thread: SsoThread = { answer, stop: async () => {} };
    try {
      const sso = await runSsoHalf(plan, events, control, thread);
      expect(sso.results.map((r) => [r.id, r.area, r.status, r.seed])).toEqual([
        ['S02', 'sso', 'error', 4],
        ['S03', 'sso', 'error', 4],
      ]);
      for (const r of sso.results) expect(r.note).toMatch(/^harness error: the SSO half's thread failed before its results \(DataCloneError: could not be cloned\); POLICYFUZZ_SSO_THREAD=off/);
      expect(sso.results[0]!.title).not.toBe('S02');
      expect(seen.filter((e) => e.type === 'property-finished')).toHaveLength(2);
    } finally {
      control.stopWatchingInterrupts();
    }
  });
});
