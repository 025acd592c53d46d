import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { prepareTemplate } from './databases.ts';
import { HOST_TAG } from './server-hygiene.ts';
import { droppedMissing, lineOfPosition, loadMigrationFolder, MigrationError, skipHint, wholeDatabaseDump } from './migrations.ts';
import { neighbourCause } from './migration-neighbours.ts';
import { upSectionOf } from './migration-sections.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { tempDir } from '../../testing/temp-dir.ts';

function folder(files: Record<string, string>): string {
  const dir = tempDir('mig');
  for (const [name, sql] of Object.entries(files)) writeFileSync(path.join(dir, name), sql);
  return dir;
}

/** The public columns (`table.column`) and indexes of a template migrated from `dir`, dropped after. */
async function migratedCatalog(dir: string): Promise<{ columns: string[]; indexes: string[] }> {
  const template = await prepareTemplate(await sharedServer(), { migrations: loadMigrationFolder(dir) });
  try {
    const client = new pg.Client({ connectionString: template.url });
    await client.connect();
    const columns = await client.query(`select table_name || '.' || column_name as c from information_schema.columns where table_schema = 'public' order by 1`);
    const indexes = await client.query(`select indexname from pg_indexes where schemaname = 'public' order by 1`);
    await client.end();
    return { columns: columns.rows.map((r) => r.c as string), indexes: indexes.rows.map((r) => r.indexname as string) };
  } finally {
    await template.drop();
  }
}

