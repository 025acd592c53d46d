/**
 * A short time budget through the real binary: no property fails for lack of time, none passes
 * below its minimum; the summary says how much of each ran; --fail-on-partial makes CI notice.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import type { RunSummary } from '../engine/report/summary.ts';
import { BUNDLED_MIGRATIONS } from './paths.ts';
import { fuzz } from './fuzz-command.ts';
import { referencePack } from '../packs/reference/index.ts';

describe('early stop (pr: on; --no-early-stop)', () => {
  it('pr stops a saturated property at its minimum and says why in summary.json; one still sending new kinds of request runs on; --no-early-stop, or a lone property, runs every case (why the same seed stops at the same case: engine/runner/budget.test.ts)', async () => {
    const reports = tempDir('early-stop');
    // Early stop is decided on counts alone: a budget long enough never to cut (pr's 45 s did, at load 16 on 2 cores: R16 short of 300).
    const common = ['fuzz', '--no-sso', '--min-cases', '100', '--time-budget', '10m', '--seed', '3', '--no-replay', '--database-url', inject('databaseUrl'), '--failures-dir', path.join(reports, 'failures')];
    const summaryOf = (dir: string) => Object.fromEntries((JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as RunSummary).properties.map((p) => [p.id, p]));
    // 200 cases: R01 stops at its minimum, R03 runs on past it (to 200: 300 cost it 100 cases more, proving nothing more).
    const r = await runBin([...common, '--only', 'R01,R03', '--runs', '200', '--report-dir', path.join(reports, 'pr')]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const byId = summaryOf(path.join(reports, 'pr'));
    expect(byId.R01).toMatchObject({ status: 'passed', cases: 100, stoppedEarly: { cases: 100 } });
    expect(byId.R01.note).toMatch(/^stopped early at 100 of 200 cases: every clause reached on both sides, every model branch taken, no new outcome class or kind of request since 50 cases/);
    // Where it stopped, in the text report (under the table: a pass's note is not printed) and in report.html.
    expect(r.stdout).toContain(`early stop (saturated at or past the minimum; --no-early-stop runs every case):\n  R01  ${byId.R01.note}`);
    expect(r.stdout).toMatch(/^R01 +PASS +100\/200 /m);
    expect(readFileSync(path.join(reports, 'pr', 'report.html'), 'utf8')).toContain('<td class="num">100/200<div class="note" title="every clause reached on both sides');
    // R03 at seed 3 still sends kinds of request (anon's) it never sent between cases 50 and 100: it runs
    // on past the minimum. (R16 did until its grant matrix became a sweep, sent in its first cases.)
    expect(byId.R03.status).toBe('passed');
    expect(byId.R03.cases).toBeGreaterThan(100);
    expect(byId.R03.stoppedEarly?.cases ?? byId.R03.cases).toBeGreaterThan(100);
    const off = await runBin([...common, '--only', 'R01,R02', '--runs', '120', '--no-early-stop', '--report-dir', path.join(reports, 'off')]);
    expect(off.code, off.stdout + off.stderr).toBe(0);
    for (const p of Object.values(summaryOf(path.join(reports, 'off'))).filter((p) => p.area === 'data')) {
      expect(p, p.id).toMatchObject({ status: 'passed', cases: 120 });
      expect(p.stoppedEarly, p.id).toBeUndefined();
    }
    // A lone property shares the run with none: it runs every case (and reports every finding), early stop or not.
    const lone = await runBin([...common, '--only', 'R01', '--runs', '120', '--report-dir', path.join(reports, 'lone')]);
    expect(lone.code, lone.stdout + lone.stderr).toBe(0);
    expect(summaryOf(path.join(reports, 'lone')).R01).toMatchObject({ status: 'passed', cases: 120 });
    expect(summaryOf(path.join(reports, 'lone')).R01.stoppedEarly).toBeUndefined();
    // Lone as selected, not as left to generate: beside a property not applicable here (R04, the
    // shop, on a target with the users table only), R02 is not lone and stops early (it ran all 300 cases before).
    const usersOnly = path.join(reports, 'users-only');
    mkdirSync(usersOnly);
    for (const f of ['0001_private_helpers.sql', '0100_users.sql']) copyFileSync(path.join(BUNDLED_MIGRATIONS, f), path.join(usersOnly, f));
    const na = await runBin([...common.map((a) => (a === '3' ? '1' : a)), '--migrations', usersOnly, '--only', 'R02,R04', '--runs', '300', '--report-dir', path.join(reports, 'na')]);
    expect(na.code, na.stdout + na.stderr).toBe(0);
    expect(summaryOf(path.join(reports, 'na')).R04.status).toBe('not-applicable');
    expect(summaryOf(path.join(reports, 'na')).R02).toMatchObject({ status: 'passed', cases: 100, stoppedEarly: { cases: 100 } });
  }, 300_000);
});

describe('--time-budget', () => {
  it('2 s for every property: no failures, PARTIAL or NOT REACHED below the minimum, exit 0 (1 with --fail-on-partial)', async () => {
    const reports = tempDir('budget');
    const args = ['fuzz', '--time-budget', '2s', '--runs', '100000', '--seed', '7', '--no-replay', '--database-url', inject('databaseUrl'), '--failures-dir', path.join(reports, 'failures')];
    const r = await runBin([...args, '--report-dir', reports]);
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as RunSummary;
    const statuses = summary.properties.map((p) => p.status);
    expect(statuses).not.toContain('failed');
    expect(statuses).not.toContain('error');
    expect(r.stdout).not.toMatch(/harness error/);
    // 100 000 cases per property cannot fit in 2 s: something was cut short, and says how much ran.
    expect(statuses.some((s) => s === 'partial' || s === 'not-reached')).toBe(true);
    for (const p of summary.properties.filter((p) => p.area === 'data' && !p.id.includes(':'))) {
      expect(p.planned, p.id).toBe(100000);
      expect(p.cases, p.id).toBeLessThan(100000);
      if (p.status === 'passed') expect(p.cases, p.id).toBeGreaterThanOrEqual(100);
      if (p.status === 'partial') expect(p.note).toMatch(new RegExp(`^partial \\(${p.cases} of 100000 cases\\): the time budget ran out below its minimum of 100$`));
    }
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // The table fits 100 columns and its counts are explained under it.
    const table = r.stdout.split('\n').filter((l) => /^(id\s+status|[A-Z][A-Z0-9]*\d\d)/.test(l));
    expect(table.length).toBe(summary.properties.length + 1);
    for (const line of table) expect(line.length, line).toBeLessThanOrEqual(100);
    expect(r.stdout).toMatch(/^ {2}filtered {2}succeeded, but row security left nothing visible or changed/m);
    expect(r.stdout).toMatch(/\d+ passed, 0 failed, (\d+ partial|\d+ not reached)/);

    // --fail-on-partial on one property that cannot reach its minimum (every case) in the 2 s: the
    // same cut as above on every property, without paying for all of them (and the SSO half) again.
    const strict = await runBin(['fuzz', '--only', 'R02', '--no-sso', '--min-cases', '100000', ...args.slice(1), '--report-dir', tempDir('budget-strict'), '--fail-on-partial']);
    expect(strict.stdout).toMatch(/^0 passed, 0 failed, 1 (partial|not reached) \(seed 7\)$/m);
    expect(strict.code).toBe(1);
    expect(strict.stdout).not.toMatch(/\bFAIL\b/);
  });

  it('breadth first, read off the order of the cases: no property starts past a tranche (50 cases, its minimum, every run) before every other reached it', async () => {
    // Counts only: a 10 min budget never cuts these 3 × 120 cases, so the order is the scheduler's
    // at any load (what fits in a short budget is `npm run bench`'s; the cut and resume under a
    // clock: engine/runner/budget.test.ts).
    const ids = ['R01', 'R02', 'R16'];
    const minCases = 80;
    const order: string[] = [];
    const code = await fuzz(
      { pack: referencePack, migrations: BUNDLED_MIGRATIONS, databaseUrl: inject('databaseUrl'), sso: false, only: ids, seed: 11, runs: 120, minCases, earlyStop: false, timeBudget: 10 * 60_000, replay: false, failuresDir: tempDir('breadth-failures'), reportDir: tempDir('breadth-reports'), reporters: [{ on: (e) => void (e.type === 'case-finished' && ids.includes(e.property) && order.push(e.property)) }] },
      () => {},
    );
    expect(code).toBe(0);
    const ran = Object.fromEntries(ids.map((id) => [id, 0]));
    const outOfOrder: string[] = [];
    for (const id of order) {
      ran[id]++;
      for (const tranche of [50, minCases]) {
        const behind = ids.filter((other) => ran[other] < tranche);
        if (ran[id] === tranche + 1 && behind.length) outOfOrder.push(`${id} ran case ${tranche + 1} while ${behind.map((o) => `${o} had ${ran[o]}`).join(', ')}`);
      }
    }
    expect(outOfOrder).toEqual([]);
    expect(ran).toEqual({ R01: 120, R02: 120, R16: 120 });
  }, 300_000);
});

describe('--time-budget shared with the SSO half: what the data half keeps back for it', () => {
  // POLICYFUZZ_SLOWDOWN=10000 makes the SSO half need far more than the 10 min budget (its reserve
  // ×10 000), as a loaded machine makes it need more than a short one: the cut comes from the
  // scheduler, not from the machine's speed, so these hold at any load.
  const argsOf = (reports: string) => ['fuzz', '--only', 'R01,R16,S02', '--runs', '100', '--min-cases', '50', '--sso-runs', '25', '--time-budget', '10m', '--seed', '3', '--no-replay', '--no-color', '--database-url', inject('databaseUrl'), '--report-dir', reports, '--failures-dir', path.join(reports, 'failures')];
  const summaryOf = (reports: string) => JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as RunSummary;

  it('the SSO half after the data half: past their minimums the data properties stop to leave it what it needs at the load, and say so; the SSO properties pass, not PARTIAL', async () => {
    const reports = tempDir('budget-sso-share');
    const r = await runBin(argsOf(reports), { env: { ...process.env, POLICYFUZZ_SLOWDOWN: '10000', POLICYFUZZ_SSO_THREAD: 'off' } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const byId = Object.fromEntries(summaryOf(reports).properties.map((p) => [p.id, p]));
    for (const id of ['R01', 'R16']) {
      expect(byId[id], id).toMatchObject({ status: 'passed', cases: 50 });
      // The cut is the load factor's, not the budget's alone: the note names it and how to override it.
      expect(byId[id].note, id).toMatch(/^50 of 100 cases: the time budget ran out after its minimum of 50; load-scaled: the data half stopped to leave the SSO half 12500 s, its reserve ×10000 \(POLICYFUZZ_SLOWDOWN=10000; unset it to follow the load average\)/);
    }
    expect(byId.S02).toMatchObject({ status: 'passed', cases: 25 });
  }, 300_000);

  it('the SSO half on its own thread beside the data half: it starts first, and the data properties keep no time back for it', async () => {
    const reports = tempDir('budget-sso-thread');
    const r = await runBin(argsOf(reports), { env: { ...process.env, POLICYFUZZ_SLOWDOWN: '10000' } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const summary = summaryOf(reports);
    const byId = Object.fromEntries(summary.properties.map((p) => [p.id, p]));
    expect(r.stdout.indexOf('SSO: 1 properties')).toBeGreaterThan(-1);
    expect(r.stdout.indexOf('SSO: 1 properties')).toBeLessThan(r.stdout.indexOf('ready in'));
    for (const id of ['R01', 'R16']) {
      expect(byId[id], id).toMatchObject({ status: 'passed', cases: 100 });
      expect(byId[id].note ?? '', id).not.toMatch(/load-scaled|time budget/);
    }
    expect(byId.S02).toMatchObject({ status: 'passed', cases: 25 });
    // Reported after the data half's, as when it ran afterwards.
    expect(summary.properties.map((p) => p.id)).toEqual(['R01', 'R16', 'R16:catalog', 'S02']);
    expect(summary.timings!.ssoMs).toBeGreaterThan(0);
  }, 300_000);
});
