import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Disagreement, failureMessage, readCodeRedirect, runFcProperty, sameJson, structuralDiff } from './kit.ts';
import { runAgainWithinBudget } from './index.ts';
import type { PropertyResult } from '../../engine/runner/result.ts';
import { findLoginForm, pageSummary } from '../client/html-form.ts';
import { visibleStructure, decodedBytes } from './s18-no-structure.ts';
import { parseSsoConfig } from '../config.ts';
import example from '../examples/sso.config.json' with { type: 'json' };

describe('structural comparison', () => {
  it('ignores member order, not array order, and lists each difference by path', () => {
    expect(sameJson({ ok: true, a: { x: 1, y: [1, 2] } }, { a: { y: [1, 2], x: 1 }, ok: true })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(structuralDiff({ ok: false, error: 'AUTH0001' }, { error: 'AUTH0002', ok: false, hint: 'bad secret' })).toEqual(['$.error: "AUTH0001" → "AUTH0002"', '$.hint: (absent) → "bad secret"']);
  });

  it('a failure message names the setting and carries the diff', () => {
    const msg = failureMessage(new Disagreement('step 3 disagrees', { status: 401 }, { status: 200 }, 'logoutRevokesTokens (configured true)'));
    expect(msg.split('\n')).toEqual(['step 3 disagrees', 'a setting or a fault: what was observed matches setting logoutRevokesTokens (configured true); if your service is meant to do this, set it so in the config\'s "settings", otherwise it is a fault to fix', 'diff (expected → observed):', '  $.status: 401 → 200']);
  });
});

describe('login form reading', () => {
  const html = `<html><head><title>Sign &amp; go</title></head><body>
    <form action="/search"><input name="q"></form>
    <form class="x" method="POST" action="/sso/authenticate?app=a&amp;x=1">
      <input type="hidden" name="csrf_token" value="t&#39;k"><input name="login_name"><input type="password" name="secret_word">
      <input type="checkbox" name="remember" value="yes"><input type="checkbox" name="opt" checked>
      <button type="submit" name="go" value="1">Go</button><button type="submit" name="other" value="2">Other</button>
    </form></body></html>`;
  it('picks the form with the password field, resolves its action and keeps hidden and checked inputs and the first button', () => {
    const form = findLoginForm(html, 'http://sso.example/sso/login?app=a', 'secret_word');
    expect(form).toEqual({
      action: 'http://sso.example/sso/authenticate?app=a&x=1',
      method: 'POST',
      fields: [['csrf_token', "t'k"], ['login_name', ''], ['secret_word', ''], ['opt', 'on'], ['go', '1']],
      inputNames: ['csrf_token', 'login_name', 'secret_word', 'remember', 'opt', 'go', 'other'],
    });
    expect(findLoginForm(html, 'http://sso.example/', 'password')).toBeNull();
    expect(pageSummary(html)).toBe('title "Sign & go"; text "Go Other"');
  });
});

describe('S18 structure detection', () => {
  const users = parseSsoConfig(example).users;
  it('sees user ids and counters inside encoded tokens, and nothing in random ones', () => {
    const u = users[0]!;
    expect(visibleStructure(Buffer.from(`${u.immutableId}:5`).toString('base64url'), users)).toMatch(/identifier .* once decoded/);
    expect(visibleStructure(Buffer.from('session-000042').toString('hex'), users)).toMatch(/counter/);
    expect(visibleStructure(`tok_${u.employeeId}_x`, users)).toMatch(/identifier "EMP-004211"/);
    for (let i = 0; i < 200; i++) {
      expect(visibleStructure(crypto.randomUUID(), users)).toBeNull();
      expect(visibleStructure(Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url'), users)).toBeNull();
    }
    expect(decodedBytes('00ff')).toEqual(Buffer.from([0, 255]));
  });
});

describe('reading a post-login redirect', () => {
  const registered = 'https://lib.example:8443/sso/return?tenant=main';
  it('takes any redirect to the registered URL with one code, and sets the added parameters aside for the properties', () => {
    const r = readCodeRedirect('https://lib.example:8443/sso/return?tenant=main&iss=https%3A%2F%2Fsso.example&code=c-1&state=s%2B1&session_state=abc', registered);
    expect(r).toEqual({ codes: ['c-1'], extras: [['iss', 'https://sso.example'], ['state', 's+1'], ['session_state', 'abc']], bare: 'https://lib.example:8443/sso/return?tenant=main&code=c-1', onTarget: true });
    expect(readCodeRedirect('https://lib.example:8443/sso/return?tenant=main&code=c-1', registered).onTarget).toBe(true);
  });
  it('is not on target elsewhere, with two codes, without the registered query, or with its URL changed', () => {
    for (const location of [
      'https://evil.example/sso/return?tenant=main&code=c-1',
      'https://lib.example:8443/sso/return?tenant=main&code=c-1&code=c-2',
      'https://lib.example:8443/sso/return?code=c-1',
      'https://LIB.example:8443/sso/return?tenant=main&code=c-1',
      'https://lib.example:8443/sso/return?tenant=main&iss=x',
    ]) expect(readCodeRedirect(location, registered).onTarget, location).toBe(false);
  });
});

describe('runFcProperty cut short', () => {
  const meta = { id: 'S99', title: 'test property' };

  it('an interrupt while a failure shrinks ends shrinking at once and keeps a case that really failed', async () => {
    const stop = new AbortController();
    const failing: number[] = [];
    let checksAfterStop = 0;
    const r = await runFcProperty(meta, { seed: 1, numRuns: 100, signal: stop.signal }, fc.integer({ min: 0, max: 1_000_000 }), async (v) => {
      if (stop.signal.aborted) checksAfterStop++;
      if (v > 10) {
        failing.push(v);
        // The first failure: the signal comes as shrinking starts.
        stop.abort();
        throw new Disagreement(`${v} > 10`, '≤ 10', v);
      }
    });
    expect(r.status).toBe('failed');
    expect(failing).toContain(r.failure!.counterexample);
    // No shrink candidate was checked after the signal.
    expect(checksAfterStop).toBe(0);
  });

  it('the time budget: no case starts past the deadline; what ran is PARTIAL, none NOT REACHED', async () => {
    let ran = 0;
    const stopAt = 5;
    let deadline = Number.MAX_SAFE_INTEGER;
    const partial = await runFcProperty(meta, { seed: 1, numRuns: 100, get deadline() { return deadline; } }, fc.integer(), async () => {
      if (++ran === stopAt) deadline = 0;
    });
    expect(partial).toMatchObject({ status: 'partial', cases: stopAt, planned: 100, stopped: 'time budget', note: 'partial (5 of 100 cases): time budget' });
    const none = await runFcProperty(meta, { seed: 1, numRuns: 100, deadline: 0 }, fc.integer(), async () => {});
    expect(none).toMatchObject({ status: 'not-reached', cases: 0, stopped: 'time budget' });
  });

  it('a property its share cut short runs again once every property had its share, with an equal share of what is left, and keeps the run that got further', async () => {
    // As seen on a nightly whose data half used its budget: S01 and S02 (the slowest a case, first
    // in the list) were PARTIAL at 163 and 153 of 200 while the run ended 20 s inside its budget.
    let clock = 1000;
    const asked: number[] = [];
    const partial = (id: string, cases: number) => ({ id, title: id, area: 'sso' as const, status: 'partial' as const, cases, planned: 200, stopped: 'time budget' as const, counts: {}, durationMs: 1, seed: 1 });
    const results = [partial('S01', 163), partial('S02', 153), { ...partial('S03', 200), status: 'passed' as const }, partial('S04', 90)];
    const again = (result: PropertyResult, takesMs: number) => async (deadline: number) => {
      asked.push(deadline);
      clock += takesMs;
      return result;
    };
    const cut = [
      { index: 0, again: again({ ...results[2]!, id: 'S01', cases: 200 }, 3000) },
      { index: 1, again: again(partial('S02', 120), 4500) }, // got less far the second time: its first run stands
      { index: 3, again: again({ ...results[2]!, id: 'S04', cases: 200 }, 1000) },
    ];
    await runAgainWithinBudget(results, cut, 13_000, () => false, undefined, () => clock);
    // 12 s left for 3 at 1000: S01 until 5000; at 4000, 9 s for 2: S02 until 8500; at 8500, the rest: S04 until 13 000.
    expect(asked).toEqual([5000, 8500, 13_000]);
    expect(results.map((r) => `${r.id} ${r.status} ${r.cases}`)).toEqual(['S01 passed 200', 'S02 partial 153', 'S03 passed 200', 'S04 passed 200']);
    // Nothing runs again after a stop (Ctrl-C) or past the budget's end.
    const calls: number[] = [];
    const once = [{ index: 3, again: async (d: number) => (calls.push(d), results[2]!) }];
    await runAgainWithinBudget(results, once, 13_000, () => true, undefined, () => 0);
    await runAgainWithinBudget(results, once, 13_000, () => false, undefined, () => 13_000);
    expect(calls).toEqual([]);
    // A second run that throws leaves the first result, with the error named in its note.
    await runAgainWithinBudget(results, [{ index: 1, again: async () => { throw new Error('emulator gone\nstack'); } }], 13_000, () => false, undefined, () => 0);
    expect(results[1]).toMatchObject({ id: 'S02', status: 'partial', cases: 153 });
    expect((results[1] as PropertyResult).note).toMatch(/running again within the budget failed: emulator gone$/);
  });
});
