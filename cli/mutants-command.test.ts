import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, inject, it } from 'vitest';
import type { MutantsReport } from '../engine/mutants/report.ts';
import { runBin, spawnBin } from '../testing/run-bin.ts';
import { runCli } from '../testing/run-cli.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { PROJECT_ROOT } from './paths.ts';

it('a project pack (--pack): mutants --auto on its own migrations, and its hand-written mutants', async () => {
  const packModule = path.join(PROJECT_ROOT, 'examples', 'notes-app', 'policyfuzz.pack.ts');
  const r = await runCli('mutants', '--auto', '--pack', packModule, '--runs', '60', '--database-url', inject('databaseUrl'));
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/variants derived from the catalog of .*examples\/notes-app\/supabase\/migrations/);
  expect(r.stdout).toMatch(/^killed +disable-row-security-public-notes by N01 in \d+ ms$/m);
  // A policy with one check made always true, and an OR alternative dropped: each killed by the property of its command.
  expect(r.stdout).toMatch(/^killed +always-true-notes-notes-delete-own-using by N04 in \d+ ms$/m);
  expect(r.stdout).toMatch(/^killed +always-true-notes-notes-write-own-check by N03 in \d+ ms$/m);
  expect(r.stdout).toMatch(/^killed +drop-disjunct-notes-notes-read-using-2 by N01 in \d+ ms$/m);
  // The junction's filing policy made always true: seen only through N05's many-to-many embed.
  expect(r.stdout).toMatch(/^killed +always-true-note-tags-note-tags-read-own-using by N05 in \d+ ms$/m);
  expect(r.stdout).toMatch(/^10 of 10 automatic variants killed \(100%\), 7 equivalent not run$/m);
  // Its hand-written mutants too: --pack brings its properties, its mutants folder and its migrations.
  const handWritten = await runCli('mutants', '--pack', packModule, '--runs', '100', '--database-url', inject('databaseUrl'));
  expect(handWritten.code).toBe(0);
  expect(handWritten.stdout).toMatch(/^mutant +N01 N02 N05 +time-to-kill$/m);
  expect(handWritten.stdout).toContain('3 of 3 mutants killed');
  // Target options of --auto alone: with hand-written mutants they are a usage error, not ignored.
  const misplaced = await runCli('mutants', '--skip', '0001_notes.sql');
  expect(misplaced.code).toBe(2);
  expect(misplaced.stderr).toContain('--skip go with --auto');
});

/**
 * The notes app plus a table its pack never names, read by nothing it names either, and an invoker
 * view over it: mutants --auto of one kind. disable-row-security's variants are covered ones (run,
 * killed) beside the table's uncovered one; view-as-definer's only variant is the view's, uncovered:
 * a run that judges nothing else, for what the uncovered variant alone decides (~2.5 s of the
 * binary's CPU against ~6 s, measured).
 */
function uncoveredDraftsArgs(kind: 'disable-row-security' | 'view-as-definer'): string[] {
  const dir = tempDir('mutants-uncovered');
  cpSync(path.join(PROJECT_ROOT, 'examples', 'notes-app', 'supabase', 'migrations'), dir, { recursive: true });
  writeFileSync(
    path.join(dir, '20250401090000_drafts.sql'),
    `create table public.drafts (id uuid primary key default gen_random_uuid(), owner_id uuid not null, body text not null default '');
alter table public.drafts enable row level security;
grant select on table public.drafts to authenticated;
create policy drafts_read_own on public.drafts for select to authenticated using (owner_id = auth.uid());
create view public.draft_bodies with (security_invoker = true) as select id, body from public.drafts;
grant select on public.draft_bodies to authenticated;
`,
  );
  const packModule = path.join(PROJECT_ROOT, 'examples', 'notes-app', 'policyfuzz.pack.ts');
  return ['mutants', '--auto', '--pack', packModule, '--migrations', dir, '--kind', kind, '--runs', '20', '--database-url', inject('databaseUrl')];
}

