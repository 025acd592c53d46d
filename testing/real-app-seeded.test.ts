/**
 * A migration that seeds a row into a table a pack models (re-created after an app that seeds a
 * shared organisation every new user joins): every case starts with that row, which no model
 * world has, so a read that shows it is a false alarm. The run's notes name the table and the
 * setting that removes it (`fixtures.emptyTables`); with the setting, the rule holds. Through the
 * binary, on examples/notes-app's pack and migrations plus a seeding migration.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT } from '../cli/paths.ts';
import { runBin } from './run-bin.ts';
import { tempDir } from './temp-dir.ts';

const NOTES = path.join(PROJECT_ROOT, 'examples/notes-app');
const SEED = `
insert into auth.users (id, email) values ('00000000-0000-4000-8000-00000000feed', 'welcome@notes.test');
insert into public.notes (id, owner_id, body, is_public) values ('00000000-0000-4000-8000-0000000000aa', '00000000-0000-4000-8000-00000000feed', 'Welcome!', true);
`;

function project(fixtures?: object): string {
  const dir = tempDir('seeded');
  mkdirSync(path.join(dir, 'seed'));
  writeFileSync(path.join(dir, 'seed', '20250302000000_welcome_note.sql'), SEED);
  const config = { pack: path.join(NOTES, 'policyfuzz.pack.ts'), migrations: [path.join(NOTES, 'supabase/migrations'), 'seed'], ...(fixtures ? { fixtures } : {}) };
  writeFileSync(path.join(dir, 'policyfuzz.config.json'), JSON.stringify(config));
  return dir;
}

const fuzz = (dir: string) =>
  runBin(['fuzz', '--config', path.join(dir, 'policyfuzz.config.json'), '--only', 'N01', '--database-url', inject('databaseUrl'), '--seed', '4', '--runs', '60', '--workers', '1', '--no-replay', '--no-color', '--report-dir', path.join(dir, 'r'), '--failures-dir', path.join(dir, 'f')], { cwd: dir });

describe('rows the migrations seed into a modelled table', () => {
  it('are named with the setting that leaves them out; with it, the rule holds', async () => {
    const before = await fuzz(project());
    const out = before.stdout + before.stderr;
    expect(out).toContain(`notes holds rows the migrations seeded, which the pack's worlds do not write: every case starts with them, so a read finds rows its model does not expect. If the pack's rules leave them aside, "fixtures": { "emptyTables": ["notes"] } deletes them before each case (docs/config.md)`);
    expect(out).toMatch(/^N01 FAILED/m);
    expect(before.code).toBe(1);
    const after = await fuzz(project({ emptyTables: ['notes'] }));
    expect(after.stdout + after.stderr).not.toMatch(/holds rows the migrations seeded/);
    expect(after.stdout).toMatch(/^N01 +PASS/m);
    expect(after.code).toBe(0);
  });
});
