/**
 * The command-line conventions, through the real binary (`node bin/policyfuzz.mjs`, built by
 * pretest): --report picks the files (sarif, matrix), --json prints summary.json alone on stdout,
 * --quiet keeps only failures and the final line, --exclude and --max-failures, NO_COLOR /
 * --no-color, and a clear exit 2 for a bad value. Every option is in --help.
 */
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from './paths.ts';
import type { RunSummary } from '../engine/report/summary.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { runBin } from '../testing/run-bin.ts';

// Removed at the end of the file (testing/remove-temp-dirs.ts).
const tmp = tempDir;

/** The real binary, with colour switches cleared so each test sets its own. */
const policyfuzz = (args: string[], env: Record<string, string> = {}) => runBin(args, { cwd: tmp('cwd'), env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...env } });
const fuzzArgs = (...more: string[]) => ['fuzz', '--database-url', inject('databaseUrl'), '--seed', '11', '--runs', '30', '--no-replay', '--failures-dir', tmp('failures'), ...more];

function brokenMigrations(): string {
  const dir = tmp('broken');
  for (const f of readdirSync(BUNDLED_MIGRATIONS)) copyFileSync(path.join(BUNDLED_MIGRATIONS, f), path.join(dir, f));
  copyFileSync(path.join(BUNDLED_MUTANTS, 'R02-users-role', 'mutants', 'R02-guard-trigger-dropped.sql'), path.join(dir, '9999_mutant.sql'));
  return dir;
}

describe('policyfuzz fuzz conventions (real binary)', () => {
  it('--help lists every option', async () => {
    const { stdout } = await policyfuzz(['fuzz', '--help']);
    for (const option of ['--report <formats>', '--exclude <ids>', '--max-failures <n>', '--json', '--quiet', '--verbose', '--no-color', '--only <ids>', '--report-dir <dir>']) expect(stdout).toContain(option);
  });

  it('--report sarif,matrix --json --quiet: only those files; stdout is summary.json; stderr is the final line, unpainted under FORCE_COLOR with --no-color', async () => {
    const reports = tmp('reports');
    // FORCE_COLOR would paint the final line (on stderr, with --json): --no-color wins over it.
    const r = await policyfuzz(fuzzArgs('--only', 'R02,R05', '--exclude', 'R05', '--report', 'sarif,matrix', '--report-dir', reports, '--json', '--quiet', '--no-color'), { FORCE_COLOR: '1' });
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as RunSummary;
    expect(summary.properties.map((p) => p.id)).toEqual(['R02']);
    expect(summary.matrix!.reduce((n, row) => n + row.steps, 0)).toBe(Object.values(summary.properties[0].counts).reduce((a, b) => a + b, 0));
    expect(readdirSync(reports).sort()).toEqual(['matrix.md', 'policyfuzz.sarif']);
    expect(JSON.parse(readFileSync(path.join(reports, 'policyfuzz.sarif'), 'utf8'))).toMatchObject({ version: '2.1.0', runs: [{ results: [] }] });
    expect(readFileSync(path.join(reports, 'matrix.md'), 'utf8')).toMatch(/^\| table \/ function \| command \|/);
    expect(r.stderr.trim()).toBe('1 passed, 0 failed (seed 11)');
  });

  it('--report matrix prints the access matrix as Markdown; the default writes json, junit and html', async () => {
    const reports = tmp('reports');
    const r = await policyfuzz(fuzzArgs('--only', 'R02', '--report', 'matrix,json,junit,html', '--report-dir', reports));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\| `users` \| update \| .*allowed \d+/m);
    expect(readdirSync(reports).sort()).toEqual(['junit.xml', 'matrix.md', 'report.html', 'summary.json']);
  });

  // One run for what --max-failures stops: a data property not started (R05) and the SSO half started
  // beside the data half on its thread (S02); R02 finds and shrinks its failure once for both.
  it('--max-failures 1 stops after the first failing property and names what did not run: a data property, and the SSO half started beside it on its thread (none of its results reported)', async () => {
    const reports = tmp('reports');
    // The file's 30 cases: R02 fails within them on this seed.
    const r = await policyfuzz(fuzzArgs('--migrations', brokenMigrations(), '--sso', '--only', 'R02,R05,S02', '--max-failures', '1', '--report-dir', reports), { FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // The SSO half started before the data half (its thread), then stopped when R02 failed.
    expect(r.stdout.indexOf('SSO: 1 properties')).toBeGreaterThan(-1);
    expect(r.stdout.indexOf('SSO: 1 properties')).toBeLessThan(r.stdout.indexOf('R02 FAILED'));
    expect(r.stdout).toContain('stopped after 1 failing property (--max-failures): not run R05, S02');
    expect(r.stdout).toMatch(/^R02 FAILED: /m);
    expect(r.stdout).toMatch(/^ {2}differs \(model → database\):\n {4}kind: "error" → "allowed"/m);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed, 2 not run (seed 11)');
    expect(r.stdout).not.toContain('\u001b['); // NO_COLOR wins over FORCE_COLOR
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.properties.map((p) => p.id)).toEqual(['R02']);
  });

  it('colour only when asked: FORCE_COLOR paints (--no-color over FORCE_COLOR: the --json run above; NO_COLOR over FORCE_COLOR: the --max-failures run)', async () => {
    const colored = await policyfuzz(fuzzArgs('--only', 'R02', '--quiet', '--report-dir', tmp('reports')), { FORCE_COLOR: '1' });
    expect(colored.stdout.trim()).toBe('\u001b[32m1 passed, 0 failed (seed 11)\u001b[39m');
  });

  it('a bad value is exit 2 with what was wrong', async () => {
    const report = await policyfuzz(['fuzz', '--report', 'pdf']);
    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(/--report takes a comma-separated list of json, junit, html, sarif, matrix \(got "pdf"\)/);
    const exclude = await policyfuzz(['fuzz', '--exclude', 'R7']);
    expect(exclude.code).toBe(2);
    expect(exclude.stderr).toMatch(/--exclude takes property ids like R02,R05 or S03 \(got "R7"\)/);
    const both = await policyfuzz(['fuzz', '--quiet', '--verbose', '--only', 'R02']);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('policyfuzz: --quiet and --verbose contradict each other: give one\n');
  });
});
