/**
 * A migration that never ends (#24): through the real binary, a statement past the migration
 * timeout ends the run (exit 2) naming the file, the line, the statement and the option, after a
 * progress line; Ctrl-C while it runs exits 130 saying what was interrupted, blaming nothing,
 * and leaves no server, folder or scratch database.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, inject, it } from 'vitest';
import { runBin, spawnBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { processesUsing } from '../testing/processes.ts';
import { LOCAL_SERVER_ROOT } from '../engine/db/providers/local-server.ts';

/** A project whose second migration sleeps for ten minutes, after a comment and a statement that ends. */
function sleepyProject(config?: object): string {
  const dir = tempDir('migration-timeout');
  mkdirSync(path.join(dir, 'migrations'));
  writeFileSync(path.join(dir, 'migrations', '0001_table.sql'), 'create table public.notes (id int primary key);\n');
  writeFileSync(path.join(dir, 'migrations', '0002_backfill.sql'), `-- a data repair that never ends\ninsert into public.notes values (1);\nselect pg_sleep(600);\n`);
  if (config) writeFileSync(path.join(dir, 'policyfuzz.config.json'), JSON.stringify(config));
  return dir;
}

const args = (dir: string) => ['fuzz', '--only', 'R01', '--runs', '5', '--no-sso', '--no-replay', '--report-dir', path.join(dir, 'reports'), '--failures-dir', path.join(dir, 'failures')];

// Concurrent: three of these wait on the clock (a 7 s and a 2 s timeout, a 5 s progress line), not the CPU.
describe.concurrent('a migration that never ends', () => {
  it('config "migrationTimeout": a progress line, then exit 2 naming the file, line, statement and option', async ({ expect }) => {
    const dir = sleepyProject({ migrations: 'migrations', migrationTimeout: 7 });
    const r = await runBin([...args(dir), '--database-url', inject('databaseUrl')], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toContain('applying 0002_backfill.sql: 5 s so far, at line 3: select pg_sleep(600);');
    const file = path.join(dir, 'migrations', '0002_backfill.sql');
    expect(r.stderr.split('\n')[0]).toBe(
      `policyfuzz: migration ${file}:3 failed: \`select pg_sleep(600);\` ran past the migration timeout of 7 s and was cancelled; if it is meant to take longer, raise it: --migration-timeout <seconds>, or "migrationTimeout" in policyfuzz.config.json`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('--migration-timeout overrides the config', async ({ expect }) => {
    const dir = sleepyProject({ migrations: 'migrations', migrationTimeout: 600 });
    const r = await runBin([...args(dir), '--migration-timeout', '2', '--database-url', inject('databaseUrl')], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/0002_backfill\.sql:3 failed: `select pg_sleep\(600\);` ran past the migration timeout of 2 s/);
  }, 120_000);

  it('a bad --migration-timeout: exit 2, one line', async ({ expect }) => {
    const r = await runBin(['fuzz', '--migration-timeout', 'soon']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(/^error: option '--migration-timeout <seconds>' argument 'soon' is invalid\. --migration-timeout takes seconds .*\n$/);
  });

  it('Ctrl-C while it applies: exit 130, "interrupted while applying" the file, no blame, no server or folder left', async ({ expect }) => {
    const dir = sleepyProject();
    const env = { ...process.env };
    delete env.DATABASE_URL;
    const child = spawnBin([...args(dir), '--migrations', 'migrations', '--provider', 'local'], { cwd: dir, env });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (c: Buffer) => {
        stdout += c.toString();
        if (stdout.includes('so far')) resolve();
      });
      child.once('exit', () => reject(new Error(`exited before the migration ran long:\n${stdout}${stderr}`)));
    });
    child.kill('SIGINT');
    expect(await exited, stdout + stderr).toBe(130);
    expect(stderr).toBe(`policyfuzz: interrupted by SIGINT while applying ${path.join('migrations', '0002_backfill.sql')}; stopping\n`);
    expect(processesUsing(path.join(LOCAL_SERVER_ROOT, `run-${child.pid}-`))).toEqual([]);
    expect(existsSync(LOCAL_SERVER_ROOT) ? readdirSync(LOCAL_SERVER_ROOT).filter((n) => n.startsWith(`run-${child.pid}-`)) : []).toEqual([]);
  }, 120_000);
});
