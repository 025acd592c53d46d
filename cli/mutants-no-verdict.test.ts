/**
 * A mutant whose covering properties judged nothing (every case dropped) was never judged: NO
 * VERDICT with its reason, out of the kill rate and the survivors, and exit 1 (as fuzz's NO
 * VERDICT), for hand-written mutants and --auto variants alike.
 */
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, inject, it } from 'vitest';
import type { MutantsReport } from '../engine/mutants/report.ts';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { PROJECT_ROOT } from './paths.ts';

const NOTES_PACK = path.join(PROJECT_ROOT, 'examples', 'notes-app', 'policyfuzz.pack.ts');

it('mutants through bin/policyfuzz.mjs: a hand-written mutant on which every case of its property is dropped has no verdict, not SURVIVED; exit 1', async () => {
  const dir = tempDir('mutants-no-verdict');
  // Every case's fixture writes users, and this CHECK refuses them all: N01 drops every case.
  writeFileSync(path.join(dir, 'a-no-user-holds.sql'), '-- mutant: users-hold-no-row\n-- rules: N01\n-- bug: a check no user satisfies\nalter table auth.users add constraint users_never check (id is null) not valid;\n');
  cpSync(path.join(PROJECT_ROOT, 'examples', 'notes-app', 'mutants', 'N01-notes-readable-by-all.sql'), path.join(dir, 'b-readable.sql'));
  const r = await runBin(['mutants', '--pack', NOTES_PACK, '--dir', dir, '--runs', '20', '--json', '--database-url', inject('databaseUrl')]);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(/^NO VERDICT users-hold-no-row — no verdict: N01: no case could run on this target: all 20 cases drawn were dropped, mostly as users_never refused a fixture row/m);
  expect(r.stderr).toMatch(/^users-hold-no-row +! +NO VERDICT$/m);
  expect(r.stderr).not.toMatch(/SURVIVED|survivor/);
  expect(r.stderr).toMatch(/^1 of 1 mutants killed, 1 with no verdict \(run, but no property judged it: /m);
  expect(r.stderr).toMatch(/^1 with no verdict: exit 1 \(/m);
  const report = JSON.parse(r.stdout) as MutantsReport;
  expect(report).toMatchObject({ exitCode: 1, counts: { total: 2, killed: 1, survived: 0, noVerdict: 1 } });
  expect(report.variants.find((v) => v.name === 'users-hold-no-row')).toMatchObject({ verdict: 'no-verdict', killedBy: [], properties: { N01: 'error' }, reason: expect.stringContaining('users_never') });
});

it('mutants --auto through bin/policyfuzz.mjs: a variant on which every case of its covering property is dropped has no verdict, out of the kill rate; exit 1', async () => {
  const dir = tempDir('mutants-auto-no-verdict');
  cpSync(path.join(PROJECT_ROOT, 'examples', 'notes-app', 'supabase', 'migrations'), dir, { recursive: true });
  // Every N05 case writes a tag: the guard negated (an if-guard variant) refuses every fixture tag.
  writeFileSync(
    path.join(dir, '20250401090000_tag_label_guard.sql'),
    "create function public.tag_label_present() returns trigger language plpgsql as $$\nbegin\n  if new.label is null then raise exception 'a tag needs a label'; end if;\n  return new;\nend $$;\ncreate trigger tag_label_present before insert on public.tags for each row execute function public.tag_label_present();\n",
  );
  const r = await runBin(['mutants', '--auto', '--pack', NOTES_PACK, '--migrations', dir, '--kind', 'if-guard', '--runs', '20', '--json', '--database-url', inject('databaseUrl')]);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(/^NO VERDICT if-guard-negate-tag-label-present-1 — no verdict: N05: no case could run on this target: all 20 cases drawn were dropped/m);
  expect(r.stderr).toMatch(/^if-guard-negate-tag-label-present-1 +! +NO VERDICT$/m);
  expect(r.stderr).not.toMatch(/survivor if-guard-negate/);
  // The dropped guard survives (no fixture tag lacks a label): the rate counts it alone.
  expect(r.stderr).toMatch(/^0 of 1 automatic variants killed \(0%\), 0 equivalent not run, 1 with no verdict \(/m);
  expect(r.stderr).toMatch(/^1 with no verdict: exit 1 \(/m);
  const report = JSON.parse(r.stdout) as MutantsReport;
  expect(report).toMatchObject({ exitCode: 1, counts: { total: 2, killed: 0, survived: 1, noVerdict: 1 } });
  expect(report.variants.find((v) => v.name === 'if-guard-negate-tag-label-present-1')).toMatchObject({ verdict: 'no-verdict', properties: { N05: 'error' }, reason: expect.stringMatching(/^no verdict: N05: /) });
});
