/**
 * Supabase-native defaults: inside a repository with supabase/migrations, `fuzz` targets it
 * (the bundled reference needs --reference) and reads supabase/config.toml's [api] schemas and
 * extra_search_path; a migration that cannot apply to an empty database stops the run with the
 * file, the line and how to skip it, and --skip does. Through bin/policyfuzz.mjs.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { BUNDLED_MIGRATIONS } from '../../cli/paths.ts';
import { runBin } from '../../testing/run-bin.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import { apiSchemasOf, readApiSchemas } from './supabase-project.ts';
import { resolveTarget } from './target.ts';
import { referencePack } from '../../packs/reference/index.ts';
import { sessionOn } from '../run/session.ts';
import { openEnvironment } from '../runner/environment.ts';
import { preRequestSql } from '../executor/case-transaction.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { escapeRegExp } from '../regexp.ts';

function toml(text: string): string {
  const dir = tempDir('toml');
  writeFileSync(path.join(dir, 'config.toml'), text);
  return path.join(dir, 'config.toml');
}

describe('supabase/config.toml', () => {
  it('gives [api] schemas and extra_search_path; keys it leaves out take the Supabase CLI defaults', () => {
    const file = toml('project_id = "x"\n[api]\nenabled = true\nport = 54321\n# comment\nschemas = ["public", "storage",\n  "graphql_public"]\nextra_search_path = ["public", "extensions", "app"]\n[db]\nport = 54322\n');
    expect(readApiSchemas(file)).toEqual({ exposedSchemas: ['public', 'storage', 'graphql_public'], extraSearchPath: ['public', 'extensions', 'app'], source: file });
    const defaults = toml('[api]\nport = 54321\n');
    expect(readApiSchemas(defaults)).toEqual({ exposedSchemas: ['public', 'graphql_public'], extraSearchPath: ['public', 'extensions'], source: defaults });
    expect(readApiSchemas(toml('[db]\nport = 1\n'))).toBeUndefined();
  });

  it('an empty schemas list, as an older CLI wrote it ("public and storage are always included"; partner-gallery-example), is what that CLI exposed', () => {
    const older = toml('[api]\n# endpoints. public and storage are always included.\nschemas = []\nextra_search_path = ["extensions"]\n');
    expect(readApiSchemas(older)).toEqual({ exposedSchemas: ['public', 'storage', 'graphql_public'], extraSearchPath: ['extensions'], source: older });
  });

  it('gives [api] max_rows as db-max-rows; one that is not a whole number of rows is an error naming the key', () => {
    expect(readApiSchemas(toml('[api]\nmax_rows = 1000\n'))?.maxRows).toBe(1000);
    expect(readApiSchemas(toml('[api]\nport = 1\n'))?.maxRows).toBeUndefined();
    const wrong = toml('[api]\nmax_rows = "many"\n');
    expect(() => readApiSchemas(wrong)).toThrow(`${wrong}: [api] max_rows must be a whole number of rows, like 1000`);
  });

  it('is found next to a migrations folder (the Supabase CLI layout), and only there', () => {
    const repo = tempDir('layout');
    mkdirSync(path.join(repo, 'supabase', 'migrations'), { recursive: true });
    expect(apiSchemasOf([path.join(repo, 'supabase', 'migrations')])).toBeUndefined();
    writeFileSync(path.join(repo, 'supabase', 'config.toml'), '[api]\nschemas = ["api"]\n');
    expect(apiSchemasOf([path.join(repo, 'supabase', 'migrations')])?.exposedSchemas).toEqual(['api']);
  });

  it('a broken file or a wrong value is an error naming the file and the key', () => {
    const broken = toml('[api\nschemas = 1');
    expect(() => readApiSchemas(broken)).toThrow(new RegExp(`^${escapeRegExp(broken)} is not valid TOML: `));
    const wrong = toml('[api]\nschemas = "public"\n');
    expect(() => readApiSchemas(wrong)).toThrow(`${wrong}: [api] schemas must be a list of schema names, like ["public", "graphql_public"]`);
  });
});

describe('inside a Supabase repository (bin/policyfuzz.mjs)', () => {
  const REPAIR = '0999_backfill_members.sql';
  /** A repository with supabase/migrations (the reference schema, then a data repair that needs rows) and config.toml. */
  function repository(schemas: string[]): string {
    const repo = tempDir('supabase-repo');
    const migrations = path.join(repo, 'supabase', 'migrations');
    cpSync(BUNDLED_MIGRATIONS, migrations, { recursive: true });
    writeFileSync(path.join(migrations, REPAIR), '-- a data repair: fine on production, impossible on an empty database\n\ninsert into public.users (id, email) select id, email from legacy.members;\n');
    writeFileSync(path.join(repo, 'supabase', 'config.toml'), `[api]\nschemas = ${JSON.stringify(schemas)}\nextra_search_path = ["public", "extensions"]\n`);
    return repo;
  }
  const run = (repo: string, ...args: string[]) =>
    runBin(['fuzz', '--database-url', inject('databaseUrl'), '--seed', '5', '--runs', '30', '--workers', '1', '--no-replay', '--no-color', '--report-dir', path.join(repo, 'r'), '--failures-dir', path.join(repo, 'f'), ...args], { cwd: repo });

  it('targets supabase/migrations by default; a migration that cannot apply names its file and line and how to skip it; --skip does', async () => {
    const repo = repository(['public', 'graphql_public']);
    const stopped = await run(repo, '--only', 'R02');
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toBe(
      `policyfuzz: migration ${path.join('supabase', 'migrations', REPAIR)}:3 failed: relation "legacy.members" does not exist\n` +
        `  if it cannot apply to an empty database (a data repair, say), leave it out: "skip": ["${REPAIR}"] in policyfuzz.config.json, or --skip ${REPAIR}\n`,
    );
    const skipped = await run(repo, '--only', 'R02', '--skip', REPAIR);
    expect(skipped.stdout).toMatch(/migrations supabase\/migrations/);
    expect(skipped.stdout).toMatch(/^R02 +PASS +30 /m);
    expect(skipped.code).toBe(0);
    // The bundled reference is one flag away, whatever the folder holds.
    const reference = await run(repo, '--only', 'R02', '--reference');
    expect(reference.stdout).toMatch(/migrations \S*packs\/reference\/migrations/);
    expect(reference.code).toBe(0);
  });

  it('reads the exposed schemas from config.toml: a schema the API does not expose is not reachable', async () => {
    const repo = repository(['graphql_public']);
    const r = await run(repo, '--only', 'R02', '--skip', REPAIR);
    // public is not exposed: the users table is not reachable through the API, so R02 does not apply.
    expect(r.stdout).toMatch(/^R02 +N\/A /m);
    expect(r.code).toBe(0);
  });

  it('the executor sets the search path config.toml gives (the request schema, then extra_search_path), and its max_rows reaches executor and model', async () => {
    const repo = repository(['public']);
    writeFileSync(path.join(repo, 'supabase', 'config.toml'), '[api]\nschemas = ["public"]\nextra_search_path = ["extensions", "app_private"]\nmax_rows = 7\n');
    const target = await resolveTarget(referencePack, { migrations: path.join(repo, 'supabase', 'migrations'), explicitMigrations: true, skip: [REPAIR] });
    expect(target.api).toMatchObject({ exposedSchemas: ['public'], extraSearchPath: ['extensions', 'app_private'] });
    expect(target.maxRows).toBe(7);
    const env = await openEnvironment({ server: await sharedServer(), migrations: target.migrations, api: target.api, maxRows: target.maxRows });
    try {
      expect(env.cache.maxRows).toBe(7);
      expect(sessionOn(env, target).oracle.maxRows).toBe(7);
      expect(env.cache.exposedSchemas).toEqual(['public']);
      expect(env.cache.extraSearchPath).toEqual(['extensions', 'app_private']);
      expect(preRequestSql({ kind: 'anon' }, { kind: 'select', table: 'users', columns: '*', filters: [] }, env.cache)).toMatch(/set_config\('search_path', '"?public"?, "?extensions"?, "?app_private"?', true\)/);
    } finally {
      await env.close();
    }
  });
});

