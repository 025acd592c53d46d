/**
 * The reports: the JSON summary merges, the JUnit XML is well-formed and carries the replay
 * command, and the HTML report renders in a real headless Chromium (Debian's), self-contained,
 * with the failure visible and model and database side by side.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlReport } from './html.ts';
import { junitXml } from './junit.ts';
import { mergeSummaries, propertySummary, runSummary, RunSummarySchema, type PropertySummary, type RunSummary } from './summary.ts';
import type { PropertyResult } from '../runner/result.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import { COVERAGE_ON_MERGE_NOTE } from '../runner/coverage.ts';
import { droppedNote, passNote } from '../runner/run-data-property.ts';
import { partialNote } from '../runner/applicability.ts';

const CHROMIUM = process.env.POLICYFUZZ_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const failing: PropertySummary = {
  id: 'R02',
  title: 'users: a non-staff owner cannot PATCH role',
  area: 'data',
  status: 'failed',
  cases: 16,
  counts: { allowed: 9, filtered: 3, rejected: 3, errored: 1 },
  durationMs: 1900,
  seed: 3,
  note: null,
  failures: [
    {
      id: 'R02-1fc21ebcb800',
      seed: 3,
      path: '13:639:0:0',
      message: 'step 1: database answered success, model expected error P0001\n  user 5367 PATCH /rest/v1/users?id=eq."5367" {"role":"user"}',
      step: 0,
      case: { world: { users: [{ id: '5367', role: 'sa_prof' }] }, steps: [{ caller: { kind: 'user', id: '5367' }, request: { kind: 'update', table: 'users', patch: { role: 'user' }, filters: [], returning: 'minimal' } }] },
      expected: { kind: 'raised', code: 'P0001', message: 'users: role' },
      actual: { outcome: { kind: 'allowed', rows: null, affected: 1 }, response: { status: 204, body: null, affected: 1 } },
      replay: 'policyfuzz replay .policyfuzz/failures/R02-1fc21ebcb800.json\npolicyfuzz fuzz --only R02 --seed 3 --path 13:639:0:0',
      file: '.policyfuzz/failures/R02-1fc21ebcb800.json',
      reproSql: "begin;\n\\echo 'model expects: raised: SQLSTATE P0001 <role>'\nrollback;\n",
      regressionFile: '.policyfuzz/failures/R02-1fc21ebcb800.regression.ts',
    },
  ],
};
const passing: PropertySummary = { ...failing, id: 'R04', title: 'shop_orders: buyers edit only slips & details <while pending>', status: 'passed', cases: 300, counts: { allowed: 194, filtered: 65, rejected: 24, errored: 17 }, failures: [] };
const sso: PropertySummary = { ...passing, id: 'S03', title: 'a code is bound to its client', area: 'sso', cases: 25, counts: { refused: 25 } };

function summary(properties: PropertySummary[], shard = { index: 1, count: 1 }): RunSummary {
  return runSummary(properties, { policyfuzzVersion: '0.1.0', seed: 3, profile: 'pr', shard, migrations: 'db/migrations', migrationsDigest: 'abc', startedAt: new Date(Date.now() - 5000), timeBudgetMs: 45_000 });
}

describe('JSON summary', () => {
  it('merges shards: cases, counts and time add up, the worst status wins, failures listed once', () => {
    const a = summary([{ ...passing }, { ...sso }], { index: 1, count: 2 });
    const b = summary([{ ...failing, id: 'R04', failures: failing.failures.map((f) => ({ ...f })) }], { index: 2, count: 2 });
    const m = mergeSummaries([a, b, b].slice(0, 2));
    expect(m.properties.map((p) => [p.id, p.status, p.cases])).toEqual([
      ['R04', 'failed', 316],
      ['S03', 'passed', 25],
    ]);
    expect(m.properties[0].counts).toEqual({ allowed: 203, filtered: 68, rejected: 27, errored: 18 });
    expect(m.totals).toMatchObject({ properties: 2, passed: 1, failed: 1, cases: 341 });
    expect(m.shards).toHaveLength(2);
  });

  it('merges the secure readings and shape-bound answers each shard accepted: counted over both, named once in the note', () => {
    const shard = (index: number, n: number) => summary([{ ...passing, readings: { 'users.guard-exempting-fewer': n }, note: `accepted as secure readings: users.guard-exempting-fewer (${n} steps)` }], { index, count: 2 });
    const merged = mergeSummaries([shard(1, 2), shard(2, 3)]).properties[0];
    expect(merged.readings).toEqual({ 'users.guard-exempting-fewer': 5 });
    expect(merged.note).toBe('accepted as secure readings: users.guard-exempting-fewer (5 steps)');
  });

  it('keeps a property run whole on one shard (split by property, early stop) as that shard wrote it: one machine\'s note, in its order', () => {
    // Recomputed as a split property's is, the dropped cases' note came before the early stop's.
    const dropped = { x: 400 };
    const note = `stopped early at 100 of 300 cases: saturated; ${droppedNote(dropped, 100)}`;
    const whole: PropertySummary = { ...passing, cases: 100, planned: 300, dropped, stoppedEarly: { cases: 100, reason: 'saturated' }, note };
    const m = mergeSummaries([summary([{ ...whole }], { index: 1, count: 2 }), summary([{ ...passing, id: 'R05' }], { index: 2, count: 2 })]);
    expect(m.properties.find((p) => p.id === 'R04')).toEqual(whole);
  });

  it("merges shards' timings: every part and each property's parts add up (machine time); without them on every shard, none", () => {
    const timed = (shard: number, ms: number) => ({
      ...summary([{ ...passing }], { index: shard, count: 2 }),
      timings: { totalMs: 10 * ms, startupMs: 4 * ms, serverMs: ms, migrationsMs: ms, templateMs: ms, workersMs: ms, replayMs: 0, propertiesMs: 5 * ms, catalogMs: ms, ssoMs: 0, properties: { R04: { totalMs: 5 * ms, generationMs: ms, modelMs: ms, databaseMs: 3 * ms, shrinkingMs: 0 } } },
    });
    expect(mergeSummaries([timed(1, 10), timed(2, 1)]).timings).toEqual({
      totalMs: 110, startupMs: 44, serverMs: 11, migrationsMs: 11, templateMs: 11, workersMs: 11, replayMs: 0, propertiesMs: 55, catalogMs: 11, ssoMs: 0,
      properties: { R04: { totalMs: 55, generationMs: 11, modelMs: 11, databaseMs: 33, shrinkingMs: 0 } },
    });
    expect(mergeSummaries([timed(1, 10), summary([{ ...passing }], { index: 2, count: 2 })]).timings).toBeUndefined();
  });

  it('does not count N/A properties as passed', () => {
    const t = summary([{ ...passing }, { ...passing, id: 'R05', status: 'not-applicable', cases: 0 }, { ...failing }]).totals;
    expect(t).toMatchObject({ properties: 3, passed: 1, failed: 1, notApplicable: 1 });
  });

  it('judges coverage on the merged clause tallies: one side reached by one shard only passes, a side no shard reached fails', () => {
    const onShard = (index: number, allowed: number, refused: number) =>
      summary([{ ...passing, note: COVERAGE_ON_MERGE_NOTE, clauses: [{ id: 'R04.slip', label: 'slip', allowed, refused }] }], { index, count: 2 });
    const reached = mergeSummaries([onShard(1, 0, 5), onShard(2, 3, 0)]);
    expect(reached.properties[0]).toMatchObject({ status: 'passed', note: null, clauses: [{ allowed: 3, refused: 5 }] });
    const missed = mergeSummaries([onShard(1, 0, 5), onShard(2, 0, 2)]);
    expect(missed.properties[0]).toMatchObject({ status: 'failed', note: 'coverage: in 600 cases generation never reached clause R04.slip (slip): allowed' });
    expect(missed.totals).toMatchObject({ passed: 0, failed: 1 });
  });

  it('a finding both shards made is listed once, as one run lists it: its earliest sighting by lane, side errors after the others; the summary keeps signatures and sizes', () => {
    // Seen on a mutant's nightly (R02 guard trigger dropped, seed 5): one run listed 2 R01
    // findings; its two shards merged listed 4, each signature once per shard.
    const finding = (seed: number, path: string, signature: string) => ({ ...failing.failures[0]!, id: `R01-${seed}-${path}`, seed, path, signature, ...(signature === side ? { side: true } : {}), sizes: { before: { users: 3, rows: 6, steps: 3 }, after: { users: 1, rows: 1, steps: 1 } } });
    // Which is a side error is the failure's own field (`side`), not read back from the signature's words.
    const allowed = 'R01 | PATCH users | signed-in | one kind';
    const side = 'R01 | PATCH users | signed-in | another kind';
    const shard = (index: number, failures: PropertySummary['failures']) => summary([{ ...failing, id: 'R01', failures }], { index, count: 2 });
    // Given in any order: shard 2 (lanes 2 and 3, seeds 7 and 8) first.
    const merged = mergeSummaries([shard(2, [finding(8, '2:1:0', allowed), finding(7, '2:1:0', side)]), shard(1, [finding(5, '0:3:1', side), finding(6, '12:1:0', allowed)])]);
    expect(merged.properties[0]!.failures.map((f) => [f.seed, f.path, f.signature])).toEqual([
      [6, '12:1:0', allowed],
      [5, '0:3:1', side],
    ]);
    expect(merged.properties[0]!.failures[1]!.side).toBe(true);
    expect(merged.properties[0]!.failures[0]!.sizes).toEqual({ before: { users: 3, rows: 6, steps: 3 }, after: { users: 1, rows: 1, steps: 1 } });
    // Through the summary file's schema, as merge-reports reads it: the signature is kept.
    expect(RunSummarySchema.parse(JSON.parse(JSON.stringify(shard(1, [finding(5, '0', allowed)])))).properties[0]!.failures[0]!.signature).toBe(allowed);
  });

  it('caps the findings as one run does: the first 12 in one run\'s order, the rest counted in the note', () => {
    const finding = (seed: number, n: number) => ({ ...failing.failures[0]!, id: `R01-${seed}-${n}`, seed, path: `${n}:0`, signature: `R01 | sig ${seed}.${n}` });
    const shard = (index: number, seed: number, count: number, note: string | null = null, moreFindings?: PropertySummary['moreFindings']) =>
      summary([{ ...failing, id: 'R01', note, ...(moreFindings ? { moreFindings } : {}), failures: Array.from({ length: count }, (_, n) => finding(seed, n)) }], { index, count: 2 });
    // 8 distinct findings on each shard: one machine would list 12 of 16 and say so.
    const merged = mergeSummaries([shard(2, 6, 8), shard(1, 5, 8)]).properties[0]!;
    expect(merged.failures.map((f) => f.id)).toEqual([...Array.from({ length: 8 }, (_, n) => `R01-5-${n}`), ...Array.from({ length: 4 }, (_, n) => `R01-6-${n}`)]);
    expect(merged.note).toBe('16 distinct findings; the first 12 are shrunk and reported');
    expect(merged.moreFindings).toEqual({ distinct: 16 });
    // A shard that found more than it listed (its count in `moreFindings`): the merged count is a lower bound, said once.
    const capped = mergeSummaries([shard(1, 5, 12, '20 distinct findings; the first 12 are shrunk and reported; 3 cases dropped', { distinct: 20 }), shard(2, 6, 3)]).properties[0]!;
    expect(capped.failures).toHaveLength(12);
    expect(capped.note).toBe('at least 20 distinct findings; the first 12 are shrunk and reported; 3 cases dropped');
    expect(capped.moreFindings).toEqual({ distinct: 20, atLeast: true });
    // Only one shard failed: its count is the run's, exactly.
    const alone = mergeSummaries([shard(1, 5, 12, '20 distinct findings; the first 12 are shrunk and reported', { distinct: 20 }), shard(2, 6, 0)]).properties[0]!;
    expect(alone.note).toBe('20 distinct findings; the first 12 are shrunk and reported');
    expect(alone.moreFindings).toEqual({ distinct: 20 });
    // Through the summary file's schema, as merge-reports reads it.
    expect(RunSummarySchema.parse(JSON.parse(JSON.stringify(shard(1, 5, 1, null, { distinct: 20, atLeast: true })))).properties[0]!.moreFindings).toEqual({ distinct: 20, atLeast: true });
  });

  it("words the shards' notes of their own cases again of the merged counts, and says what every shard said once, as one machine words them", () => {
    // Seen on stranger-app-2 (seed 7, pr, 3 shards of 2 workers against one run of 6): R01 merged
    // read '83 of 100 cases checked…; 51% of cases dropped…' once per shard, R14 kept one shard's
    // '40% of cases dropped' where the run (39%) says nothing, and the run's 'ran without the
    // parts…' was on no shard at all.
    const reason = 'vs_tickets.category needs a vs_categories row the case lacks (foreign key)';
    const leftOut = partialNote(['vs_tickets'])!;
    const shard = (index: number, cases: number, unchecked: number, dropped: number) => {
      const note = [passNote(undefined, cases, { [reason]: dropped }, [{ runs: cases + unchecked, draws: 0, drops: [], gaveUp: false }]), leftOut, COVERAGE_ON_MERGE_NOTE].join('; ');
      return summary([{ ...passing, id: 'R01', cases, planned: 100, note, dropped: { [reason]: dropped } }], { index, count: 3 });
    };
    const merged = mergeSummaries([shard(1, 83, 17, 87), shard(2, 83, 17, 80), shard(3, 82, 18, 70)]).properties[0]!;
    expect(merged.cases).toBe(248);
    expect(merged.note).toBe(
      '248 of 300 cases checked: 52 could not run on this target and took their runs (every request unsendable, or refused once written; dropped cases by reason in summary.json); ' +
        `49% of cases dropped: ${reason}; the model makes such rows without their parent (give the target a parent row through the mapping, or accept fewer cases); ` +
        'ran without the parts that need vs_tickets (not in the target)',
    );
    // One shard above the share that calls for a note, the run below it: no note.
    const quiet = mergeSummaries([shard(1, 60, 0, 41), shard(2, 100, 0, 20)]).properties[0]!;
    expect(quiet.note).toBe(leftOut);
  });

  it("a harness error on one shard: the merged note is the error's, as one run's ERROR says it (no share of drops, no readings said again)", () => {
    // Seen on stranger-app-17 (nightly, 40 runs, seed 3): R15 ERROR on one machine said the harness
    // error alone; merged, the passing shard's drop share and readings were said before it.
    const reason = 'project_files_fkey refused a fixture row (project_files)';
    const error = 'harness error: fixtures refused: ON CONFLICT DO UPDATE command cannot affect row a second time';
    const passed = summary([{ ...passing, id: 'R15', cases: 2, planned: 20, dropped: { [reason]: 20 }, readings: { 'function-outside-api-refused': 3 }, note: [passNote(undefined, 2, { [reason]: 20 }), 'accepted as secure readings: function-outside-api-refused (3 steps)', COVERAGE_ON_MERGE_NOTE].join('; ') }], { index: 1, count: 2 });
    const erred = summary([{ ...passing, id: 'R15', status: 'error', cases: 0, planned: 20, dropped: { [reason]: 5 }, note: error }], { index: 2, count: 2 });
    const merged = mergeSummaries([passed, erred]).properties[0]!;
    expect(merged).toMatchObject({ status: 'error', cases: 2, dropped: { [reason]: 25 }, note: error });
  });

  it("counts the runs a shard that checked no case took unchecked (its note says no verdict, not its shortfall), as one run counts them", () => {
    // Seen on stranger-app-9 (nightly, seed 11, 8 runs): R01 on one machine '2 of 8 cases checked: 6
    // could not run…', merged '2 of 4 … 2 could not run…': shard 1 checked none, its 4 runs lost.
    const reason = 'names vs_tickets.public_comments, mapped to null (the target has none)';
    const lanes = (runs: number[]) => runs.map((n) => ({ runs: n, draws: n, drops: [] }));
    const none = propertySummary({ id: 'R01', title: 'R01', area: 'data', status: 'no-verdict', cases: 0, counts: { allowed: 0, filtered: 0, rejected: 0, errored: 0 }, seed: 11, planned: 4, progress: lanes([2, 2]), dropped: { [reason]: 7 }, durationMs: 1, note: droppedNote({ [reason]: 7 }, 0) } as PropertyResult);
    expect(none.uncheckedRuns).toBe(4);
    const two = propertySummary({ id: 'R01', title: 'R01', area: 'data', status: 'passed', cases: 2, counts: { allowed: 2, filtered: 0, rejected: 0, errored: 0 }, seed: 11, planned: 4, progress: lanes([2, 2]), dropped: { [reason]: 3 }, durationMs: 1, note: passNote(undefined, 2, { [reason]: 3 }, lanes([2, 2])) } as PropertyResult);
    const merged = mergeSummaries([summary([{ ...none, note: [none.note, COVERAGE_ON_MERGE_NOTE].join('; ') }], { index: 1, count: 2 }), summary([{ ...two, note: [two.note, COVERAGE_ON_MERGE_NOTE].join('; ') }], { index: 2, count: 2 })]).properties[0]!;
    expect(merged.note).toMatch(/^2 of 8 cases checked: 6 could not run on this target/);
    expect(merged.uncheckedRuns).toBe(6);
    // Through the summary file's schema, as merge-reports reads it.
    expect(RunSummarySchema.parse(JSON.parse(JSON.stringify(summary([none])))).properties[0]!.uncheckedRuns).toBe(4);
  });

  it('gates only what a shard left to the merge: a catalog check (first shard alone, never gated) with one side passes merged as it does on one machine', () => {
    // Seen on a sharded nightly of the reference (seed 7): LINT01:catalog, 89 lints all refused,
    // passed unsharded and on shard 1, and the merge failed it for never reaching the allow side.
    const lints: PropertySummary = { ...passing, id: 'LINT01:catalog', cases: 89, planned: null, counts: { allowed: 0, filtered: 0, rejected: 89, errored: 0 } };
    const gated: PropertySummary = { ...lints, id: 'R99', note: COVERAGE_ON_MERGE_NOTE };
    const merged = mergeSummaries([summary([{ ...lints }, { ...gated }], { index: 1, count: 2 }), summary([{ ...gated }], { index: 2, count: 2 })]);
    expect(merged.properties.map((p) => [p.id, p.status])).toEqual([
      ['LINT01:catalog', 'passed'],
      ['R99', 'failed'],
    ]);
    expect(merged.totals).toMatchObject({ passed: 1, failed: 1 });
  });
});

let browser: Browser;
beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`the HTML report test needs Chromium at ${CHROMIUM}: install it (Debian/Ubuntu: sudo apt-get install chromium) or set POLICYFUZZ_CHROMIUM`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});
afterAll(() => browser?.close());

describe('reports in a real browser', () => {
  it('the HTML report renders self-contained, with coverage bars and the failure side by side', async () => {
    const dir = tempDir('html');
    const file = path.join(dir, 'report.html');
    writeFileSync(file, htmlReport(summary([failing, passing, sso])));
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) external.push(r.url());
    });
    await page.goto(`file://${file}`);
    expect(await page.title()).toBe('policyfuzz: 2 passed, 1 failed');
    expect(await page.locator('#verdict').innerText()).toContain('2 passed, 1 failed');
    expect(await page.locator('#properties tbody tr').count()).toBe(3);
    // Escaped, not interpreted.
    expect(await page.locator('tr[data-property="R04"]').innerText()).toContain('slips & details <while pending>');

    // Coverage bars: one segment per outcome class, widths in proportion.
    const segments = page.locator('tr[data-property="R04"] .bar span');
    expect(await segments.count()).toBe(4);
    const widths = await segments.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
    expect(widths[0]).toBeGreaterThan(widths[1]);
    expect(widths.every((w) => w > 0)).toBe(true);

    // The failure: visible, led by the caller, the request and only the fields that differ;
    // the full values folded below, model and database next to each other once unfolded.
    const failure = page.locator('#failure-R02-1fc21ebcb800');
    await expect.poll(() => failure.isVisible()).toBe(true);
    expect(await failure.locator('.who').innerText()).toContain('user 5367 (role authenticated)');
    expect(await failure.locator('pre.curl').innerText()).toMatch(/^curl -X PATCH "\$SUPABASE_URL\/rest\/v1\/users" .*-d '\{"role":"user"\}'$/);
    const diffRows = await failure.locator('table.diff tbody tr').allInnerTexts();
    expect(diffRows.map((r) => r.split('\t').map((c) => c.trim()))).toEqual([
      ['kind', '"error"', '"allowed"'],
      ['code', '"P0001"', 'absent'],
      ['affected', 'absent', '1'],
      ['rows', 'absent', 'null'],
    ]);
    expect(await failure.locator('.side').first().isVisible()).toBe(false);
    await failure.locator('details.full > summary').click();
    const sides = failure.locator('.side');
    const [model, database] = [await sides.nth(0).boundingBox(), await sides.nth(1).boundingBox()];
    expect(model && database).toBeTruthy();
    expect(database!.x).toBeGreaterThan(model!.x + model!.width - 1);
    expect(Math.abs(database!.y - model!.y)).toBeLessThan(2);
    expect(await sides.nth(0).innerText()).toContain('raised: SQLSTATE P0001');
    expect(await sides.nth(1).innerText()).toContain('allowed: 1 row(s) touched');
    expect(await failure.locator('pre.cmd').innerText()).toContain('policyfuzz replay .policyfuzz/failures/R02-1fc21ebcb800.json');
    await failure.locator('details.repro summary').click();
    expect(await failure.locator('details.repro pre').isVisible()).toBe(true);
    expect(await failure.locator('details.repro pre').innerText()).toContain("model expects: raised: SQLSTATE P0001 <role>");

    // A link from the table jumps to it.
    await page.locator('tr[data-property="R02"] a').click();
    expect(await failure.isVisible()).toBe(true);
    expect(external).toEqual([]);
    await page.close();
  });

  it('the JUnit XML is well-formed: a test case per property, the failure with its diff and replay command', async () => {
    const xml = junitXml(summary([failing, passing, sso]));
    const page = await browser.newPage();
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror')!.textContent };
      return {
        suites: [...doc.querySelectorAll('testsuite')].map((s) => [s.getAttribute('name'), s.getAttribute('tests'), s.getAttribute('failures')]),
        cases: [...doc.querySelectorAll('testcase')].map((c) => c.getAttribute('name')),
        failure: doc.querySelector('testcase failure')?.textContent ?? '',
        message: doc.querySelector('testcase failure')?.getAttribute('message') ?? '',
      };
    }, xml);
    await page.close();
    expect(parsed).not.toHaveProperty('error');
    const ok = parsed as { suites: string[][]; cases: string[]; failure: string; message: string };
    expect(ok.suites).toEqual([
      ['policyfuzz data layer', '2', '1'],
      ['policyfuzz SSO', '1', '0'],
    ]);
    expect(ok.cases).toHaveLength(3);
    expect(ok.message).toBe('step 1: database answered success, model expected error P0001');
    expect(ok.failure).toContain('model:    raised: SQLSTATE P0001 users: role');
    expect(ok.failure).toContain('database: allowed: 1 row(s) touched, no rows returned');
    expect(ok.failure).toContain('replay:   policyfuzz replay .policyfuzz/failures/R02-1fc21ebcb800.json');
  });
});