/**
 * classroomio: 138 of 173 survivors were variants of tables no property names, each running every
 * property (~8 s) to learn only that. A variant no property covers is listed, not run. A nightly
 * reads the result as JSON (the human lines on stderr, stdout the JSON alone, as fuzz --json).
 */
it('mutants --auto --json through bin/policyfuzz.mjs: a variant no property covers is listed by table, not run, beside the covered ones killed; every verdict and the counts in the JSON; exit 0 without --fail-on-uncovered, printed', async () => {
  const r = await runBin([...uncoveredDraftsArgs('disable-row-security'), '--json']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/^uncov\. +disable-row-security-public-drafts — not covered by any property: none names public\.drafts or anything whose SQL reads it \(not run\)$/m);
  expect(r.stderr).toMatch(/^killed +disable-row-security-public-notes by N01 in \d+ ms$/m);
  expect(r.stderr).not.toMatch(/^disable-row-security-public-drafts /m); // not in the kill matrix: never run
  expect(r.stderr).toMatch(/automatic variants killed \(100%\), \d+ equivalent not run, 1 not covered by any property \(not run\)$/m);
  expect(r.stderr).toMatch(/^not covered by any property \(1 variants, not run; to cover one, name its table .*--run-uncovered runs them anyway\):\n {2}public\.drafts: 1 variant$/m);
  // Exit 0 with a variant no property covers is a choice, printed: --fail-on-uncovered makes it exit 1 (below).
  expect(r.stderr).toMatch(/^1 not covered by any property: exit 0 without --fail-on-uncovered$/m);
  const report = JSON.parse(r.stdout) as MutantsReport;
  expect(report).toMatchObject({ command: 'mutants', mode: 'auto', seed: 1, runs: 20, failOnUncovered: false, exitCode: 0 });
  const byName = new Map(report.variants.map((v) => [v.name, v]));
  expect(byName.get('disable-row-security-public-notes')).toMatchObject({ verdict: 'killed', killedBy: ['N01'], properties: { N01: 'killed' }, kind: 'disable-row-security', object: 'public.notes' });
  expect(byName.get('disable-row-security-public-drafts')).toMatchObject({ verdict: 'not-covered', killedBy: [], properties: {}, object: 'public.drafts', reason: expect.stringContaining('not covered by any property') });
  const count = (verdict: string) => report.variants.filter((v) => v.verdict === verdict).length;
  expect(report.counts).toEqual({ total: report.variants.length, killed: count('killed'), survived: 0, equivalent: count('equivalent'), notCovered: 1, notRun: 0, noVerdict: 0, unreachable: 0 });
});

/** A nightly need not go green while new policies are untested: --fail-on-uncovered; --run-uncovered runs them anyway. */
it('mutants --auto through bin/policyfuzz.mjs: --fail-on-uncovered exits 1 for a variant no property covers (printed, and in the JSON); --run-uncovered runs it, a survivor (exit 1)', async () => {
  const args = uncoveredDraftsArgs('view-as-definer');
  const strict = await runBin([...args, '--fail-on-uncovered', '--json']);
  expect(strict.code, strict.stderr).toBe(1);
  expect(strict.stderr).toMatch(/^uncov\. +view-as-definer-public-draft-bodies — not covered by any property: none names public\.draft_bodies or anything whose SQL reads it \(not run\)$/m);
  expect(strict.stderr).toMatch(/^1 not covered by any property: exit 1 \(--fail-on-uncovered\)$/m);
  const report = JSON.parse(strict.stdout) as MutantsReport;
  expect(report).toMatchObject({ command: 'mutants', mode: 'auto', failOnUncovered: true, exitCode: 1, counts: { total: 1, killed: 0, survived: 0, notCovered: 1 } });
  expect(report.variants).toEqual([expect.objectContaining({ name: 'view-as-definer-public-draft-bodies', verdict: 'not-covered', killedBy: [], object: 'public.draft_bodies' })]);

  const all = await runBin([...args, '--run-uncovered']);
  expect(all.code, all.stderr).toBe(1);
  expect(all.stdout).toMatch(/^SURVIVED view-as-definer-public-draft-bodies — not covered by any property: .*\(run by --run-uncovered, survived them all\)$/m);
  expect(all.stdout).toMatch(/^view-as-definer-public-draft-bodies +[. ]+SURVIVED$/m);
});

