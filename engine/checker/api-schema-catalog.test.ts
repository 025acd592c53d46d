/**
 * Catalog readings of an `api` schema of views and functions over private tables (stranger-app-17).
 *
 * The privileges a `security_invoker` view gives: the caller's own on the tables it reads, besides
 * the view's. stranger-app-17 exposes an `api` schema whose default privileges grant anon every view
 * (Supabase's guide to custom schemas) over `app` tables granted to authenticated only: anon's read
 * of team_members was refused by the table's grant (42501), where init had read anon as holding
 * SELECT on every view (conventions.grants = supabase-default, a false alarm of rule 11).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readCatalogTables } from './catalog.ts';
import { readTargetFacts } from '../introspection/target-facts.ts';

const SCHEMA = `
do $$ begin create role anon nologin; exception when duplicate_object then null; end $$;
do $$ begin create role authenticated nologin; exception when duplicate_object then null; end $$;
create schema inv_app; create schema inv_api;
grant usage on schema inv_app, inv_api to anon, authenticated;
alter default privileges in schema inv_api grant all on tables to anon, authenticated;
create table inv_app.members (id uuid primary key, email text);
create table inv_app.categories (id text primary key, name text);
grant select, update on inv_app.members to authenticated;
grant select on inv_app.categories to anon, authenticated;
grant update (name) on inv_app.categories to anon;
create table inv_api.filings (id int primary key, brief text, flagged boolean);
revoke all on inv_api.filings from anon, authenticated;
grant select on inv_api.filings to authenticated;
grant insert (id, brief) on inv_api.filings to authenticated;
create view inv_api.members with (security_invoker = true) as select id, email from inv_app.members;
create view inv_api.categories with (security_invoker = true) as select id, name from inv_app.categories;
-- the owner's rights: the view's grant is all the caller needs
create view inv_api.member_count as select count(*) as n from inv_app.members;
`;

describe('privileges through a security_invoker view', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    await client.query('begin');
    await client.query(SCHEMA);
  });
  afterAll(async () => {
    await client.query('rollback');
    await client.end();
  });

  it("holds a privilege only where the caller holds it on the view's table too", async () => {
    const tables = new Map((await readCatalogTables(client, ['inv_api'])).map((t) => [t.name, t]));
    expect(tables.get('inv_api.members')!.privileges).toEqual({ anon: [], authenticated: ['select', 'update'] });
    // a column grant on the table carries UPDATE of that column through the view
    expect(tables.get('inv_api.categories')!.privileges).toEqual({ anon: ['select'], authenticated: ['select'] });
    expect(tables.get('inv_api.categories')!.columnUpdate).toEqual({ anon: ['name'] });
    // column INSERT grants alone (stranger-app-19's tickets): the columns, no table-level INSERT
    expect(tables.get('inv_api.filings')!.privileges).toEqual({ anon: [], authenticated: ['select'] });
    expect(tables.get('inv_api.filings')!.columnInsert).toEqual({ authenticated: ['id', 'brief'] });
    expect(tables.get('inv_api.categories')!.columnInsert).toBeUndefined();
    expect(tables.get('inv_api.members')!.columnUpdate).toBeUndefined();
    expect(tables.get('inv_api.member_count')!.privileges.anon).toEqual(['select', 'insert', 'update', 'delete']);
  });

  it("reads a project role's column INSERT grants as the API roles' (and its SELECT and UPDATE ones)", async () => {
    const role = `inv_writer_${Math.random().toString(36).slice(2, 8)}`;
    await client.query(`create role ${role} nologin; grant usage on schema inv_api to ${role}; grant insert (id, brief), update (brief), select (id) on inv_api.filings to ${role}`);
    const filings = (await readCatalogTables(client, ['inv_api'], [role])).find((t) => t.name === 'inv_api.filings')!;
    expect(filings.privileges[role]).toEqual([]);
    expect(filings.columnInsert).toEqual({ authenticated: ['id', 'brief'], [role]: ['id', 'brief'] });
    expect(filings.columnUpdate).toEqual({ [role]: ['brief'] });
    expect(filings.columnSelect).toEqual({ [role]: ['id'] });
  });

  it("gives init's facts the same reading (anon reads no member)", async () => {
    const { tables } = await readTargetFacts(client, ['inv_api']);
    expect(tables.find((t) => t.name === 'inv_api.members')!.anonCanSelect).toBe(false);
    expect(tables.find((t) => t.name === 'inv_api.categories')!.anonCanSelect).toBe(true);
  });
});

describe('a function answering a composite type made for it', () => {
  // stranger-app-17's get_vs_ticket_by_id `returns api.vs_ticket_card`: no output columns were read,
  // so init proposed no functionColumns and every lookup failed R07 on the columns it answers.
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    await client.query('begin');
    await client.query(`create schema card_api;
      create type card_api.ticket_card as (id bigint, status text, tags text[]);
      create function card_api.get_card(p_id bigint) returns card_api.ticket_card language sql as $$ select p_id, 'open', '{}'::text[] $$;`);
  });
  afterAll(async () => {
    await client.query('rollback');
    await client.end();
  });

  it("reads the type's fields as its output columns", async () => {
    const { functions } = await readTargetFacts(client, ['card_api']);
    expect(functions.find((f) => f.name === 'card_api.get_card')).toMatchObject({ returns: 'composite', outColumns: ['id', 'status', 'tags'] });
  });
});
