/**
 * Values a project's migrations seed are its data: a failure whose database answer carries
 * seeded rows masks them on the console, in summary.json, junit.xml, report.html and the saved
 * failure with its repros. Words of the schema (CHECK vocabularies) and the case's own values
 * stay readable. Through bin/policyfuzz.mjs.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { BUNDLED_MIGRATIONS } from '../../cli/paths.ts';
import { runBin } from '../../testing/run-bin.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import { differOnlyInSeeded, maskSeeded, SEEDED_MASK, stringsIn } from '../introspection/seeded-values.ts';

describe('masking seeded values', () => {
  it('masks a whole seeded value and one inside other text; keeps keys, the case’s own values and other text', () => {
    const seeded = ['Zebulon Seedman', 'zeb@union.example', 'ENG'];
    const answer = { rows: [{ display_name: 'Zebulon Seedman', email: 'zeb@union.example', department: 'ENG', note: 'ask Zebulon Seedman first' }], detail: 'Key (email)=(zeb@union.example) already exists.' };
    expect(maskSeeded(answer, seeded, stringsIn({ users: [{ department: 'ENG' }] }))).toEqual({
      rows: [{ display_name: SEEDED_MASK, email: SEEDED_MASK, department: 'ENG', note: `ask ${SEEDED_MASK} first` }],
      detail: `Key (email)=(${SEEDED_MASK}) already exists.`,
    });
    expect(maskSeeded(answer, [])).toBe(answer);
  });

  it('tells two sides that differ only in seeded values (a tier named in a seeded table) from alike and from otherwise different ones', () => {
    const mask = (v: unknown) => maskSeeded(v, ['gold', 'platinum']);
    const model = { kind: 'allowed', rows: [{ user_id: 'u1', points: 800, tier: 'gold' }] };
    // Key order is no difference (the database answers its own order).
    expect(differOnlyInSeeded(model, { rows: [{ tier: 'platinum', points: 800, user_id: 'u1' }], kind: 'allowed' }, mask)).toBe(true);
    expect(differOnlyInSeeded(model, { kind: 'allowed', rows: [{ user_id: 'u1', points: 800, tier: 'gold' }] }, mask)).toBe(false);
    expect(differOnlyInSeeded(model, { kind: 'allowed', rows: [{ user_id: 'u1', points: 10, tier: 'platinum' }] }, mask)).toBe(false);
  });
});

describe('a failure that shows seeded rows (bin/policyfuzz.mjs)', () => {
  const TEAM = ['Zebulon Seedman', 'zebulon.seedman@union.example', '+44 7700 900123', 'Philippa Plantwell', 'philippa.plantwell@union.example', '5eed0000-0000-4000-8000-000000000001'];

  it('prints, reports and saves them masked', async () => {
    const dir = tempDir('seeded');
    const migrations = path.join(dir, 'migrations');
    cpSync(BUNDLED_MIGRATIONS, migrations, { recursive: true });
    writeFileSync(
      path.join(migrations, '0900_seed_team.sql'),
      `-- seed data: the team
insert into auth.users (id, email) values ('${TEAM[5]}', '${TEAM[1]}'), ('5eed0000-0000-4000-8000-000000000002', '${TEAM[4]}');
insert into public.users (id, email, display_name, phone, role) values
  ('${TEAM[5]}', '${TEAM[1]}', '${TEAM[0]}', '${TEAM[2]}', 'admin'),
  ('5eed0000-0000-4000-8000-000000000002', '${TEAM[4]}', '${TEAM[3]}', null, 'staff');
`,
    );
    const [reports, failures] = [path.join(dir, 'reports'), path.join(dir, 'failures')];
    // A service-role read of users returns the seeded team, which no fixture wrote: R02 fails on it.
    const r = await runBin(['fuzz', '--migrations', migrations, '--only', 'R02', '--seed', '4', '--runs', '100', '--workers', '1', '--no-replay', '--no-color', '--report', 'json,junit,html,sarif', '--report-dir', reports, '--failures-dir', failures, '--database-url', inject('databaseUrl')], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^R02 FAILED: /m);
    expect(r.stdout).toContain(`"display_name":"${SEEDED_MASK}"`);
    // The schema's words stay: the role comes from a CHECK vocabulary.
    expect(r.stdout).toContain('"role":"admin"');
    const written = [...readdirSync(reports).map((f) => path.join(reports, f)), ...readdirSync(failures).map((f) => path.join(failures, f))];
    expect(written.map((f) => path.basename(f))).toEqual(expect.arrayContaining(['summary.json', 'junit.xml', 'report.html', 'policyfuzz.sarif', expect.stringMatching(/^R02-.*\.json$/), expect.stringMatching(/^R02-.*\.pgtap\.sql$/)]));
    for (const [where, text] of [['stdout', r.stdout], ['stderr', r.stderr], ...written.map((f) => [f, readFileSync(f, 'utf8')])]) {
      for (const value of TEAM) expect(text.includes(value), `${where} shows the seeded ${value}`).toBe(false);
    }
  });
});
