/**
 * The second worked example: a Supabase project written in a different hand from the reference
 * (examples/student-union: 47 migrations grown over a year, 17 tables, renamed and added
 * columns, a singleton settings row, seeded tables, definer functions with their own parameter
 * names and return shapes that refuse with 42501, Supabase's default privileges). Its pack
 * (policyfuzz.pack.ts) maps it to the reference model through the public API; no adapter
 * migration changes the schema under test.
 *
 * - At its final state every applicable rule holds: zero false alarms.
 * - Three security bugs it really had, reintroduced by stopping the migrations before each fix,
 *   are each flagged by the rule they break, and not after the fix.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replay } from '../../cli/replay-command.ts';
import { inspectMigrations } from '../../engine/config/init.ts';
import { resolveTarget } from '../../engine/config/target.ts';
import { escapeRegExp } from '../../engine/regexp.ts';
import { openEnvironment } from '../../engine/runner/environment.ts';
import { referencePack } from '../../packs/reference/index.ts';
import { runBin } from '../../testing/run-bin.ts';
import { pgtapMissing, prove, withPgtap } from '../../testing/pgtap.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import { exampleFile } from '../../testing/example-project.ts';
import pack from './policyfuzz.pack.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SEED = 11;
const APPLICABLE = ['R01', 'R02', 'R04', 'R05', 'R07', 'R08', 'R14', 'R16'];

const example = exampleFile(HERE, pack, SEED, 'student-union');
const { run, stoppedBefore, config: CONFIG, migrations: MIGRATIONS } = example;

describe('student union at its final state', () => {
  it('has the shape the example promises: ≥ 40 migrations, ≥ 15 tables, no policyfuzz-specific migration', () => {
    const files = readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql'));
    expect(files.length).toBeGreaterThanOrEqual(40);
    const sql = files.map((f) => readFileSync(path.join(MIGRATIONS, f), 'utf8')).join('\n');
    expect(new Set([...sql.matchAll(/CREATE TABLE public\.(\w+)/g)].map((m) => m[1])).size).toBeGreaterThanOrEqual(15);
    expect(sql).not.toMatch(/policyfuzz/i);
  });

  // Also the "after" half of the three bugs below: R02, R04 and R07 hold once their fixes are applied.
  it('every applicable rule holds, with no false alarm; the rest are not applicable', async () => {
    const { code, summary } = await run(CONFIG, 'final');
    const ran = summary.properties.map((p) => ({ id: p.id, status: p.status, failure: p.failures[0]?.message ?? null }));
    // The security lints (LINT01) find nothing wrong with its catalog either.
    expect(ran).toEqual([...APPLICABLE, 'LINT01:catalog'].map((id) => ({ id, status: 'passed', failure: null })));
    // Applicability per object: R07 ran its PR part and says which parts it left out (no VS tickets here).
    const r07 = summary.properties.find((p) => p.id === 'R07')!;
    expect(r07.note).toMatch(/^ran without the parts that need vs_tickets/);
    expect(r07.note).not.toMatch(/pr_tickets|soft_delete_pr_ticket/);
    expect(summary.properties.find((p) => p.id === 'R02')!.note ?? null).toBeNull();
    // They ran against this schema: both sides of the rules were reached (the lints read the catalog once: no cases).
    for (const p of summary.properties.filter((x) => APPLICABLE.includes(x.id))) {
      expect(p.cases).toBe(100);
      expect(p.counts.allowed! + p.counts.filtered!).toBeGreaterThan(0);
      expect(p.counts.rejected).toBeGreaterThan(0);
    }
    expect(code).toBe(0);
  });
});

describe('policyfuzz init on the student union', () => {
  // What a user still writes by hand (init cannot see meaning in unrelated names): seven column
  // names and the role and permission settings.
  const HAND_WRITTEN: Record<string, string[]> = {
    users: ['display_name', 'avatar_url', 'phone', 'department'],
    pr_tickets: ['submitter_label', 'brief', 'file_url'],
    shop_orders: [],
  };

  it('proposes the pack’s mapping but for the hand-written parts, and says what is left to do', async () => {
    const report = await inspectMigrations(example.server, MIGRATIONS, referencePack.properties, example.tmp, referencePack.model, referencePack.vocabularies);
    const proposed = report.proposal.mapping;
    const written = pack.mapping!;
    for (const [table, hand] of Object.entries(HAND_WRITTEN)) {
      const expected = Object.fromEntries(Object.entries(written.tables![table].columns!).map(([c, t]) => [c, hand.includes(c) ? null : t]));
      expect({ table, name: proposed.tables![table].name, columns: proposed.tables![table].columns }).toEqual({ table, name: written.tables![table].name, columns: expected });
    }
    expect(proposed.functions!.soft_delete_pr_ticket).toEqual(written.functions!.soft_delete_pr_ticket);
    expect(proposed.functions!.get_pr_ticket_by_id).toEqual({ name: 'lookup_press_request', args: { p_id: 'p_ref' }, columns: { id: 'ref', status: 'state' } });
    expect(proposed.conventions).toEqual(written.conventions);
    expect(report.proposal.settings).toMatchObject({ pr: { initialStatus: 'new' }, shop: { initialStatus: 'awaiting' } });
    // The rules draw roles by meaning from the settings: no role word is left to map by hand.
    expect(report.proposal.notes.filter((n) => /^to do: the rules also generate .* in users\.role/.test(n))).toEqual([]);
  });
});

describe('three historical bugs, each before and after its fix', () => {
  const bugs = [
    { fix: '20230901090000_fix_member_guard_allow_list.sql', rule: 'R02', what: 'the members guard was a deny-list that forgot role' },
    { fix: '20230915090000_fix_orders_status_window.sql', rule: 'R04', what: 'a customer could move their own order to paid' },
    { fix: '20231002090000_fix_archive_press_request.sql', rule: 'R07', what: 'any signed-in member could archive any press request' },
  ];
  for (const bug of bugs) {
    it(`${bug.rule} flags it before ${bug.fix} (${bug.what})`, async () => {
      const before = await run(stoppedBefore(bug.fix), `before-${bug.rule}`, [bug.rule]);
      const result = before.summary.properties.find((p) => p.id === bug.rule)!;
      expect(result.status).toBe('failed');
      // A real disagreement about access, not a harness error or a shape the mapping missed.
      expect(result.failures[0].message).not.toMatch(/harness|returned rows differ/);
      expect(before.code).toBe(1);
    });
  }

  it('the saved R07 failure replays on the state it was found on (its config), and its psql repro runs on that schema', async () => {
    const dir = path.join(example.tmp, 'before-R07', 'failures');
    const json = readdirSync(dir).find((f) => f.startsWith('R07-') && f.endsWith('.json'))!;
    // The target it was found on: the config (its migration folders, skips, settings and mapping).
    const record = JSON.parse(readFileSync(path.join(dir, json), 'utf8')) as { target: { config: string; migrations: string | null } };
    expect(record.target.config).toBe(stoppedBefore('20231002090000_fix_archive_press_request.sql'));

    const lines: string[] = [];
    expect(await replay(path.join(dir, json), { pack, databaseUrl: example.server.adminUrl, times: 1 }, (l) => lines.push(l))).toBe(1);
    expect(lines.join('\n')).toMatch(/STILL FAILING/);
    // At the final state (the fix applied) the same case holds.
    expect(await replay(path.join(dir, json), { pack, config: CONFIG, databaseUrl: example.server.adminUrl, times: 1 }, () => {})).toBe(0);

    // The repro writes the fixtures through the target's plan and sends the mapped requests.
    const target = await resolveTarget(pack, { config: record.target.config, migrations: MIGRATIONS });
    const env = await openEnvironment({ server: example.server, migrations: target.migrations, workers: 1, fixtures: target.fixtures });
    try {
      const sql = path.join(dir, json.replace(/\.json$/, '.sql'));
      // The shrunk case may need no fixture row at all (archiving a ticket that does not exist
      // already disagrees); the request goes out under the target's own function and parameter names.
      expect(readFileSync(sql, 'utf8')).toMatch(/archive_press_request/);
      const { stdout, stderr } = await promisify(execFile)('/usr/bin/psql', [env.template.url, '-X', '-v', 'ON_ERROR_STOP=0', '-f', sql], { env: { ...process.env, PGOPTIONS: '' } });
      expect(stderr).not.toMatch(/does not exist|violates|syntax error/);
      expect(stdout).toMatch(/model expects:/);
      expect(stdout).toMatch(/^page_total \| \d+$/m);
    } finally {
      await env.close();
    }
  });
});

describe('the CLI on the student union (bin/policyfuzz.mjs, a child process)', () => {
  const FIX = '20231002090000_fix_archive_press_request.sql';
  /** The fix and every later migration: the state before the fix. */
  const fromFix = () => {
    const files = readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')).sort();
    return files.slice(files.indexOf(FIX));
  };
  const cliDir = () => path.join(example.tmp, 'cli');
  const options = (name: string, runs = 100) => ['--database-url', example.server.adminUrl, '--seed', String(SEED), '--runs', String(runs), '--workers', '1', '--report-dir', path.join(cliDir(), name, 'report'), '--failures-dir', path.join(cliDir(), name, 'failures'), '--no-replay', '--no-color', '--quiet'];

  it('loads the pack its config names ("pack"), skips migrations with --skip, and a saved failure replays and runs as pgTAP', async () => {
    // In the project's folder the config is found, and it names the pack: no code of the user's runs policyfuzz.
    const before = await runBin(['fuzz', '--only', 'R07', '--skip', ...fromFix(), ...options('before')], { cwd: HERE });
    expect(before.stderr).toBe('');
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/^R07 FAILED: step \d+: database answered success, model expected error P0001/m);
    // The replay line names the skipped files; the saved failure records them.
    expect(before.stdout).toMatch(new RegExp(`replay: +policyfuzz fuzz --config \\S+policyfuzz\\.config\\.json --skip ${escapeRegExp(FIX)} `));
    const dir = path.join(cliDir(), 'before', 'failures');
    const json = readdirSync(dir).find((f) => f.startsWith('R07-') && f.endsWith('.json'))!;
    const record = JSON.parse(readFileSync(path.join(dir, json), 'utf8')) as { target: { config: string; skip: string[] } };
    expect(record.target).toEqual({ config: CONFIG, migrations: null, skip: fromFix(), savedIn: path.resolve(dir) });

    // Replayed from anywhere: the config, its pack and the skipped files come from the record.
    const replayed = await runBin(['replay', path.join(dir, json), '--times', '1', '--database-url', example.server.adminUrl], { cwd: tempDir('student-union-cwd') });
    expect(replayed.stdout).toMatch(/STILL FAILING/);
    expect(replayed.code).toBe(1);
    // With the fix applied (--skip given anew, empty of it), the same case holds.
    const fixed = await runBin(['replay', path.join(dir, json), '--times', '1', '--database-url', example.server.adminUrl, '--config', CONFIG], { cwd: tempDir('student-union-cwd') });
    expect(fixed.stdout).toMatch(/FIXED/);
    expect(fixed.code).toBe(0);

    // Its pgTAP test speaks the target's names (archive_press_request, 42501 "not authorized"):
    // it fails on the schema before the fix and passes after it.
    const pgtap = path.join(dir, json.replace(/\.json$/, '.pgtap.sql'));
    expect(readFileSync(pgtap, 'utf8')).toMatch(/archive_press_request/);
    if (pgtapMissing()) return;
    for (const [config, skip, passes] of [[CONFIG, fromFix(), false], [CONFIG, [], true]] as const) {
      const target = await resolveTarget(pack, { config, migrations: MIGRATIONS, skip: [...skip] });
      const env = await openEnvironment({ server: example.server, migrations: target.migrations, workers: 1, fixtures: target.fixtures, api: target.api });
      try {
        const result = await prove(await withPgtap(env), pgtap);
        expect({ passes: result.ok, tap: result.tap }).toMatchObject({ passes });
        if (!passes) expect(result.tap).toMatch(/^not ok 1 - step 1: user .* POST \/rest\/v1\/rpc\/soft_delete_pr_ticket/m);
      } finally {
        await env.close();
      }
    }
  });

  it('--pack loads a project pack for a config without "pack"; the final state holds', async () => {
    const { pack: _named, ...config } = JSON.parse(readFileSync(CONFIG, 'utf8')) as Record<string, unknown>;
    const file = path.join(example.tmp, 'no-pack.config.json');
    writeFileSync(file, JSON.stringify({ ...config, migrations: MIGRATIONS }));
    // 25 cases: this proves --pack maps the rules onto the project (without it they are not
    // applicable, below); that they hold at 100 cases is the final-state test's.
    const run = await runBin(['fuzz', '--config', file, '--pack', path.join(HERE, 'policyfuzz.pack.ts'), '--only', 'R02,R07', ...options('pack-option', 25)], { cwd: tempDir('student-union-cwd') });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^2 passed, 0 failed/m);
    expect(run.code).toBe(0);
    // Without the pack the reference's names (pr_tickets, soft_delete_pr_ticket) are not found here.
    const without = await runBin(['fuzz', '--config', file, '--only', 'R07', ...options('no-pack')], { cwd: tempDir('student-union-cwd') });
    expect(without.stdout).toMatch(/^0 passed, 0 failed, 1 not applicable/m);
  });
});

