/**
 * The run emits events and its reporters subscribe: an extra reporter passed to `fuzz()` sees the
 * whole run in order, and the GitHub step-summary reporter writes through the real binary when
 * `GITHUB_STEP_SUMMARY` names a file (as on GitHub Actions).
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { fuzz } from './fuzz-command.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from './paths.ts';
import type { RunEvent } from '../engine/report/run-events.ts';
import type { FailureRecord } from '../engine/failures/schema.ts';
import { describeOutcome } from '../engine/failures/describe.ts';
import { psqlEcho } from '../engine/failures/repro-sql.ts';
import type { Outcome } from '../engine/model/outcome.ts';
import { referencePack } from '../packs/reference/index.ts';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';

describe('run events', () => {
  it('an extra reporter sees the run in order: notes, cases, the verdict of each property, the end, the files', async () => {
    const events: RunEvent[] = [];
    const lines: string[] = [];
    const code = await fuzz(
      {
        pack: referencePack,
        migrations: BUNDLED_MIGRATIONS,
        databaseUrl: inject('databaseUrl'),
        only: ['R02', 'R19'],
        seed: 3,
        runs: 40,
        replay: false,
        failuresDir: tempDir('failures'),
        reportDir: tempDir('reports'),
        reporters: [{ on: (e) => void events.push(e) }],
      },
      (line) => lines.push(line),
    );
    expect(code).toBe(0);
    const kinds = events.map((e) => e.type).filter((t, i, all) => t !== all[i - 1]);
    expect(kinds).toEqual(['note', 'generation-started', 'case-finished', 'generation-finished', 'property-finished', 'run-finished', 'reports-written']);
    const finished = events.filter((e) => e.type === 'property-finished').map((e) => e.result);
    expect(finished.map((r) => [r.id, r.status])).toEqual([['R02', 'passed'], ['R19', 'passed']]);
    // One case-finished per case run.
    expect(events.filter((e) => e.type === 'case-finished')).toHaveLength(finished.reduce((n, r) => n + r.cases, 0));
    const end = events.find((e) => e.type === 'run-finished');
    expect(end?.type === 'run-finished' && end.verdict).toMatchObject({ passed: 2, failed: 0, exitCode: 0, line: '2 passed, 0 failed (seed 3)' });
    // The console is a reporter too: its last line is the verdict.
    expect(lines.at(-1)).toBe('\n2 passed, 0 failed (seed 3)');
  });

  it('on GitHub Actions the step summary gets the verdict, a row per property and the replay line of a failure', async () => {
    const broken = tempDir('broken');
    for (const f of readdirSync(BUNDLED_MIGRATIONS)) copyFileSync(path.join(BUNDLED_MIGRATIONS, f), path.join(broken, f));
    copyFileSync(path.join(BUNDLED_MUTANTS, 'R02-users-role', 'mutants', 'R02-guard-trigger-dropped.sql'), path.join(broken, '9999_mutant.sql'));
    const stepSummary = path.join(tempDir('github'), 'step-summary.md');
    const failures = tempDir('failures');
    writeFileSync(stepSummary, '# earlier step\n');
    const run = await runBin(
      ['fuzz', '--migrations', broken, '--only', 'R02,R19', '--seed', '5', '--runs', '100', '--no-replay', '--failures-dir', failures, '--report-dir', tempDir('reports'), '--database-url', inject('databaseUrl')],
      { env: { ...process.env, GITHUB_STEP_SUMMARY: stepSummary } },
    );
    expect(run.code).toBe(1);
    const markdown = readFileSync(stepSummary, 'utf8');
    expect(markdown.startsWith('# earlier step\n')).toBe(true); // appended, as GitHub expects
    expect(markdown).toContain('### policyfuzz: 1 passed, 1 failed (seed 5)');
    expect(markdown).toMatch(/\| R02 \| FAIL \| \d+ \| step \d+:/);
    expect(markdown).toMatch(/\| R19 \| PASS \| 100 \|/);
    expect(markdown).toMatch(/- \*\*R02\*\*: `policyfuzz replay .*R02-[0-9a-f]{12}\.json`/);

    // The failure store saved the case's history: one prediction per step sent; the repro echoes them.
    const saved = readdirSync(failures).filter((f) => f.endsWith('.json'));
    expect(saved.length).toBeGreaterThan(0);
    for (const file of saved) {
      const record = JSON.parse(readFileSync(path.join(failures, file), 'utf8')) as FailureRecord;
      expect(record.predictions).toHaveLength(record.step! + 1);
      const repro = readFileSync(path.join(failures, file.replace(/\.json$/, '.sql')), 'utf8');
      for (const predicted of record.predictions!) expect(repro).toContain(psqlEcho(`model expects:     ${describeOutcome(predicted as Outcome)}`));
    }
  });
});