it("mutants --help through bin/policyfuzz.mjs: the reference's default folders relative inside the current folder, absolute outside it (never ../../…)", async () => {
  // Commander wraps the help to the terminal's width: read it as one line.
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  const inside = await runBin(['mutants', '--help'], { cwd: PROJECT_ROOT });
  expect(inside.code, inside.stderr).toBe(0);
  expect(flat(inside.stdout)).toContain(`(default: the pack's own, ${path.join('dist', 'packs', 'reference', 'rules')} for the reference)`);
  expect(flat(inside.stdout)).toContain(`(default: ${path.join('dist', 'packs', 'reference', 'migrations')};`);
  const outside = await runBin(['mutants', '--help'], { cwd: tempDir('mutants-help') });
  expect(outside.code, outside.stderr).toBe(0);
  expect(flat(outside.stdout)).toContain(`(default: the pack's own, ${path.join(PROJECT_ROOT, 'dist', 'packs', 'reference', 'rules')} for the reference)`);
  expect(flat(outside.stdout)).toContain(`(default: ${path.join(PROJECT_ROOT, 'dist', 'packs', 'reference', 'migrations')};`);
  expect(flat(outside.stdout)).not.toContain('../');
});

/**
 * Hand-written mutants through the binary, one run for the kill matrix and the JSON: the human
 * lines go to stderr with --json, as they go to stdout without it (the --pack test's runs above).
 */
it('policyfuzz mutants --json with hand-written mutants: killed, survived and unreachable, exit 1 for the survivor; the kill matrix, the time to kill and the survivors printed', async () => {
  const dir = tempDir('mutants-json-hand');
  writeFileSync(path.join(dir, 'a-dropped.sql'), '-- mutant: guard-dropped\n-- rules: R02\n-- bug: the owner guard trigger is gone\ndrop trigger users_10_owner_guard on public.users;\n');
  writeFileSync(path.join(dir, 'b-harmless.sql'), '-- mutant: harmless\n-- rules: R02\n-- bug: changes nothing, so nothing can kill it\nselect 1;\n');
  writeFileSync(path.join(dir, 'c-hidden.sql'), '-- mutant: hidden\n-- rules: R02\n-- bug: a grant no request reaches\n-- unreachable: only a superuser reads it\nselect 1;\n');
  const r = await runBin(['mutants', '--dir', dir, '--runs', '20', '--json', '--database-url', inject('databaseUrl')]);
  expect(r.code, r.stderr).toBe(1);
  const report = JSON.parse(r.stdout);
  expect(report).toMatchObject({ command: 'mutants', mode: 'hand-written', exitCode: 1, counts: { total: 3, killed: 1, survived: 1, equivalent: 0, notCovered: 0, unreachable: 1 } });
  expect(report.variants).toEqual([
    expect.objectContaining({ name: 'guard-dropped', verdict: 'killed', killedBy: ['R02'], properties: { R02: 'killed' }, timeToKillMs: expect.any(Number) }),
    expect.objectContaining({ name: 'harmless', verdict: 'survived', killedBy: [], properties: { R02: 'survived' }, bug: 'changes nothing, so nothing can kill it' }),
    expect.objectContaining({ name: 'hidden', verdict: 'unreachable', killedBy: [], reason: 'only a superuser reads it' }),
  ]);
  // 20 cases: the guard-dropped mutant falls within 10 (seed 1), and the survivor runs every case.
  expect(r.stderr).toMatch(/^mutant +R02 +time-to-kill$/m);
  expect(r.stderr).toMatch(/^guard-dropped +X +\d+ ms$/m);
  expect(r.stderr).toMatch(/^harmless +\. +SURVIVED$/m);
  expect(r.stderr).toContain('1 of 2 mutants killed (1 reclassified as unreachable through REST, not run); survivors: harmless (changes nothing, so nothing can kill it)');
  const missing = await runCli('mutants', '--dir', path.join(dir, 'nope'));
  expect(missing.code).toBe(2);
  const misplaced = await runBin(['mutants', '--dir', dir, '--fail-on-uncovered']);
  expect(misplaced.code).toBe(2);
  expect(misplaced.stderr).toContain('--fail-on-uncovered go with --auto');
});

