/**
 * Distinct findings and the baseline, through the real binary (bin/policyfuzz.mjs, compiled
 * dist/) against real Postgres: R04 with two unrelated holes (a buyer lowers the amounts of their
 * order, found at once; a buyer marks their own order paid, found later) reports both as distinct
 * findings; with the first accepted in a baseline, the run fails only on the second; on the fixed
 * migrations the entries are FIXED and --update-baseline prunes them.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { tempDir } from '../testing/temp-dir.ts';
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import { applyEdits, loadMutants } from '../engine/mutants/mutant-files.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from './paths.ts';

// Removed at the end of the file (testing/remove-temp-dirs.ts).
const tmp = tempDir;

/** The reference migrations with both R04 holes applied, as a folder. */
function twoHoles(): string {
  const mutants = loadMutants(path.join(BUNDLED_MUTANTS, 'R04-shop-buyer', 'mutants'));
  const pick = (name: string) => mutants.find((m) => m.name === name)!;
  const files = applyEdits(pick('R04-guard-allow-list-has-amounts'), applyEdits(pick('R04-buyer-window-only-on-old-row'), loadMigrationFolder(BUNDLED_MIGRATIONS)));
  const dir = tmp('two-holes');
  for (const f of files) writeFileSync(path.join(dir, f.name), f.sql);
  return dir;
}

async function policyfuzz(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['bin/policyfuzz.mjs', ...args], { maxBuffer: 32 << 20 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const PAID = 'R04 | PATCH shop_orders | signed-in | allowed-not-refused(42501/policy) | update check on shop_orders';
const AMOUNTS = 'R04 | PATCH shop_orders | signed-in | allowed-not-refused(P0001) | owner guard of shop_orders';

describe('findings and a baseline, through bin/policyfuzz.mjs', () => {
  it('reports both holes; with the first baselined fails only on the second; FIXED entries are pruned', async () => {
    const broken = twoHoles();
    const work = tmp('baseline');
    // 100 cases: seed 7 finds both holes within them (the same three findings as at 150).
    const common = ['--only', 'R04', '--seed', '7', '--runs', '100', '--workers', '2', '--no-replay', '--report-dir', path.join(work, 'reports'), '--database-url', inject('databaseUrl')];
    const run = (migrations: string, ...more: string[]) => policyfuzz('fuzz', '--migrations', migrations, ...common, '--failures-dir', path.join(work, 'failures'), ...more);

    // The first run writes everything it finds as the baseline (--update-baseline): the same run,
    // findings, shrinking and replay lines as without it, exit 0 (a run with findings exits 1: the
    // second run below), one R04 run of 100 cases and its shrinking fewer (~3.5 s of CPU, measured).
    const file = path.join(work, 'baseline.json');
    const all = await run(broken, '--baseline', file, '--update-baseline');
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^baseline .*baseline\.json written: \d+ accepted finding\(s\)$/m);
    expect(all.stdout).toContain(PAID);
    expect(all.stdout).toContain(AMOUNTS);
    expect(all.stdout).toMatch(/R04: \d+ distinct finding\(s\)/);
    // Both in the reports, each with its saved file.
    const summary = JSON.parse(readFileSync(path.join(work, 'reports', 'summary.json'), 'utf8')) as { properties: Array<{ failures: Array<{ file: string | null; signature: string; sizes: { after: unknown } }> }> };
    // The amounts hole may also surface as a constraint error the guard should have preceded: another kind, same clause.
    const signatures = summary.properties[0].failures.map((f) => f.signature);
    expect(signatures).toEqual(expect.arrayContaining([AMOUNTS, PAID]));
    expect(new Set(signatures.map((s) => s.split(' | ').at(-1)))).toEqual(new Set(['owner guard of shop_orders', 'update check on shop_orders']));
    expect(summary.properties[0].failures[signatures.indexOf(PAID)].sizes.after).toEqual({ users: 1, rows: 1, steps: 1 });
    expect(new Set(summary.properties[0].failures.map((f) => f.file)).size).toBe(signatures.length);
    expect(all.stdout).toMatch(/shrunk from \d+ user\(s\), \d+ fixture row\(s\), \d+ step\(s\) to 1 user\(s\), \d fixture row\(s\), 1 step\(s\)/);

    // Each finding has its own replay line, and it reproduces that finding, not the other hole
    // (its path is fast-check's shrunk case, whose first disagreement has the finding's signature).
    for (const signature of [PAID, AMOUNTS]) {
      const block = all.stdout.slice(all.stdout.indexOf(`. ${signature}`));
      const shown = /\(shown above\)/.test(block.split('\n').slice(0, 3).join('\n'));
      const replay = /replay: +policyfuzz (fuzz .*)/.exec(shown ? all.stdout : block)![1].split(' ');
      const replayed = await policyfuzz(...replay, '--no-replay', '--report-dir', path.join(work, 'reports'), '--database-url', inject('databaseUrl'));
      expect(replayed.code).toBe(1);
      expect(replayed.stdout).toContain(`1. ${signature}`);
    }

    // Everything found, written as a baseline; then only the amounts hole (found first) kept in it, with a reason.
    const baseline = JSON.parse(readFileSync(file, 'utf8')) as { findings: Array<{ signature: string; reason: string }> };
    expect(baseline.findings.map((e) => e.signature)).toContain(PAID);
    expect(baseline.findings.map((e) => e.signature).sort()).toEqual([...signatures].sort());
    const guardHole = (signature: string) => signature.endsWith('| owner guard of shop_orders');
    writeFileSync(file, JSON.stringify({ ...baseline, findings: baseline.findings.filter((e) => guardHole(e.signature)).map((e) => ({ ...e, reason: 'known: fixed in the next release' })) }));

    const second = await run(broken, '--baseline', file);
    expect(second.code).toBe(1);
    expect(second.stdout).toContain(`accepted: ${AMOUNTS} (known: fixed in the next release)`);
    expect(second.stdout).toContain('R04 FAILED: step 1: database answered success, model expected 42501 (policy)');
    expect(second.stdout).toContain(PAID);
    expect(second.stdout).toMatch(/baseline: \d+ found again, 0 still reproduce, 0 FIXED/);
    // A run whose findings are all accepted passes.
    writeFileSync(file, JSON.stringify(baseline));
    expect((await run(broken, '--baseline', file)).code).toBe(0);

    // On the reference migrations (both holes closed) the entries are FIXED; --update-baseline prunes them.
    const fixed = await run(path.resolve(BUNDLED_MIGRATIONS), '--baseline', file, '--update-baseline');
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain(`FIXED: ${PAID}`);
    expect(fixed.stdout).toContain(`FIXED: ${AMOUNTS}`);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { findings: unknown[] }).findings).toEqual([]);

    const bad = await run(broken, '--baseline', path.join(work, 'missing.json'));
    expect(bad.code).toBe(2);
    expect(bad.stderr + bad.stdout).toContain('baseline file not found');
  }, 240_000);
});
