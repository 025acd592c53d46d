/**
 * A project role that is a member of an API role (`grant authenticated to app_reader`, INHERIT by
 * default) holds what that role holds: has_table_privilege follows the membership, and so does
 * every statement the role runs. The model says so once (`grants.memberOf`), read by privilegesOf
 * and columnGrantsOf alone, instead of every privilege listed again by hand; a membership without
 * INHERIT gives nothing, and the catalog comparison (GRANT01) tells the two apart.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { sharedServer } from '../../testing/shared-server.ts';
import { databaseUrl, prepareTemplate } from '../db/databases.ts';
import { columnGrantsOf, privilegesOf, type Grants, type TableModel } from '../model/table-model.ts';
import { compareTables, readCatalogTables } from './catalog.ts';

describe('a project role inheriting an API role', () => {
  it('holds its table-level and column-level grants, through a chain, each once', () => {
    const grants: Grants = { anon: [], authenticated: ['select'], app_writer: ['insert'], columnUpdate: { authenticated: ['title'] }, memberOf: { app_writer: ['app_reader'], app_reader: ['authenticated', 'app_writer'] } };
    expect(privilegesOf(grants, 'app_writer')).toEqual(['select', 'insert']);
    expect(privilegesOf(grants, 'app_reader')).toEqual(['select', 'insert']);
    expect(columnGrantsOf(grants, 'app_writer', 'columnUpdate')).toEqual(['title']);
    // Membership runs one way: authenticated holds nothing of its members.
    expect(privilegesOf(grants, 'authenticated')).toEqual(['select']);
    expect(columnGrantsOf(grants, 'anon', 'columnUpdate')).toBeUndefined();
  });

  it("the model's memberOf agrees with the catalog's has_table_privilege; without INHERIT the role holds nothing, and GRANT01 says so", async () => {
    const server = await sharedServer();
    const tag = randomBytes(4).toString('hex');
    const [inheriting, noInherit] = [`pf_test_reader_${tag}`, `pf_test_noinherit_${tag}`];
    const template = await prepareTemplate(server, {
      migrations: [
        {
          name: '1_roles.sql',
          path: '1_roles.sql',
          sql: `create role ${inheriting} nologin; create role ${noInherit} nologin noinherit;
grant authenticated to ${inheriting}; grant authenticated to ${noInherit};
create table public.docs (id uuid primary key, title text);
revoke all on public.docs from anon, authenticated;
grant select on public.docs to authenticated;
grant update (title) on public.docs to authenticated;
alter table public.docs enable row level security;`,
        },
      ],
      cache: false,
    });
    const client = new pg.Client({ connectionString: databaseUrl(server.adminUrl, template.name) });
    await client.connect();
    try {
      const docs = (grants: Grants) => ({ docs: { table: 'docs', primaryKey: ['id'], rowSecurity: true, columns: [{ name: 'id', type: 'uuid', nullable: false }, { name: 'title', type: 'text', nullable: true }], grants } as unknown as TableModel });
      const found = (await readCatalogTables(client, ['public'], [inheriting, noInherit])).filter((t) => t.name === 'docs');
      const grants: Grants = { anon: [], authenticated: ['select'], columnUpdate: { authenticated: ['title'] }, memberOf: { [inheriting]: ['authenticated'] } };
      expect(compareTables(found, docs(grants), {}, [inheriting, noInherit]).findings).toEqual([]);
      // Said of the NOINHERIT role too, the model holds what the database does not: a finding, named.
      expect(compareTables(found, docs({ ...grants, memberOf: { [inheriting]: ['authenticated'], [noInherit]: ['authenticated'] } }), {}, [inheriting, noInherit]).findings).toEqual([`docs: ${noInherit} lacks SELECT, the model says it holds it`]);
    } finally {
      await client.end();
      await template.drop();
      const admin = new pg.Client({ connectionString: server.adminUrl });
      await admin.connect();
      await admin.query(`drop role if exists ${inheriting}; drop role if exists ${noInherit}`).catch(() => {});
      await admin.end();
    }
  });
});