it('mutants --json that ends on a harness error (exit 2): stdout still holds the JSON, the error and the verdicts made before it', async () => {
  const dir = tempDir('mutants-json-error');
  writeFileSync(path.join(dir, 'a-dropped.sql'), '-- mutant: guard-dropped\n-- rules: R02\n-- bug: the owner guard trigger is gone\ndrop trigger users_10_owner_guard on public.users;\n');
  writeFileSync(path.join(dir, 'b-broken.sql'), '-- mutant: broken\n-- rules: R02\n-- bug: its SQL cannot apply\ndrop trigger no_such_trigger on public.users;\n');
  const r = await runBin(['mutants', '--dir', dir, '--runs', '20', '--json', '--database-url', inject('databaseUrl')]);
  expect(r.code, r.stderr).toBe(2);
  const report = JSON.parse(r.stdout);
  expect(report).toMatchObject({ command: 'mutants', mode: 'hand-written', exitCode: 2, error: expect.stringContaining('no_such_trigger'), counts: { total: 1, killed: 1, survived: 0 } });
  expect(report.variants).toEqual([expect.objectContaining({ name: 'guard-dropped', verdict: 'killed', killedBy: ['R02'] })]);
  // The human output is unchanged: the one-line error on stderr.
  expect(r.stderr).toMatch(/^policyfuzz: .*no_such_trigger/m);
});

it('mutants interrupted (SIGINT) after its first kill: the kill matrix of what was judged, the mutant in flight cut with no verdict, the rest not run; --json marked interrupted, exit 130', async () => {
  const dir = tempDir('mutants-interrupted');
  writeFileSync(path.join(dir, 'a-dropped.sql'), '-- mutant: guard-dropped\n-- rules: R02\n-- bug: the owner guard trigger is gone\ndrop trigger users_10_owner_guard on public.users;\n');
  // Survivors take every one of their cases: the signal finds the second in flight.
  for (const name of ['b-harmless', 'c-harmless']) writeFileSync(path.join(dir, `${name}.sql`), `-- mutant: ${name}\n-- rules: R02\n-- bug: changes nothing\nselect 1;\n`);
  const child = spawnBin(['mutants', '--dir', dir, '--runs', '5000', '--json', '--database-url', inject('databaseUrl')]);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
    if (/^killed +guard-dropped/m.test(stderr) && child.signalCode === null && !child.killed) child.kill('SIGINT');
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  expect(code, stderr).toBe(130);
  expect(stderr).toMatch(/^cut +b-harmless — interrupted before any property killed it: no verdict$/m);
  expect(stderr).toMatch(/^guard-dropped +X +\d+ ms$/m);
  expect(stderr).not.toMatch(/SURVIVED/);
  expect(stderr).toContain('1 of 1 mutants killed');
  expect(stderr).toContain('interrupted by SIGINT: 1 of 3 mutants judged before it; the rest not run');
  const report = JSON.parse(stdout) as MutantsReport;
  expect(report.interrupted).toBe('SIGINT');
  expect(report.exitCode).toBe(130);
  expect(report.variants.map((v) => `${v.name} ${v.verdict}`)).toEqual(['guard-dropped killed']);
}, 120_000);

