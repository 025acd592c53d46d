/**
 * `diff` compares what `fuzz` compares, through the real binary: identical migration states of
 * every example project (the reference and the three examples, each with its own config or pack)
 * show no change, and a change of a refusal's text that `fuzz --only R20` fails is a regression
 * naming R20 (it used to be invisible to diff, which compared error codes only).
 */
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { BUNDLED_MIGRATIONS, PROJECT_ROOT } from './paths.ts';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';

const EXAMPLES = path.join(PROJECT_ROOT, 'examples');

/** A copy of a migrations folder (the same state under another path). */
function copyOf(dir: string, name: string): string {
  const copy = path.join(tempDir(`diff-${name}`), 'migrations');
  cpSync(dir, copy, { recursive: true });
  return copy;
}

const PROJECTS: Array<{ name: string; cwd: string; migrations: string; args: string[] }> = [
  { name: 'reference', cwd: PROJECT_ROOT, migrations: BUNDLED_MIGRATIONS, args: ['--head', BUNDLED_MIGRATIONS] },
  { name: 'student-union', cwd: path.join(EXAMPLES, 'student-union'), migrations: path.join(EXAMPLES, 'student-union', 'supabase', 'migrations'), args: [] },
  { name: 'campus-shop', cwd: path.join(EXAMPLES, 'campus-shop'), migrations: path.join(EXAMPLES, 'campus-shop', 'supabase', 'migrations'), args: [] },
  { name: 'notes-app', cwd: path.join(EXAMPLES, 'notes-app'), migrations: path.join(EXAMPLES, 'notes-app', 'supabase', 'migrations'), args: ['--pack', 'policyfuzz.pack.ts'] },
];

describe('diff of identical states reports no change on every example project', () => {
  it.each(PROJECTS.map((p) => [p.name, p] as const))('%s', async (_name, project) => {
    // 10 cases a rule on each side: every rule of the project still runs on both and is
    // compared; the rules holding at length is each rule's and each example's own test (30
    // cases: the reference's diff took 10.7 s of CPU, 6.1 s at 10, measured).
    const r = await runBin(['diff', '--base', copyOf(project.migrations, project.name), ...project.args, '--runs', '10', '--seed', '5', '--database-url', inject('databaseUrl')], { cwd: project.cwd });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^no behaviour change in [1-9]\d* rule\(s\) \([^)]+\), 10 cases each, seed 5$/m);
    expect(r.stdout).toMatch(/^0 regression\(s\), 0 fix\(es\), 0 change\(s\) outside the rules/m);
    // Identical states list no privilege change (cli/diff.test.ts: a grant and a revoke do).
    expect(r.stdout).not.toContain('privileges of');
    expect(r.code).toBe(0);
  }, 120_000);
});

describe('diff judges error text where the spec names it, as fuzz does', () => {
  it('R20 refusing with another text than NOT_AUTHORIZED: a regression naming R20, exit 1', async () => {
    const head = copyOf(BUNDLED_MIGRATIONS, 'r20-text');
    const file = readdirSync(head).find((f) => f.endsWith('_passport.sql'))!;
    const sql = readFileSync(path.join(head, file), 'utf8');
    expect(sql).toContain("raise exception 'NOT_AUTHORIZED'");
    writeFileSync(path.join(head, file), sql.replace("raise exception 'NOT_AUTHORIZED'", "raise exception 'FORBIDDEN'"));
    // 20 cases: seed 5 meets the changed refusal in 10 of them, as two regressions (signed in and service).
    const r = await runBin(['diff', '--base', BUNDLED_MIGRATIONS, '--head', head, '--only', 'R20', '--runs', '20', '--seed', '5', '--database-url', inject('databaseUrl')]);
    expect(r.stdout).toMatch(/^REGRESSION\s+R20\s+error text changed/m);
    expect(r.stdout).toMatch(/^[1-9]\d* regression\(s\), 0 fix\(es\), 0 change\(s\) outside the rules/m);
    expect(r.code).toBe(1);
  }, 120_000);

  it('a config with two migration folders and one base folder: exit 2 saying to give one for each', async () => {
    const dir = tempDir('diff-two-folders');
    const [a, b] = ['a', 'b'].map((n) => path.join(dir, n));
    cpSync(BUNDLED_MIGRATIONS, a, { recursive: true });
    cpSync(path.join(EXAMPLES, 'notes-app', 'supabase', 'migrations'), b, { recursive: true });
    writeFileSync(path.join(dir, 'policyfuzz.config.json'), JSON.stringify({ migrations: ['a', 'b'] }));
    const r = await runBin(['diff', '--base', a, '--database-url', inject('databaseUrl')], { cwd: dir });
    expect(r.stderr).toMatch(/^policyfuzz: --base names 1 folder\(s\) but the head has 2 migrations folder\(s\) \(a, b\): give a base folder for each/m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(2);
    const both = await runBin(['diff', '--base', a, b, '--only', 'R02', '--runs', '30', '--seed', '5', '--database-url', inject('databaseUrl')], { cwd: dir });
    expect(both.stdout).toMatch(/^0 regression\(s\), 0 fix\(es\), 0 change\(s\) outside the rules/m);
    expect(both.code).toBe(0);
  }, 120_000);
});
