import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { runCli } from '../testing/run-cli.ts';
import { probeContainerEngine } from '../engine/db/providers/testcontainers.ts';
import { tempDir } from '../testing/temp-dir.ts';

const cli = runCli;
const engine = await probeContainerEngine();

describe('policyfuzz exit codes', () => {
  it('2 with the option named for a malformed value', async () => {
    const r = await cli('fuzz', '--runs', 'many');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--runs must be a whole number/);
  });

  it('2 for a missing migrations folder, without a stack trace', async () => {
    const r = await cli('fuzz', '--migrations', '/no/such/folder', '--database-url', inject('databaseUrl'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('policyfuzz: migrations folder not found: /no/such/folder\n');
  });

  // Where an engine does answer, this would start a container instead: that path is not for this machine.
  it.skipIf(engine.available)('2 with the reason when testcontainers is asked for and no container engine answers', async () => {
    const r = await cli('fuzz', '--provider', 'testcontainers', '--only', 'R02');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^policyfuzz: testcontainers cannot run: (no container engine socket found|container engine socket .* does not answer)/);
  });

  it('2 for an unreachable database', async () => {
    const r = await cli('fuzz', '--database-url', 'postgresql://nobody@127.0.0.1:1/x');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^policyfuzz: cannot reach the database at postgresql:\/\/nobody@127.0.0.1:1\/x: /);
  });

  it('2 for SQL that fails to apply, naming file and line (a syntax error is to be fixed: no hint to skip it)', async () => {
    const dir = tempDir('cli');
    writeFileSync(path.join(dir, '001.sql'), 'select 1;\ncreate tabel oops();\n');
    const r = await cli('fuzz', '--migrations', dir, '--database-url', inject('databaseUrl'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`policyfuzz: migration ${path.join(dir, '001.sql')}:2 failed: syntax error at or near "tabel"\n`);
  });

  it('0 when every property holds on the reference database, 1 with the replay line when one fails', async () => {
    const ok = await cli('fuzz', '--only', 'R02', '--runs', '60', '--seed', '5', '--database-url', inject('databaseUrl'), '--no-replay', '--report-dir', tempDir('cli-out'));
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/R02\s+PASS\s+60\s.*users: a non-staff owner/);

    const dir = tempDir('cli');
    const { BUNDLED_MIGRATIONS } = await import('./paths.ts');
    const { readdirSync, readFileSync } = await import('node:fs');
    for (const f of readdirSync(BUNDLED_MIGRATIONS)) writeFileSync(path.join(dir, f), readFileSync(path.join(BUNDLED_MIGRATIONS, f)));
    writeFileSync(path.join(dir, '9999_drop_guard.sql'), 'drop trigger users_10_owner_guard on public.users;');
    const scratch = tempDir('cli-out');
    const bad = await cli('fuzz', '--migrations', dir, '--only', 'R02', '--runs', '200', '--seed', '5', '--database-url', inject('databaseUrl'), '--failures-dir', path.join(scratch, 'f'), '--report-dir', path.join(scratch, 'r'));
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/replay: {3}policyfuzz fuzz --migrations \S+ --only R02 --seed \d+ --path [\d:]+/);
  });
});