describe('the pack and its mapping reach every command, not only fuzz', () => {
  it('diff across the R02 fix compares R02 in the project’s names and reports the fix (exit 0)', async () => {
    const fix = '20230901090000_fix_member_guard_allow_list.sql';
    const base = path.join(example.tmp, 'diff-base');
    mkdirSync(base, { recursive: true });
    for (const f of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql') && f < fix)) copyFileSync(path.join(MIGRATIONS, f), path.join(base, f));
    // 30 cases: 5 of them fix R02 at seed 1 (12 of 100), enough to show diff compares R02 in the
    // project's names and reports the fix; that R02 holds on the head at 100 is the final-state test's.
    const r = await runBin(['diff', '--base', base, '--only', 'R02', '--runs', '30', '--seed', '1', '--database-url', example.server.adminUrl], { cwd: HERE });
    expect(r.stdout).not.toMatch(/not compared: R02/);
    expect(r.stdout).toMatch(/^0 regression\(s\), [1-9]\d* fix\(es\)/m);
    expect(r.code).toBe(0);
  });

  it('mutants --auto tries the variants of its functions with the rules mapped onto them, and kills them', async () => {
    // 30 cases, not the default 300: R07 kills each variant in its first cases; the rest went to
    // --auto's run of every applicable rule on the unmutated target, which the final-state test
    // already holds at 100 (measured: 12.3 s → 7.6 s of the binary's CPU at 100, 12.2 s → 10.0 s
    // of a local server's run from 100 to 30).
    const r = await runBin(['mutants', '--auto', '--kind', 'function-drop-conjunct', '--runs', '30', '--database-url', example.server.adminUrl], { cwd: HERE });
    expect(r.stdout).toMatch(/^killed {3}function-drop-conjunct-lookup-press-request-1-1 by R\d\d/m);
    expect(r.stdout).toMatch(/^4 of 4 automatic variants killed \(100%\)/m);
    expect(r.code).toBe(0);
  });
});