/**
 * The notes app with its note_tags read policy opened to every signed-in user (not written `true`,
 * which would make its disable-row-security variant equivalent): N05, the only property naming
 * note_tags, fails on the unmutated target. Its variants cannot be judged.
 */
function failingCoverDir(): { dir: string; packModule: string } {
  const dir = tempDir('mutants-not-run');
  cpSync(path.join(PROJECT_ROOT, 'examples', 'notes-app', 'supabase', 'migrations'), dir, { recursive: true });
  writeFileSync(
    path.join(dir, '20250401090000_open_filings.sql'),
    'drop policy note_tags_read_own on public.note_tags;\ncreate policy note_tags_read_all on public.note_tags for select to authenticated using (tag_id is not null);\n',
  );
  return { dir, packModule: path.join(PROJECT_ROOT, 'examples', 'notes-app', 'policyfuzz.pack.ts') };
}

/**
 * A variant whose covering properties already fail on the target was never run: it is NOT RUN, not
 * a survivor (no fault the properties miss is known), yet the run fails (exit 1): the target fails
 * a property, and the variant's score is unknown. A run of only such variants must not read as a pass.
 */
it('mutants --auto through bin/policyfuzz.mjs: a variant whose covering property fails on the target is NOT RUN, counted apart from survivors, exit 1; every variant NOT RUN is no pass', async () => {
  const { dir, packModule } = failingCoverDir();
  const args = ['mutants', '--auto', '--pack', packModule, '--migrations', dir, '--kind', 'disable-row-security', '--runs', '20', '--json', '--database-url', inject('databaseUrl')];
  const r = await runBin(args);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(/^left out N05: it already fails on the unmutated target/m);
  expect(r.stderr).toMatch(/^NOT RUN +disable-row-security-public-note-tags — not run: N05, naming public\.note_tags, already fails on the unmutated target \(left out above\); fix that first$/m);
  expect(r.stderr).toMatch(/^killed +disable-row-security-public-notes by N01 in \d+ ms$/m);
  expect(r.stderr).not.toMatch(/SURVIVED|survivor/);
  expect(r.stderr).not.toMatch(/^disable-row-security-public-note-tags /m); // not in the kill matrix: never run
  expect(r.stderr).toMatch(/^1 of 1 automatic variants killed \(100%\), 1 equivalent not run, 1 not run \(the properties covering them already fail on the unmutated target, left out above\)$/m);
  expect(r.stderr).toMatch(/^1 not run: exit 1 \(.*fix that failure, or leave its rule out with rules\.exclude, and run again\)$/m);
  const report = JSON.parse(r.stdout) as MutantsReport;
  expect(report).toMatchObject({ exitCode: 1, counts: { total: 3, killed: 1, survived: 0, notRun: 1, equivalent: 1, notCovered: 0 } });
  expect(report.variants.find((v) => v.name === 'disable-row-security-public-note-tags')).toMatchObject({ verdict: 'not-run', killedBy: [], properties: {}, reason: expect.stringContaining('N05') });

  // Only N05 allowed: every variant is NOT RUN; no kill rate of 100%, exit 1.
  const config = path.join(tempDir('mutants-not-run-config'), 'policyfuzz.config.json');
  writeFileSync(config, JSON.stringify({ pack: packModule, migrations: [dir], rules: { include: ['N05'] } }));
  const only = await runBin(['mutants', '--auto', '--config', config, '--kind', 'disable-row-security', '--runs', '20', '--database-url', inject('databaseUrl')]);
  expect(only.code, only.stderr).toBe(1);
  expect(only.stdout).toMatch(/^no automatic variant run, 1 equivalent not run, 2 not run \(/m);
  expect(only.stdout).not.toMatch(/100%|SURVIVED/);
});