describe('migrations folder', () => {
  it('names a missing folder', () => {
    expect(() => loadMigrationFolder('/nope/migrations')).toThrow('migrations folder not found: /nope/migrations');
  });

  it('names a folder without .sql files', () => {
    expect(() => loadMigrationFolder(folder({ 'README.md': '#' }))).toThrow(/has no \.sql files/);
  });

  it('applies files in name order', () => {
    const files = loadMigrationFolder(folder({ '10_b.sql': 'select 1', '02_a.sql': 'select 1', 'notes.txt': '' }));
    expect(files.map((f) => f.name)).toEqual(['02_a.sql', '10_b.sql']);
  });

  it('applies files numbered without zero-padding (1_, 2_, 10_) in number order, unless the Supabase CLI applies the folder (name order)', () => {
    const files = { '10_backfill.sql': 'select 10', '1_add_column.sql': 'select 1', '0_schema.sql': 'select 0', '8_b.sql': 'select 8', '8_a.sql': 'select 8', '2_more.sql': 'select 2' };
    expect(loadMigrationFolder(folder(files)).map((f) => f.name)).toEqual(['0_schema.sql', '1_add_column.sql', '2_more.sql', '8_a.sql', '8_b.sql', '10_backfill.sql']);
    // Beside a config.toml (supabase/migrations + supabase/config.toml) the CLI reads the folder sorted by name.
    const project = tempDir('mig-cli');
    mkdirSync(path.join(project, 'migrations'));
    writeFileSync(path.join(project, 'config.toml'), 'project_id = "x"\n');
    for (const [name, sql] of Object.entries(files)) writeFileSync(path.join(project, 'migrations', name), sql);
    expect(loadMigrationFolder(path.join(project, 'migrations')).map((f) => f.name)).toEqual(['0_schema.sql', '10_backfill.sql', '1_add_column.sql', '2_more.sql', '8_a.sql', '8_b.sql']);
    // Names not all numbered keep name order.
    expect(loadMigrationFolder(folder({ '10_b.sql': '', '9_a.sql': '', 'seed.sql': '' })).map((f) => f.name)).toEqual(['10_b.sql', '9_a.sql', 'seed.sql']);
  });

  it("applies a migration tool's do files, not their undo files (postgrator's NNNN.undo., Flyway's U<version>__), which name order ran right after or before their do file", () => {
    // After Omnivore's packages/db/migrations (postgrator): every 0001.undo.x.sql ran after 0001.do.x.sql and dropped what it made.
    const postgrator = { '0001.do.init.sql': 'create table a (id int)', '0001.undo.init.sql': 'drop table a', '0002.do.more.sql': 'select 2', '0002.undo.more.sql': 'select 0', '0003.undo.orphan.sql': 'select 3' };
    expect(loadMigrationFolder(folder(postgrator)).map((f) => f.name)).toEqual(['0001.do.init.sql', '0002.do.more.sql', '0003.undo.orphan.sql']);
    const flyway = { 'V1__init.sql': 'create table a (id int)', 'U1__init.sql': 'drop table a', 'V2__more.sql': 'select 2', 'U3__orphan.sql': 'select 3' };
    expect(loadMigrationFolder(folder(flyway)).map((f) => f.name)).toEqual(['U3__orphan.sql', 'V1__init.sql', 'V2__more.sql']);
  });

  it("reads Prisma's layout, one folder per migration holding its migration.sql, in folder order; skip names the folder or its file", () => {
    const dir = folder({ 'migration_lock.toml': 'provider = "postgresql"' });
    for (const [sub, sql] of [['20230215_items', 'select 2'], ['20220318_init', 'select 1'], ['20240101_repair', 'select 3'], ['20250101_empty', '']]) {
      mkdirSync(path.join(dir, sub));
      if (sql) writeFileSync(path.join(dir, sub, 'migration.sql'), sql);
    }
    expect(loadMigrationFolder(dir).map((f) => [f.name, f.sql])).toEqual([['20220318_init/migration.sql', 'select 1'], ['20230215_items/migration.sql', 'select 2'], ['20240101_repair/migration.sql', 'select 3']]);
    expect(loadMigrationFolder(dir, ['20240101_repair']).map((f) => f.name)).toEqual(['20220318_init/migration.sql', '20230215_items/migration.sql']);
    expect(loadMigrationFolder(dir, ['20230215_items/migration.sql']).map((f) => f.name)).toEqual(['20220318_init/migration.sql', '20240101_repair/migration.sql']);
  });

  it('a DROP of what no earlier migration makes says to write `if exists`, not to skip the file (which would leave out the rest of it)', async () => {
    const dir = folder({
      '0_schema.sql': 'create table public.pages (id int);',
      '5_functions.sql': 'create table public.page_views (id int);\n-- made by hand on the live project\ndrop function page_view_stats;\ncreate function public.page_view_stats() returns int language sql as $$ select 1 $$;\n',
    });
    const error = await prepareTemplate(await sharedServer(), { migrations: loadMigrationFolder(dir) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).message).toBe(
      `migration ${path.join(dir, '5_functions.sql')}:3 failed: could not find a function named "page_view_stats": \`drop function page_view_stats\` drops what no earlier migration makes (made by hand on the project, perhaps): write \`drop function if exists page_view_stats\`, or make it in an earlier migration; skipping this file would leave out everything else it makes`,
    );
    expect(droppedMissing('DROP TABLE public.gone CASCADE;', '42P01')).toMatch(/^`drop table public\.gone` drops what/);
    expect(droppedMissing('drop materialized view stats_mv;', '42P01')).toMatch(/write `drop materialized view if exists stats_mv`/);
    expect(droppedMissing('drop function if exists f;', '42883')).toBeUndefined();
    // Kinds of two or more words, and `index concurrently`, keep their words before `if exists`; `drop owned by` has none.
    expect(droppedMissing('drop foreign table ft;', '42P01')).toMatch(/write `drop foreign table if exists ft`/);
    expect(droppedMissing('DROP EVENT TRIGGER et;', '42704')).toMatch(/write `drop event trigger if exists et`/);
    expect(droppedMissing('drop index concurrently i;', '42704')).toMatch(/write `drop index concurrently if exists i`/);
    expect(droppedMissing('drop owned by someone;', '42704')).toBeUndefined();
    expect(droppedMissing('select missing_fn();', '42883')).toBeUndefined();
    expect(droppedMissing('drop table t;', '2BP01')).toBeUndefined();
  });

  it('a file using what a later file makes, or making again what an earlier file made, names that file and what to write, not to skip (Kanba)', async () => {
    const server = await sharedServer();
    // A file dated before the schema it alters (name order applies it first, as `supabase db reset` does).
    const early = folder({
      '20240710120000_add_share_token.sql': 'create table public.bookmarks (id int);\nalter table projects add column share_token text;\n',
      '20250621152739_schema.sql': 'create table if not exists public."projects" (id uuid primary key);\n',
    });
    const error = await prepareTemplate(server, { migrations: loadMigrationFolder(early) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).message).toBe(
      `migration ${path.join(early, '20240710120000_add_share_token.sql')}:2 failed: relation "projects" does not exist: projects is made by a later file, 20250621152739_schema.sql: files apply in name order, as \`supabase db reset\` applies them (it stops here too); name this file to sort after that one (a later timestamp), or move what it needs before it; skipping this file would leave out everything else it makes`,
    );
    // A policy made again without a drop: the last earlier file making it is named, and the DROP to write.
    const twice = folder({
      '1_schema.sql': 'create table public.task_comments (id int);\ncreate policy "Users can update own comments" on task_comments for update using (true);\n',
      '2_more.sql': '-- create policy "Users can update own comments" on task_comments (a comment makes nothing)\nselect 1;\n',
      '3_fix.sql': 'create table public.notes (id int);\nCREATE POLICY "Users can update own comments"\n  ON public.task_comments FOR UPDATE USING (true);\n',
    });
    const duplicate = await prepareTemplate(server, { migrations: loadMigrationFolder(twice) }).catch((e: unknown) => e);
    expect((duplicate as MigrationError).message).toBe(
      `migration ${path.join(twice, '3_fix.sql')}:2 failed: policy "Users can update own comments" for table "task_comments" already exists: 1_schema.sql made policy "Users can update own comments" on task_comments already (and \`supabase db reset\` stops here too): write \`drop policy if exists "Users can update own comments" on task_comments;\` before this \`create policy\`; skipping this file would leave out everything else it makes`,
    );
    // A qualified name is made only in its own schema; a policy made in a comment or on another table is none.
    const files = (entries: Record<string, string>) => Object.entries(entries).map(([name, sql]) => ({ name, path: name, sql }));
    const legacy = files({ '1_repair.sql': 'update legacy.members set x = 1;', '2_schema.sql': 'create table public.members (id int);', '3_legacy.sql': 'create table "legacy"."members" (id int);' });
    expect(neighbourCause(legacy[0]!, '42P01', 'relation "legacy.members" does not exist', legacy)).toMatch(/^legacy\.members is made by a later file, 3_legacy\.sql:/);
    expect(neighbourCause(legacy[0]!, '42P01', 'relation "legacy.members" does not exist', legacy.slice(0, 2))).toBeUndefined();
    const policies = files({ '1_a.sql': 'create policy "p" on other_table using (true);', '2_b.sql': '/* create policy "p" on t */ select 1;', '3_c.sql': 'create policy "p" on t using (true);' });
    expect(neighbourCause(policies[2]!, '42710', 'policy "p" for table "t" already exists', policies)).toBeUndefined();
    // A goose file's Down section makes nothing when it applies: the file whose Up made it is named.
    const goose = files({ '1_a.sql': '-- +goose Up\ncreate policy "p" on t using (true);\n', '2_b.sql': '-- +goose Up\nselect 1;\n-- +goose Down\ncreate policy "p" on t using (true);\n', '3_c.sql': 'create policy "p" on t using (true);' });
    expect(neighbourCause(goose[2]!, '42710', 'policy "p" for table "t" already exists', goose)).toMatch(/^1_a\.sql made policy "p"/);
    // A missing relation no file makes keeps the usual hint.
    const none = folder({ '1_a.sql': 'select * from public.nowhere;\n', '2_b.sql': 'create table public.somewhere (id int);\n' });
    expect(((await prepareTemplate(server, { migrations: loadMigrationFolder(none) }).catch((e: unknown) => e)) as MigrationError).message).toContain(skipHint('1_a.sql'));
  });

  it('a postgrator do file of one statement applies outside a transaction, as postgrator sends it as one query (create index concurrently); one of several inside', async () => {
    // After Omnivore's 0153.do.library_item_user_id_saved_at_idx.sql: "cannot run inside a transaction block", told to skip.
    const dir = folder({
      '0001.do.items.sql': '-- Type: DO\nBEGIN;\ncreate table public.items (id int, saved_at timestamptz);\nCOMMIT;\n',
      '0002.do.items_saved_at_idx.sql': '-- Type: DO\n-- concurrently, to avoid locking\nCREATE INDEX CONCURRENTLY IF NOT EXISTS items_saved_at_idx ON public.items (saved_at);\n',
      '0002.undo.items_saved_at_idx.sql': 'DROP INDEX CONCURRENTLY IF EXISTS items_saved_at_idx;\n',
    });
    expect((await migratedCatalog(dir)).indexes).toEqual(['items_saved_at_idx']);
    const server = await sharedServer();
    // Several statements with one that cannot run in a transaction block: postgrator's implicit transaction refuses it too.
    const several = folder({ '0001.do.items.sql': 'create table public.items (id int);\ncreate index concurrently items_id on public.items (id);\n' });
    await expect(prepareTemplate(server, { migrations: loadMigrationFolder(several) })).rejects.toThrow(/cannot run inside a transaction block/);
  });

  it('a file `psql -f` applies holding a statement no transaction block may hold (a procedure committing its batches, create index concurrently) applies statement by statement; in a Supabase CLI folder it stays refused', async () => {
    // After Readest's docker/volumes/db/migrations/016_add_books_synced_at.sql ("RUN ONLINE, NOT INSIDE A
    // TRANSACTION", applied by its apply-migrations.sh with psql -f): "invalid transaction termination", told to skip.
    const files = {
      '001_books.sql': 'create table public.books (id int primary key, updated_at timestamptz default now());\n',
      '016_add_books_synced_at.sql': [
        'alter table public.books add column if not exists synced_at timestamptz;',
        'create or replace procedure public.backfill(batch int default 100) language plpgsql as $$',
        'declare n int; begin loop update public.books set synced_at = updated_at where id in (select id from public.books where synced_at is null limit batch);',
        '  get diagnostics n = row_count; commit; exit when n = 0; end loop; end $$;',
        'call public.backfill(100);',
        'drop procedure public.backfill(int);',
        'create index concurrently if not exists books_synced on public.books (synced_at);',
      ].join('\n'),
    };
    expect((await migratedCatalog(folder(files))).indexes).toEqual(['books_pkey', 'books_synced']);
    // The Supabase CLI applies each file in one transaction: the same file is refused there, as `supabase db reset` refuses it.
    const project = tempDir('cli');
    mkdirSync(path.join(project, 'migrations'));
    writeFileSync(path.join(project, 'config.toml'), 'project_id = "cli"\n');
    for (const [name, sql] of Object.entries(files)) writeFileSync(path.join(project, 'migrations', name), sql);
    await expect(prepareTemplate(await sharedServer(), { migrations: loadMigrationFolder(path.join(project, 'migrations')) })).rejects.toThrow(/016_add_books_synced_at\.sql failed: invalid transaction termination/);
    // So is a `supabase/migrations` folder whose repository leaves config.toml out.
    const bare = tempDir('cli');
    mkdirSync(path.join(bare, 'supabase', 'migrations'), { recursive: true });
    for (const [name, sql] of Object.entries(files)) writeFileSync(path.join(bare, 'supabase', 'migrations', name), sql);
    await expect(prepareTemplate(await sharedServer(), { migrations: loadMigrationFolder(path.join(bare, 'supabase', 'migrations')) })).rejects.toThrow(/invalid transaction termination/);
  });

  it("a goose, sql-migrate or dbmate file applies its Up sections only (its Down section would undo it), outside a transaction where its tool says so (e2b's goose files)", async () => {
    const dir = folder({
      '20240522105042_users_teams.sql': [
        '-- +goose Up',
        '-- +goose StatementBegin',
        'create table public.users_teams (id int);',
        'alter table public.users_teams add column created_at timestamptz;',
        '-- +goose StatementEnd',
        '',
        '-- +goose Down',
        '-- +goose StatementBegin',
        'alter table public.users_teams drop column if exists created_at;',
        '-- +goose StatementEnd',
      ].join('\n'),
      '20250506112836_index.sql': '-- +goose NO TRANSACTION\n-- +goose Up\ncreate index concurrently users_teams_created on public.users_teams (created_at);\n-- +goose Down\ndrop index concurrently if exists users_teams_created;\n',
      '20250601000000_dbmate.sql': '-- migrate:up transaction:false\ncreate index concurrently users_teams_id on public.users_teams (id);\n\n-- migrate:down\ndrop table public.users_teams;\n',
      '20250602000000_sql_migrate.sql': '-- +migrate Up\ncreate table public.teams (id int);\n-- +migrate Down\ndrop table public.teams;\n-- +migrate Up\nalter table public.teams add column name text;\n',
    });
    const { columns, indexes } = await migratedCatalog(dir);
    expect(columns).toEqual(['teams.id', 'teams.name', 'users_teams.created_at', 'users_teams.id']);
    expect(indexes).toEqual(['users_teams_created', 'users_teams_id']);
    // A marker counts at the start of its line only; a file without one applies whole.
    expect(upSectionOf('select 1; -- +goose Down, said in passing\nselect 2;\n')).toEqual({ sql: 'select 1; -- +goose Down, said in passing\nselect 2;\n', transaction: true });
    expect(upSectionOf('-- +goose Up\nselect 1;\n-- +goose Down\nselect 2;\n')).toEqual({ sql: '-- +goose Up\nselect 1;\n\n\n', transaction: true });
  });

  it('counts lines from a 1-based character position', () => {
    expect(lineOfPosition('a\nb\nc', 5)).toBe(3);
    expect(lineOfPosition('abc', undefined)).toBeUndefined();
  });

  it('reports a failing file with its name, line and Postgres message, and leaves no database behind', async () => {
    const dir = folder({
      '001_ok.sql': 'create table public.a (id int);',
      '002_bad.sql': 'create table public.b (id int);\n\nselect * from public.missing_table;\n',
    });
    const server = await sharedServer();
    const error = await prepareTemplate(server, { migrations: loadMigrationFolder(dir) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).message).toBe(`migration ${path.join(dir, '002_bad.sql')}:3 failed: relation "public.missing_table" does not exist\n  ${skipHint('002_bad.sql')}`);
    expect(skipHint('002_bad.sql')).toBe('if it cannot apply to an empty database (a data repair, say), leave it out: "skip": ["002_bad.sql"] in policyfuzz.config.json, or --skip 002_bad.sql');
    const client = new pg.Client({ connectionString: server.adminUrl });
    await client.connect();
    const left = await client.query(`select datname from pg_database where datname like $1`, [`pf\\_${HOST_TAG}\\_${process.pid}\\_%`]);
    await client.end();
    expect(left.rows).toEqual([]);
  });

  it("a dump of the whole database (it creates Supabase's own schema auth) says to give only the project's schemas, never to skip the file", async () => {
    const dir = folder({ '00000000000000_dump.sql': 'SET row_security = off;\nCREATE SCHEMA auth;\nCREATE TABLE auth.users (id uuid);\n' });
    const error = await prepareTemplate(await sharedServer(), { migrations: loadMigrationFolder(dir) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).message).toBe(`migration ${path.join(dir, '00000000000000_dump.sql')}:2 failed: ${wholeDatabaseDump('auth')}`);
    expect(wholeDatabaseDump('auth')).toContain('supabase db dump --schema public');
  });

  it("a statement naming a column, table or function of Supabase's own schemas the compatibility layer lacks names it as policyfuzz's gap, never hinting to skip the project's file (feedbase's avif_autodetection)", async () => {
    const server = await sharedServer();
    for (const [statement, object] of [
      [`insert into storage.buckets (id, name, pf_not_a_storage_column) values ('a', 'a', true);`, 'storage.buckets.pf_not_a_storage_column'],
      [`select * from storage.pf_no_such_table;`, 'storage.pf_no_such_table'],
      [`select storage.pf_no_such_function('x');`, 'storage.pf_no_such_function'],
    ]) {
      const dir = folder({ '20240101000000_app.sql': `create table public.notes (id int primary key);\n${statement}\n` });
      const error = await prepareTemplate(server, { migrations: loadMigrationFolder(dir) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      const message = (error as MigrationError).message;
      expect(message, statement).toContain(`${object} is Supabase's own, which policyfuzz's compatibility layer stands in for without it`);
      expect(message, statement).not.toContain('leave it out');
    }
    // A column missing from the project's own table keeps the usual message and hint.
    const own = folder({ '20240101000000_app.sql': `create table public.notes (id int primary key);\ninsert into public.notes (id, body) values (1, 'x');\n` });
    const error = await prepareTemplate(server, { migrations: loadMigrationFolder(own) }).catch((e: unknown) => e);
    expect((error as MigrationError).message).toContain('column "body" of relation "notes" does not exist\n  if it cannot apply');
  });

  it('starts each file from a fresh session, as the Supabase CLI does (a dump\'s set_config(search_path, \'\', false) stays in its file)', async () => {
    const dir = folder({
      // A `supabase db dump` opens so, then qualifies every name.
      '001_dump.sql': "select pg_catalog.set_config('search_path', '', false);\ncreate table public.a (id int);\ncreate extension if not exists pg_trgm with schema extensions;",
      // A later file relies on Supabase's search path ("$user", public, extensions).
      '002_unqualified.sql': 'create table b (id int, title text);\ncreate index b_title_trgm on b using gin (title gin_trgm_ops);',
    });
    const server = await sharedServer();
    const template = await prepareTemplate(server, { migrations: loadMigrationFolder(dir) });
    try {
      const client = new pg.Client({ connectionString: template.url });
      await client.connect();
      const made = await client.query(`select to_regclass('public.b_title_trgm') is not null as made`);
      await client.end();
      expect(made.rows).toEqual([{ made: true }]);
    } finally {
      await template.drop();
    }
  });
});
