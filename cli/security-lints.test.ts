/**
 * The security lints (LINT01) through the real binary: every pack gets them, `--only LINT01`
 * checks the catalog alone (exit 0 on a clean target: examples/notes-app's CLI test), a finding exits 1 with its lines ranked on the console and a SARIF
 * result each, and a config's `rules.exclude` switches them off (its `rules.include` does not).
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from './paths.ts';
import type { RunSummary } from '../engine/report/summary.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { runBin } from '../testing/run-bin.ts';

const tmp = tempDir;
const fuzz = (...more: string[]) => runBin(['fuzz', '--database-url', inject('databaseUrl'), '--seed', '3', '--no-replay', '--no-color', '--failures-dir', tmp('failures'), ...more], { cwd: tmp('cwd') });

/** The reference with a definer view over vs_tickets (the shipped mutant) and merge_vs_tickets' search_path reset. */
function brokenMigrations(): string {
  const dir = tmp('broken');
  for (const f of readdirSync(BUNDLED_MIGRATIONS)) if (f.endsWith('.sql')) copyFileSync(path.join(BUNDLED_MIGRATIONS, f), path.join(dir, f));
  copyFileSync(path.join(BUNDLED_MUTANTS, 'R12-vs-submitter-view', 'mutants', 'LINT01-vs-overview-definer-view.sql'), path.join(dir, '9998_overview.sql'));
  writeFileSync(path.join(dir, '9999_merge.sql'), 'alter function public.merge_vs_tickets(text, text) reset search_path;\n');
  return dir;
}

describe('LINT01, the security lints (real binary)', () => {
  it('a definer view and a definer function with a mutable search_path: exit 1, findings ranked by level, one SARIF result each', async () => {
    const reports = tmp('broken-reports');
    const migrations = brokenMigrations();
    const r = await fuzz('--migrations', migrations, '--only', 'LINT01', '--report', 'json,sarif', '--report-dir', reports);
    expect(r.code, r.stderr).toBe(1);
    const error = r.stdout.indexOf('ERROR security_definer_view: public.vs_ticket_overview: view has no security_invoker and reads public.vs_tickets, whose rows row-level security narrows: it shows authenticated every row');
    const warn = r.stdout.indexOf('WARN function_search_path_mutable: public.merge_vs_tickets(p_duplicate text, p_primary text)');
    expect(error, r.stdout).toBeGreaterThan(0);
    expect(warn).toBeGreaterThan(error);
    expect(r.stdout).toContain(`replay:   policyfuzz fuzz --migrations ${migrations} --only LINT01`);
    const sarif = JSON.parse(readFileSync(path.join(reports, 'policyfuzz.sarif'), 'utf8'));
    expect(sarif.runs[0].results.map((x: { ruleId: string; level: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }) => [x.ruleId, x.level, path.basename(x.locations[0].physicalLocation.artifactLocation.uri)])).toEqual([
      ['LINT01:catalog/security_definer_view', 'error', '9998_overview.sql'],
      ['LINT01:catalog/function_search_path_mutable', 'warning', '0200_vs.sql'],
    ]);
  });

  it("a config's rules.include keeps LINT01 on; its rules.exclude switches it off", async () => {
    const migrations = brokenMigrations();
    const config = (name: string, rules: object) => {
      const file = path.join(tmp(name), 'policyfuzz.config.json');
      writeFileSync(file, JSON.stringify({ migrations: [migrations], rules }));
      return file;
    };
    const included = await fuzz('--config', config('include', { include: ['R02'] }), '--only', 'LINT01', '--report-dir', tmp('include-reports'));
    expect(included.code, included.stdout + included.stderr).toBe(1);
    expect(included.stdout).toContain('ERROR security_definer_view');
    const reports = tmp('exclude-reports');
    const excluded = await fuzz('--config', config('exclude', { exclude: ['LINT01'] }), '--only', 'LINT01', '--report-dir', reports);
    expect(excluded.code, excluded.stdout + excluded.stderr).toBe(0);
    expect((JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as RunSummary).properties).toEqual([]);
  });
});