describe('several migration folders on the command line (bin/policyfuzz.mjs)', () => {
  it('fuzz --migrations a b applies both, in order', async () => {
    const dir = tempDir('two-folders');
    const [first, second] = [path.join(dir, 'base'), path.join(dir, 'shop')];
    for (const [folder, files] of [[first, ['0001_private_helpers.sql', '0100_users.sql', '0200_vs.sql', '0300_pr_tickets.sql']], [second, ['0310_shop_orders.sql']]] as const) {
      mkdirSync(folder);
      for (const f of files) cpSync(path.join(BUNDLED_MIGRATIONS, f), path.join(folder, f));
    }
    const run = (...folders: string[]) =>
      runBin(['fuzz', '--migrations', ...folders, '--only', 'R04', '--database-url', inject('databaseUrl'), '--seed', '5', '--runs', '30', '--workers', '1', '--no-replay', '--no-color', '--report-dir', path.join(dir, 'r'), '--failures-dir', path.join(dir, 'f')], { cwd: dir });
    const both = await run(first, second);
    expect(both.stdout).toMatch(/^R04 +PASS +30 /m);
    expect(both.code).toBe(0);
    // The shop's table comes from the second folder alone.
    const one = await run(first);
    expect(one.stdout).toMatch(/^R04 +N\/A /m);
  });
});
