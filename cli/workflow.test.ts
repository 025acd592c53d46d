/**
 * The fuzzing workflow through the command line: a failure is saved with its repros, replayed
 * first by the next run, `replay` says STILL FAILING on the broken database and FIXED once the
 * bug is removed; `--shard` + `merge-reports` give the totals of one unsharded run; the time
 * budget stops generation and says how many cases ran; reports are written.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from './paths.ts';
import { EXAMPLE_SSO_CONFIG } from './sso-integration.ts';
import { runCli } from '../testing/run-cli.ts';
import type { RunSummary } from '../engine/report/summary.ts';
import { tempDir } from '../testing/temp-dir.ts';

const db = () => ['--database-url', inject('databaseUrl')];
const tmp = (p: string) => tempDir(p);

function brokenMigrations(): string {
  const dir = tmp('broken');
  for (const f of readdirSync(BUNDLED_MIGRATIONS)) copyFileSync(path.join(BUNDLED_MIGRATIONS, f), path.join(dir, f));
  copyFileSync(path.join(BUNDLED_MUTANTS, 'R02-users-role', 'mutants', 'R02-guard-trigger-dropped.sql'), path.join(dir, '9999_mutant.sql'));
  return dir;
}

function summaryOf(dir: string): RunSummary {
  return JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as RunSummary;
}

describe('failures that last', () => {
  it('are saved, replayed first by the next run, and replay FIXED once the bug is removed', async () => {
    const broken = brokenMigrations();
    const failures = tmp('failures');
    const reports = tmp('reports');
    const first = await runCli('fuzz', '--migrations', broken, '--only', 'R02', '--seed', '5', '--runs', '200', '--failures-dir', failures, '--report-dir', reports, ...db());
    expect(first.code).toBe(1);
    // One failure per distinct finding, each with its repros.
    const saved = readdirSync(failures).sort();
    const jsons = saved.filter((f) => f.endsWith('.json'));
    expect(first.stdout).toContain(`R02: ${jsons.length} distinct finding(s)`);
    // Each finding: its record, a psql repro, a pgTAP test and a vitest regression test.
    expect(saved).toHaveLength(4 * jsons.length);
    expect(saved.filter((f) => f.endsWith('.pgtap.sql'))).toHaveLength(jsons.length);
    const json = path.join(failures, jsons[0]);
    expect(saved.filter((f) => f.startsWith(jsons[0].replace(/\.json$/, ''))).map((f) => f.replace(/^R02-[0-9a-f]{12}/, '')).sort()).toEqual(['.json', '.pgtap.sql', '.regression.ts', '.sql']);
    expect(first.stdout).toContain(`saved:    ${json}`);
    expect(first.stdout.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed (seed 5)');

    // The reports: JSON summary, JUnit with the replay command, HTML.
    const summary = summaryOf(reports);
    expect(summary.properties[0]).toMatchObject({ id: 'R02', status: 'failed' });
    expect(summary.properties[0].failures[0].reproSql).toContain('model expects:');
    expect(readFileSync(path.join(reports, 'junit.xml'), 'utf8')).toContain(`policyfuzz replay ${json}`);
    expect(existsSync(path.join(reports, 'report.html'))).toBe(true);

    // The next run replays it first (another seed would not matter: it still fails).
    const second = await runCli('fuzz', '--migrations', broken, '--only', 'R02', '--seed', '77', '--failures-dir', failures, '--report-dir', reports, ...db());
    expect(second.code).toBe(1);
    expect(second.stdout).toContain(`replaying ${jsons.length} saved failure(s) from ${failures} first`);
    expect(second.stdout).toContain(`${json}: still fails`);
    expect(readdirSync(failures)).toHaveLength(saved.length);

    const still = await runCli('replay', json, ...db());
    expect(still.code).toBe(1);
    expect(still.stdout).toMatch(/STILL FAILING \(3 of 3 replays failed\)/);

    const fixed = await runCli('replay', json, '--migrations', BUNDLED_MIGRATIONS, ...db());
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toMatch(/note: the migrations changed since this failure was saved/);
    expect(fixed.stdout).toMatch(/FIXED \(3 clean replays\)/);

    // With the bug removed, the next run replays it, sees it pass, and goes on to generate.
    const third = await runCli('fuzz', '--only', 'R02', '--seed', '5', '--runs', '30', '--failures-dir', failures, '--report-dir', reports, ...db());
    expect(third.code).toBe(0);
    expect(third.stdout).toContain(`${json}: now passes`);
  });

  it('replayed first, a side error does not take the verdict from an exploit saved beside it', async () => {
    // Seen (R02 with its guard dropped, seed 5): the run led with the exploit and listed a 23514
    // side error last; the next run replayed the side error's file first (it sorts first) and made
    // it R02's verdict, the exploit not shown at all.
    const broken = brokenMigrations();
    const failures = tmp('side-failures');
    const args = ['fuzz', '--migrations', broken, '--only', 'R01,R02', '--shard', '2/2', '--seed', '5', '--runs', '100', '--no-color', '--failures-dir', failures, ...db()];
    const first = await runCli(...args, '--report-dir', tmp('side-first'));
    expect(first.code).toBe(1);
    const headline = (out: string) => out.split('\n').find((l) => l.startsWith('R02 FAILED: '));
    expect(headline(first.stdout)).toMatch(/^R02 FAILED: step 1: database answered success, model expected error P0001/);
    // Both saved, the side error's file first in the folder.
    const saved = readdirSync(failures).filter((f) => f.endsWith('.json')).sort();
    const messages = saved.map((f) => (JSON.parse(readFileSync(path.join(failures, f), 'utf8')) as { message: string }).message);
    expect(messages.map((m) => m.slice(0, 16))).toEqual(['step 1: error 23', 'step 1: database']);
    const second = await runCli(...args, '--report-dir', tmp('side-second'));
    expect(second.code).toBe(1);
    expect(second.stdout).toContain(`${path.join(failures, saved[1])}: still fails`);
    expect(headline(second.stdout)).toBe(headline(first.stdout));
  });

  it('replay refuses a foreign or malformed file with exit 2 and says why', async () => {
    const dir = tmp('foreign');
    writeFileSync(path.join(dir, 'package.json'), '{"name":"x"}');
    const foreign = await runCli('replay', path.join(dir, 'package.json'));
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(/is not a policyfuzz failure file/);
    const missing = await runCli('replay', path.join(dir, 'nope.json'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/failure file not found/);
  });
});

describe('budgets, profiles, shards', () => {
  it('--shard i/n + merge-reports give the totals of one unsharded run of the same seeds', async () => {
    const common = ['--only', 'R02', '--seed', '11', '--runs', '150', '--no-replay', ...db()];
    const whole = tmp('whole');
    const one = tmp('shard1');
    const two = tmp('shard2');
    const merged = tmp('merged');
    expect((await runCli('fuzz', ...common, '--workers', '2', '--report-dir', whole)).code).toBe(0);
    expect((await runCli('fuzz', ...common, '--workers', '1', '--shard', '1/2', '--report-dir', one)).code).toBe(0);
    expect((await runCli('fuzz', ...common, '--workers', '1', '--shard', '2/2', '--report-dir', two)).code).toBe(0);
    const m = await runCli('merge-reports', one, path.join(two, 'summary.json'), '--out', merged);
    expect(m.code).toBe(0);
    expect(m.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed (seed 11)');
    const a = summaryOf(whole);
    const b = summaryOf(merged);
    expect(summaryOf(one).totals.cases).toBe(75);
    expect(b.totals).toEqual(a.totals);
    expect(b.properties.map((p) => [p.id, p.cases, p.counts])).toEqual(a.properties.map((p) => [p.id, p.cases, p.counts]));
    expect(b.shards).toEqual([{ index: 1, count: 2 }, { index: 2, count: 2 }]);
    expect(readFileSync(path.join(merged, 'report.html'), 'utf8')).toContain('shards 1/2, 2/2');

    const dup = await runCli('merge-reports', one, one, '--out', merged);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toMatch(/shard 1\/2 appears twice/);
  });

  it('--time-budget stops generating and reports how many cases ran', async () => {
    const r = await runCli('fuzz', '--only', 'R02', '--seed', '3', '--runs', '1000000', '--time-budget', '1500ms', '--no-replay', '--report-dir', tmp('budget'), ...db());
    expect(r.code).toBe(0);
    const m = /time budget reached: (\d+) cases ran/.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThan(0);
    expect(Number(m![1])).toBeLessThan(1000000);
  });

  it('bad --profile, --shard and --time-budget values exit 2 naming the option', async () => {
    expect((await runCli('fuzz', '--profile', 'weekly')).stderr).toMatch(/--profile is one of pr, nightly/);
    expect((await runCli('fuzz', '--shard', '3/2')).stderr).toMatch(/--shard takes i\/n/);
    const r = await runCli('fuzz', '--time-budget', 'soon');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--time-budget takes a duration/);
  });

  it('SSO properties run against the bundled emulator when asked, and land in the reports', async () => {
    const reports = tmp('sso');
    const r = await runCli('fuzz', '--only', 'S03,S07', '--sso-runs', '5', '--seed', '2', '--no-replay', '--report-dir', reports);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const s = summaryOf(reports);
    expect(s.properties.map((p) => [p.id, p.area, p.status])).toEqual([
      ['S03', 'sso', 'passed'],
      ['S07', 'sso', 'passed'],
    ]);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('2 passed, 0 failed (seed 2)');

    // A defective SSO target: the failure is saved, and replays by seed and path.
    const config = JSON.parse(readFileSync(EXAMPLE_SSO_CONFIG, 'utf8')) as Record<string, unknown>;
    const faulty = path.join(tmp('sso-config'), 'faulty.json');
    writeFileSync(faulty, JSON.stringify({ ...config, faults: ['ignore-client-secret'] }));
    const failures = tmp('sso-failures');
    const bad = await runCli('fuzz', '--only', 'S05', '--sso-runs', '10', '--seed', '2', '--sso-config', faulty, '--failures-dir', failures, '--report-dir', reports);
    expect(bad.code).toBe(1);
    const [file] = readdirSync(failures);
    expect(file).toMatch(/^S05-[0-9a-f]{12}\.json$/);
    expect((await runCli('replay', path.join(failures, file), '--sso-config', faulty, '--times', '2')).stdout).toMatch(/STILL FAILING \(2 of 2/);
    expect((await runCli('replay', path.join(failures, file))).stdout).toMatch(/FIXED \(3 clean replays\)/);
  });
});
