import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { keptTemplateKey, prepareTemplate } from './databases.ts';
import { cachedTemplateName } from './template-cache.ts';
import { loadMigrationFolder } from './migrations.ts';
import { API_ROLE_STATEMENT_TIMEOUTS, confinedToDatabase, confineSettingsMadeOutside, settingsOutside } from './role-settings.ts';
import { withSettingsTurn } from './databases.ts';
import { CACHED_TEMPLATE_PREFIX } from './template-cache.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { tempDir } from '../../testing/temp-dir.ts';

describe("a migration's role-wide setting is confined to the database it migrates", () => {
  it('rewrites alter role|user … set|reset without `in database`, and nothing else', () => {
    expect(confinedToDatabase("alter role authenticator set pgrst.db_pre_request = 'authz.check_request'", 'pf_x')).toBe(
      `alter role authenticator in database "pf_x" set pgrst.db_pre_request = 'authz.check_request'`,
    );
    expect(confinedToDatabase('-- the hook\n/* once */\nALTER USER "Anon Role" RESET statement_timeout', 'Db')).toBe('-- the hook\n/* once */\nALTER USER "Anon Role" in database "Db" RESET statement_timeout');
    expect(confinedToDatabase('alter role all set search_path = public', 'pf_x')).toBe('alter role all in database "pf_x" set search_path = public');
    for (const untouched of ['alter role anon in database postgres set statement_timeout = 1', 'alter role anon with nologin', 'alter role anon rename to anon2', 'select 1', "comment on role anon is 'alter role anon set x = 1'"]) {
      expect(confinedToDatabase(untouched, 'pf_x')).toBe(untouched);
    }
  });

  it("reaches no other database on the server (stranger-app-13's pre-request hook called in every other project's requests: 3F000)", async () => {
    const server = await sharedServer();
    const hook = `public.hook_${randomBytes(4).toString('hex')}`;
    const dir = tempDir('role-settings');
    writeFileSync(path.join(dir, '1_hook.sql'), `alter role authenticator set pgrst.db_pre_request = '${hook}';\n`);
    const template = await prepareTemplate(server, { migrations: loadMigrationFolder(dir), cache: false });
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ database: string | null }>(
        `select d.datname as database from pg_db_role_setting s join pg_roles r on r.oid = s.setrole left join pg_database d on d.oid = s.setdatabase, unnest(s.setconfig) c
          where r.rolname = 'authenticator' and c = $1`,
        [`pgrst.db_pre_request=${hook}`],
      );
      // Set in the migrated database alone: never role-wide (setdatabase 0, no database).
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.database !== null)).toBe(true);
    } finally {
      await admin.end();
      await template.drop();
    }
  });

  it("a setting made outside it in another form (a DO block's execute, `in database postgres`, `alter database postgres`) is moved into it and put back outside, with a note", async () => {
    const server = await sharedServer();
    const mark = randomBytes(4).toString('hex');
    const dir = tempDir('role-settings');
    writeFileSync(
      path.join(dir, '1_elsewhere.sql'),
      `do $$ begin execute format('alter role %I set pgrst.db_pre_request = %L', 'authenticator', 'public.hook_${mark}'); end $$;
alter role anon in database postgres set pgrst.marker_${mark} = 'anon';
alter database postgres set pgrst.marker_${mark} = 'everyone';
`,
    );
    const template = await prepareTemplate(server, { migrations: loadMigrationFolder(dir), cache: false });
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ role: string | null; database: string | null; setting: string }>(
        `select r.rolname as role, d.datname as database, c as setting from pg_db_role_setting s left join pg_roles r on r.oid = s.setrole left join pg_database d on d.oid = s.setdatabase, unnest(s.setconfig) c
          where c like $1 or c like $2 order by 1, 3`,
        [`pgrst.db_pre_request=public.hook_${mark}`, `pgrst.marker_${mark}=%`],
      );
      // In the migrated database alone: nowhere role-wide, nothing left in postgres.
      expect(rows).toEqual([
        { role: 'anon', database: template.name, setting: `pgrst.marker_${mark}=anon` },
        { role: 'authenticator', database: template.name, setting: `pgrst.db_pre_request=public.hook_${mark}` },
        { role: null, database: template.name, setting: `pgrst.marker_${mark}=everyone` },
      ]);
      expect(template.settingsConfined).toHaveLength(3);
      expect(template.settingsConfined).toContain(`pgrst.db_pre_request for role authenticator in every database set by the migrations: moved into the migrated database, outside it put back as it was`);
    } finally {
      // Whatever this left outside (a failure of the above), taken away.
      for (const undo of [`alter role authenticator reset pgrst.db_pre_request`, `alter role anon in database postgres reset pgrst.marker_${mark}`, `alter database postgres reset pgrst.marker_${mark}`]) await admin.query(undo).catch(() => {});
      await admin.end();
      await template.drop();
    }
  });

  it("another run's kept template appearing while it migrates (built under a scratch name, then renamed) is not its own: its settings stay there, unsaid (the 6-for-3 flake)", async () => {
    const server = await sharedServer();
    const mark = randomBytes(4).toString('hex');
    const [mine, kept] = [`pf_t_mine_${mark}`, `${CACHED_TEMPLATE_PREFIX}t${mark}`];
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    await admin.query(`create database ${mine}`);
    const url = new URL(server.adminUrl);
    url.pathname = `/${mine}`;
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    try {
      await withSettingsTurn(server.adminUrl, () => {}, async () => {
        const before = await settingsOutside(c);
        // The other run's build, done meanwhile: its template, with the settings a template carries.
        await admin.query(`create database ${kept}`);
        await admin.query(`alter database ${kept} set search_path = public, extensions`);
        await admin.query(`alter role anon in database ${kept} set pgrst.marker_${mark} = 'kept'`);
        expect(await confineSettingsMadeOutside(c, before)).toEqual([]);
      });
      const { rows } = await admin.query<{ role: string | null; database: string | null; setting: string }>(
        `select r.rolname as role, d.datname as database, c as setting from pg_db_role_setting s left join pg_roles r on r.oid = s.setrole left join pg_database d on d.oid = s.setdatabase, unnest(s.setconfig) c
          where d.datname in ($1, $2) order by 2, 3`,
        [mine, kept],
      );
      expect(rows).toEqual([
        { role: 'anon', database: kept, setting: `pgrst.marker_${mark}=kept` },
        { role: null, database: kept, setting: 'search_path=public, extensions' },
      ]);
    } finally {
      await c.end();
      await admin.query(`drop database if exists ${mine} with (force)`);
      await admin.query(`drop database if exists ${kept} with (force)`);
      await admin.end();
    }
  });

  it("an API role's statement_timeout set by a DO block is confined too, and the compatibility layer's put back outside (it reached every database on the server)", async () => {
    const server = await sharedServer();
    const dir = tempDir('role-settings');
    writeFileSync(path.join(dir, '1_timeout.sql'), `do $$ begin execute format('alter role %I set statement_timeout = %L', 'anon', '4s'); end $$;\n`);
    const template = await prepareTemplate(server, { migrations: loadMigrationFolder(dir), cache: false });
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ database: string | null; setting: string }>(
        `select d.datname as database, c as setting from pg_db_role_setting s join pg_roles r on r.oid = s.setrole left join pg_database d on d.oid = s.setdatabase, unnest(s.setconfig) c
          where r.rolname = 'anon' and c like 'statement\\_timeout=%' and (s.setdatabase = 0 or d.datname = $1) order by 1 nulls first`,
        [template.name],
      );
      // Role-wide: the compatibility layer's (supabase/roles.sql), as every other database on the server has it; the migration's in its own.
      expect(rows).toEqual([
        { database: null, setting: 'statement_timeout=3s' },
        { database: template.name, setting: 'statement_timeout=4s' },
      ]);
      expect(template.settingsConfined).toEqual([`statement_timeout for role anon in every database set by the migrations: moved into the migrated database, outside it put back as it was`]);
    } finally {
      await admin.query(`alter role anon set statement_timeout = '3s'`).catch(() => {});
      await admin.end();
      await template.drop();
    }
  });

  it("an API role's statement_timeout a DO block resets role-wide is put back outside as the compatibility layer set it; in the migrated database the role has none (the workers' bound)", async () => {
    const server = await sharedServer();
    const dir = tempDir('role-settings');
    writeFileSync(path.join(dir, '1_no_timeout.sql'), `do $$ begin execute format('alter role %I reset statement_timeout', 'authenticated'); end $$;\n`);
    const template = await prepareTemplate(server, { migrations: loadMigrationFolder(dir), cache: false });
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ database: string | null; setting: string }>(
        `select d.datname as database, c as setting from pg_db_role_setting s join pg_roles r on r.oid = s.setrole left join pg_database d on d.oid = s.setdatabase, unnest(s.setconfig) c
          where r.rolname = 'authenticated' and c like 'statement\\_timeout=%' and (s.setdatabase = 0 or d.datname = $1) order by 1 nulls first`,
        [template.name],
      );
      // Role-wide: the layer's, from its one source, as every other database on the server keeps it.
      expect(rows).toEqual([
        { database: null, setting: `statement_timeout=${API_ROLE_STATEMENT_TIMEOUTS.get('authenticated')}` },
        { database: template.name, setting: 'statement_timeout=1min' },
      ]);
      expect(template.settingsConfined).toEqual([`statement_timeout for role authenticated in every database reset by the migrations: put back as it was outside the migrated database; in it the role has none (policyfuzz's bound on one statement, 60 s, applies)`]);
    } finally {
      await admin.query(`alter role authenticated set statement_timeout = '8s'`).catch(() => {});
      await admin.end();
      await template.drop();
    }
  });

  it("a setting of a role no request uses (not anon, authenticated, service_role, authenticator) is left where it was made, and not said", async () => {
    const server = await sharedServer();
    const mark = randomBytes(4).toString('hex');
    const other = `pf_t_other_${mark}`;
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    await admin.query(`create role ${other}`);
    const dir = tempDir('role-settings');
    // Made in a form the statement rewrite does not reach, as another session's (a test's, an
    // admin's on a shared server) made while a build runs would be: no request meets it, so it is
    // neither this build's to move nor a thing to put back.
    writeFileSync(path.join(dir, '1_other_role.sql'), `do $$ begin execute format('alter role %I set work_mem = %L', '${other}', '5MB'); end $$;\n`);
    try {
      const template = await prepareTemplate(server, { migrations: loadMigrationFolder(dir), cache: false });
      try {
        const { rows } = await admin.query<{ database: string | null }>(
          `select d.datname as database from pg_db_role_setting s join pg_roles r on r.oid = s.setrole left join pg_database d on d.oid = s.setdatabase, unnest(s.setconfig) c where r.rolname = $1 and c = 'work_mem=5MB'`,
          [other],
        );
        expect(rows).toEqual([{ database: null }]);
        expect(template.settingsConfined).toEqual([]);
      } finally {
        await template.drop();
      }
    } finally {
      await admin.query(`drop role if exists ${other}`).catch(() => {});
      await admin.end();
    }
  });

  it('two builds at once that both change a setting outside their database each confine their own (they take turns: without, each read the other\'s as its own)', async () => {
    const server = await sharedServer();
    const marks = [randomBytes(4).toString('hex'), randomBytes(4).toString('hex')];
    // Both set the same role-wide setting in a DO block, then keep migrating a while: built at
    // once without turns, the first to finish found the second's value and moved it into its own database.
    const build = (mark: string) => {
      const dir = tempDir('role-settings-race');
      writeFileSync(path.join(dir, '1_hook.sql'), `do $$ begin execute format('alter role %I set pgrst.db_pre_request = %L', 'authenticator', 'public.hook_${mark}'); end $$;\nselect pg_sleep(1.5);\n`);
      return prepareTemplate(server, { migrations: loadMigrationFolder(dir), cache: false });
    };
    const templates = await Promise.all(marks.map(build));
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ database: string | null; setting: string }>(
        `select d.datname as database, c as setting from pg_db_role_setting s join pg_roles r on r.oid = s.setrole left join pg_database d on d.oid = s.setdatabase, unnest(s.setconfig) c
          where r.rolname = 'authenticator' and (c like $1 or c like $2) order by 2`,
        marks.map((m) => `pgrst.db_pre_request=public.hook_${m}`),
      );
      expect(rows).toEqual(marks.map((m, i) => ({ database: templates[i].name, setting: `pgrst.db_pre_request=public.hook_${m}` })).sort((a, b) => a.setting.localeCompare(b.setting)));
      for (const t of templates) expect(t.settingsConfined).toEqual([`pgrst.db_pre_request for role authenticator in every database set by the migrations: moved into the migrated database, outside it put back as it was`]);
    } finally {
      await admin.query(`alter role authenticator reset pgrst.db_pre_request`).catch(() => {});
      await admin.end();
      for (const t of templates) await t.drop();
    }
  }, 60_000);

  it('a start on the kept template says what its build moved, as the build did (a cached start said nothing)', async () => {
    const server = await sharedServer();
    const mark = randomBytes(4).toString('hex');
    const dir = tempDir('role-settings-kept');
    writeFileSync(path.join(dir, '1_hook.sql'), `do $$ begin execute format('alter role %I set pgrst.db_pre_request = %L', 'authenticator', 'public.hook_${mark}'); end $$;\n`);
    const migrations = loadMigrationFolder(dir);
    const said = `pgrst.db_pre_request for role authenticator in every database set by the migrations: moved into the migrated database, outside it put back as it was`;
    try {
      const built = await prepareTemplate(server, { migrations, cache: true });
      await built.drop();
      expect(built.source.kind).toBe('built');
      expect(built.settingsConfined).toEqual([said]);
      const cached = await prepareTemplate(server, { migrations, cache: true });
      await cached.drop();
      expect(cached.source.kind).toBe('cached');
      expect(cached.settingsConfined).toEqual([said]);
      // A later migration on top of it (the kept one extended): the base's line, then its own.
      writeFileSync(path.join(dir, '2_more.sql'), `do $$ begin execute format('alter role %I set pgrst.marker_${mark} = %L', 'anon', 'x'); end $$;\n`);
      const extended = await prepareTemplate(server, { migrations: loadMigrationFolder(dir), cache: true });
      await extended.drop();
      expect(extended.source.kind).toBe('extended');
      expect(extended.settingsConfined).toEqual([said, `pgrst.marker_${mark} for role anon in every database set by the migrations: moved into the migrated database, outside it put back as it was`]);
    } finally {
      const admin = new pg.Client({ connectionString: server.adminUrl });
      await admin.connect();
      for (const m of [migrations, loadMigrationFolder(dir)]) await admin.query(`drop database if exists ${cachedTemplateName(keptTemplateKey(m))}`).catch(() => {});
      await admin.query(`alter role authenticator reset pgrst.db_pre_request`).catch(() => {});
      await admin.query(`alter role anon reset pgrst.marker_${mark}`).catch(() => {});
      await admin.end();
    }
  }, 60_000);
});
