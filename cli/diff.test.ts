/**
 * `policyfuzz diff` through the real binary (bin/policyfuzz.mjs, compiled dist/) against real
 * Postgres (identical states: cli/diff-examples.test.ts): a broken policy is a regression naming the
 * rule and clause (exit 1); the way back is a fix; an equivalent rewrite of a policy exits 0;
 * a git ref works as the base.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { loadMigrationFolder, type MigrationFile } from '../engine/db/migrations.ts';
import { applyEdits, loadMutants } from '../engine/mutants/mutant-files.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from './paths.ts';
import { tempDir } from '../testing/temp-dir.ts';

function folder(name: string, files: MigrationFile[]): string {
  const dir = tempDir(`diff-${name}`);
  for (const f of files) writeFileSync(path.join(dir, f.name), f.sql);
  return dir;
}

const reference = () => loadMigrationFolder(BUNDLED_MIGRATIONS);
const broken = () => {
  const mutant = loadMutants(path.join(BUNDLED_MUTANTS, 'R04-shop-buyer', 'mutants')).find((m) => m.name === 'R04-buyer-window-only-on-old-row')!;
  return folder('broken', applyEdits(mutant, reference()));
};
/** The buyer's window written as ORs instead of IN: the same policy. */
const refactored = () =>
  folder(
    'refactor',
    reference().map((f) => (f.name === '0310_shop_orders.sql' ? { ...f, sql: f.sql.replaceAll("status in ('pending', 'review', 'slip_mismatch')", "(status = 'pending' or status = 'slip_mismatch' or status = 'review')") } : f)),
  );

async function policyfuzz(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['bin/policyfuzz.mjs', ...args], { maxBuffer: 32 << 20, env });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

// 50 cases of R04 a side: seed 3 meets the broken buyer's window in 2 of them, each way (as at 150).
const RUNS = '50';
const diff = (base: string, head: string, ...more: string[]) => policyfuzz(['diff', '--base', base, '--head', head, '--only', 'R04', '--seed', '3', '--runs', RUNS, '--database-url', inject('databaseUrl'), ...more]);

describe('policyfuzz diff', () => {
  // Identical states (no change, no privilege change, exit 0): cli/diff-examples.test.ts, on every
  // rule of the reference and of each example, through the same binary.

  it('a broken policy: a regression naming the rule and clause, exit 1, with Markdown for the PR', async () => {
    const markdown = path.join(folder('md', []), 'diff.md');
    const r = await diff(BUNDLED_MIGRATIONS, broken(), '--markdown', markdown);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/REGRESSION\s+R04\s+newly allowed\s+\d+\s+R04 \| PATCH shop_orders \| signed-in \| allowed-not-refused\(42501\/policy\) \| update check on shop_orders/);
    expect(r.stdout).not.toMatch(/^FIX /m);
    const md = readFileSync(markdown, 'utf8');
    expect(md).toContain('### policyfuzz behaviour diff');
    expect(md).toMatch(/\| \*\*regression\*\* \| R04 \| newly allowed \| \d+ \| R04 \\\| PATCH shop_orders/);
  }, 60_000);

  it('a grant that changes no answer yet, and a revoke: listed as privilege changes (console and Markdown), exit 0', async () => {
    const head = folder('grants', [
      ...reference(),
      {
        name: '9999_grants.sql',
        path: '9999_grants.sql',
        sql: `grant delete on table public.pr_tickets to anon;
revoke update on table public.pr_tickets from authenticated;
create function public.pf_probe() returns int language sql as 'select 1';`,
      },
    ]);
    const markdown = path.join(folder('md-grants', []), 'diff.md');
    const r = await diff(BUNDLED_MIGRATIONS, head, '--markdown', markdown);
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no behaviour change in 1 rule(s) (R04)');
    // A new function is executable by every role through PUBLIC, as Postgres grants it.
    const expected = ['+ anon DELETE on public.pr_tickets', '+ anon EXECUTE on public.pf_probe()', '+ authenticated EXECUTE on public.pf_probe()', '- authenticated UPDATE on public.pr_tickets'];
    expect(r.stdout).toContain(`privileges of anon and authenticated that changed (a grant may change no answer yet):\n${expected.map((l) => `  ${l}`).join('\n')}`);
    expect(r.stdout).toContain('0 regression(s), 0 fix(es), 0 change(s) outside the rules, 4 privilege change(s)');
    expect(readFileSync(markdown, 'utf8')).toContain(['```diff', ...expected, '```'].join('\n'));
    // Identical states list none: the first test's run, the same diff.
  }, 60_000);

  it('across a fix: reported as a fix, exit 0', async () => {
    const r = await diff(broken(), BUNDLED_MIGRATIONS);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/FIX\s+R04\s+newly refused\s+\d+\s+R04 \| PATCH shop_orders \| signed-in \| allowed-not-refused\(42501\/policy\)/);
    expect(r.stdout).toMatch(/0 regression\(s\), [1-9]\d* fix\(es\)/);
  }, 60_000);

  it('an equivalent rewrite of a policy: no change, exit 0', async () => {
    const head = refactored();
    expect(readFileSync(path.join(head, '0310_shop_orders.sql'), 'utf8')).toContain("status = 'slip_mismatch' or");
    const r = await diff(BUNDLED_MIGRATIONS, head);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no behaviour change');
  }, 60_000);

  it('a git ref as the base; a bad base or two heads is a clear error (exit 2)', async () => {
    // Its own temp folder, so the check that the base copy is removed sees no one else's.
    const tmp = folder('tmp', []);
    const r = await policyfuzz(['diff', '--base', 'HEAD', '--head', BUNDLED_MIGRATIONS, '--only', 'R04', '--seed', '3', '--runs', RUNS, '--database-url', inject('databaseUrl')], { ...process.env, TMPDIR: tmp });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('policyfuzz diff: HEAD:packs/reference/migrations');
    expect(r.stdout).toContain('no behaviour change');
    expect(readdirSync(tmp)).toEqual([]);
    const bad = await diff('no-such-ref-or-folder', BUNDLED_MIGRATIONS);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--base no-such-ref-or-folder: neither a folder nor a git ref');
    const both = await diff(BUNDLED_MIGRATIONS, BUNDLED_MIGRATIONS, '--config', 'examples/campus-shop/policyfuzz.config.json');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--head and --config both name the head migrations: give one');
  }, 60_000);
});
