/**
 * A mapping naming a table, column or function the target lacks, through the real binary: a
 * one-line error naming the key, the name and the nearest names (exit 2), where it used to give
 * "N/A: the target has no users" and harness ERRORs (exit 1). A diff's base that does not have a
 * mapped table yet is the base's state, not a mistake: the rule is skipped, saying so.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { escapeRegExp } from '../engine/regexp.ts';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { PROJECT_ROOT } from './paths.ts';

const STUDENT_UNION = path.join(PROJECT_ROOT, 'examples', 'student-union');

/** A copy of examples/student-union whose config adds `mapping`. */
function studentUnionWith(mapping: unknown): string {
  const dir = tempDir('mapped-names');
  cpSync(STUDENT_UNION, dir, { recursive: true });
  const config = path.join(dir, 'policyfuzz.config.json');
  writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), mapping }));
  return config;
}

describe('a mapping naming what the target lacks', () => {
  it('fuzz: exit 2, one line naming each key, the name and the nearest names; no verdict', async () => {
    const config = studentUnionWith({ tables: { pr_tickets: { name: 'press_request' }, users: { columns: { phone: 'mobil' } } }, functions: { get_pr_ticket_by_id: { name: 'lookup_press_requests' } } });
    const dir = path.dirname(config);
    const r = await runBin(['fuzz', '--config', config, '--only', 'R02,R07', '--seed', '1', '--runs', '10', '--no-replay', '--no-color', '--database-url', inject('databaseUrl'), '--report-dir', path.join(dir, 'r'), '--failures-dir', path.join(dir, 'f')]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^policyfuzz: ${escapeRegExp(config)}: ` +
          'mapping\\.tables\\.users\\.columns\\.phone names mobil, which the target does not have \\(nearest: mobile, [^)]*\\); ' +
          'mapping\\.tables\\.pr_tickets\\.name names press_request, which the target does not have \\(nearest: press_requests, [^)]*\\); ' +
          'mapping\\.functions\\.get_pr_ticket_by_id\\.name names lookup_press_requests, which the target does not have \\(nearest: lookup_press_request, [^)]*\\): ' +
          'fix the name, or leave the key out where the target lacks the thing itself\\n$',
      ),
    );
    expect(r.stdout).not.toMatch(/N\/A|ERROR|passed/);
  }, 120_000);

  it('diff --base: a mapped table the base does not create yet skips the rule, saying it is the base\'s state; exit 0', async () => {
    const config = studentUnionWith(undefined);
    const project = path.dirname(config);
    // The base: the migrations before press_requests was created (the mapping's users and members stay).
    const base = tempDir('mapped-names-base');
    const migrations = path.join(project, 'supabase', 'migrations');
    for (const f of readdirSync(migrations)) if (f < '20230401090000') cpSync(path.join(migrations, f), path.join(base, f));
    rmSync(path.join(project, 'r'), { recursive: true, force: true });
    const r = await runBin(['diff', '--base', base, '--config', config, '--only', 'R02,R07', '--seed', '1', '--runs', '10', '--database-url', inject('databaseUrl')], { cwd: project });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/R07.*base lacks pr_tickets.*\(the base's state: its migrations do not create it yet; the mapping is checked on the head\)/);
  }, 180_000);
});
