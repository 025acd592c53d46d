/**
 * What a write through an API view meets, read off the table under it: a project exposing an
 * `api` schema of views over tables in a schema the API never reaches (stranger-app-6).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readProjectionViews, readTableShapes } from './table-shapes.ts';
import { readTargetFacts } from './target-facts.ts';

const SCHEMA = `
-- the API roles, as the Supabase layer makes them (rolled back with the rest where this server lacks them)
do $$ begin create role anon nologin; exception when duplicate_object then null; end $$;
do $$ begin create role authenticated nologin; exception when duplicate_object then null; end $$;
create schema hidden; create schema exposed;
create table hidden.people (id uuid primary key default gen_random_uuid(), role text not null default 'user' check (role in ('user', 'staff')));
create table hidden.notes (id text primary key check (id ~ '^n_'), author_id uuid not null references hidden.people (id), body text, secret text);
create view exposed.people with (security_invoker = true) as select id, role from hidden.people;
create view exposed.notes with (security_invoker = true) as select id, author_id, body from hidden.notes;
-- a projection with a read-only computed column beside the table's (stranger-app-9: a role held in a table of grants)
create table hidden.grants (person_id uuid references hidden.people (id), slug text);
create function hidden.top_grant(p uuid) returns text language sql stable as $$ select max(slug) from hidden.grants where person_id = p $$;
create view exposed.accounts with (security_invoker = true) as select id, role, hidden.top_grant(id) as top_role from hidden.people;
-- not a projection: a view computing as many columns as it shows, a renamed one, a join
create view exposed.tiers as select id, upper(role) as tier from hidden.people;
create view exposed.renamed as select id as person_id from hidden.people;
create view exposed.joined as select n.id, p.role from hidden.notes n join hidden.people p on p.id = n.author_id;
-- a single TABLE or INOUT column answers rows keyed by its name (as the executor's schema cache reads it)
create function exposed.people_ids() returns table (id uuid) language sql stable as $$ select id from hidden.people $$;
create function exposed.person_role(inout id uuid) language sql stable as $$ select id $$;
`;

describe('views the API writes through to one table (readProjectionViews)', () => {
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

  it('finds the projections only, with their tables and columns', async () => {
    expect(await readProjectionViews(client, ['exposed'])).toEqual([
      { view: 'exposed.accounts', table: 'hidden.people', columns: ['id', 'role'], computed: [{ name: 'top_role', type: 'text' }] },
      { view: 'exposed.notes', table: 'hidden.notes', columns: ['id', 'author_id', 'body'] },
      { view: 'exposed.people', table: 'hidden.people', columns: ['id', 'role'] },
    ]);
  });

  it("gives a projection its table's shape: key, NOT NULL, vocabulary, CHECK; references to a viewed table point at its view", async () => {
    const shapes = await readTableShapes(client, ['exposed']);
    expect([...shapes.keys()].sort()).toEqual(['exposed.accounts', 'exposed.notes', 'exposed.people']);
    // The computed column is the view's, read-only: a fixture leaves it out as it does a generated one.
    expect(shapes.get('exposed.accounts')!.map((c) => [c.name, c.generated])).toEqual([['id', false], ['role', false], ['top_role', true]]);
    const notes = shapes.get('exposed.notes')!;
    expect(notes.map((c) => c.name)).toEqual(['id', 'author_id', 'body']);
    expect(notes[0]).toMatchObject({ primaryKey: true, unique: true, checks: [expect.objectContaining({ kind: 'pattern', pattern: '^n_' })] });
    expect(notes[1]).toMatchObject({ notNull: true, references: { table: 'exposed.people', column: 'id' } });
    expect(shapes.get('exposed.people')![1]).toMatchObject({ notNull: true, hasDefault: true, vocabulary: ['user', 'staff'] });
  });

  it("init's facts read a single RETURNS TABLE or INOUT column as rows of that column, as PostgREST answers them", async () => {
    const { functions } = await readTargetFacts(client, ['exposed']);
    expect(functions.find((f) => f.name === 'exposed.people_ids')).toMatchObject({ returns: 'setof-composite', outColumns: ['id'] });
    expect(functions.find((f) => f.name === 'exposed.person_role')).toMatchObject({ returns: 'composite', outColumns: ['id'] });
  });

  it("init's facts carry the table's defaults and key onto the view", async () => {
    const { tables } = await readTargetFacts(client, ['exposed']);
    const people = tables.find((t) => t.name === 'exposed.people')!;
    expect(people.columns).toEqual([
      expect.objectContaining({ name: 'id', primaryKey: true, defaultExpr: 'gen_random_uuid()' }),
      expect.objectContaining({ name: 'role', notNull: true, defaultExpr: "'user'::text", vocabulary: ['user', 'staff'] }),
    ]);
  });
});

describe('an array of an enum (Prisma’s `"Permission"[]`)', () => {
  // After stranger-app-8: `permissions "Permission"[]` had no labels; a world writing a permission the enum lacks
  // was sent and refused as input (22P02), a FAIL in R01 where the model expected its guard or a success.
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    await client.query('begin');
    await client.query(`create schema orm; create type orm."Permission" as enum ('vs', 'pr');
      create table orm."User" (id text primary key, "permissions" orm."Permission"[] default array[]::orm."Permission"[], tags text[], "kind" orm."Permission")`);
  });
  afterAll(async () => {
    await client.query('rollback');
    await client.end();
  });

  it('reads its element labels apart from a scalar enum’s, and none for an array of text', async () => {
    const user = (await readTableShapes(client, ['orm'])).get('orm.User')!;
    expect(user.find((c) => c.name === 'permissions')).toMatchObject({ elementEnumLabels: ['vs', 'pr'] });
    expect(user.find((c) => c.name === 'permissions')!.enumLabels).toBeUndefined();
    expect(user.find((c) => c.name === 'tags')!.elementEnumLabels).toBeUndefined();
    expect(user.find((c) => c.name === 'kind')).toMatchObject({ enumLabels: ['vs', 'pr'] });
    expect(user.find((c) => c.name === 'kind')!.elementEnumLabels).toBeUndefined();
  });
});

// After stranger-app-3 (`email public.email_address`, a domain whose CHECK refuses spaces): only a domain's
// vocabulary was read, so its format was met only once a fixture was written (98 drops under its bare name).
describe("a domain's CHECK is its columns' (readTableShapes)", () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    await client.query('begin');
    await client.query(`create schema shaped;
      create domain shaped.email_address as text check (value ~ '^[^@[:space:]]+@[^@[:space:]]+$') check (value = lower(value));
      create table shaped.members (id int primary key, email shaped.email_address not null, kkumail text check (kkumail = lower(btrim(kkumail))))`);
  });
  afterAll(async () => {
    await client.query('rollback');
    await client.end();
  });

  it('reads its format and normalization as the column’s checks, under the domain’s constraint names', async () => {
    const [, email, kkumail] = (await readTableShapes(client, ['shaped'])).get('shaped.members')!;
    expect(email.checks).toEqual([
      { kind: 'pattern', column: 'email', pattern: '^[^@[:space:]]+@[^@[:space:]]+$', constraint: 'email_address_check' },
      { kind: 'normalized', column: 'email', lower: true, trim: false, constraint: 'email_address_check1' },
    ]);
    expect(kkumail.checks).toEqual([{ kind: 'normalized', column: 'kkumail', lower: true, trim: true, constraint: 'members_kkumail_check' }]);
  });
});

describe('a composite primary key (readTableShapes)', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    await client.query('begin');
    await client.query(`create schema junctions;
      create table junctions.posts (id bigint primary key);
      create table junctions.tags (id bigint primary key);
      create table junctions.post_tags (post_id bigint references junctions.posts, tag_id bigint references junctions.tags, primary key (post_id, tag_id));
      create table junctions.pairs (id bigint primary key, post_id bigint references junctions.posts, tag_id bigint references junctions.tags, unique (post_id, tag_id));`);
  });
  afterAll(async () => {
    await client.query('rollback');
    await client.end();
  });

  it('is marked as the primary key (what makes a PostgREST junction), a unique pair is not', async () => {
    const shapes = await readTableShapes(client, ['junctions']);
    expect(shapes.get('junctions.post_tags')![0].uniqueTogether).toEqual([{ name: 'post_tags_pkey', columns: ['post_id', 'tag_id'], primaryKey: true }]);
    expect(shapes.get('junctions.pairs')![1].uniqueTogether).toEqual([{ name: 'pairs_post_id_tag_id_key', columns: ['post_id', 'tag_id'] }]);
  });
});

describe("a key of several columns (stranger-app-17's shop_orders (buyer_id, order_no))", () => {
  // After stranger-app-17: only a key of one column was read, so init found no place for the model's id and proposed it null.
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    await client.query('begin');
    await client.query(`do $$ begin create role anon nologin; exception when duplicate_object then null; end $$;
      do $$ begin create role authenticated nologin; exception when duplicate_object then null; end $$;
      create schema stock; create schema storefront;
      create table stock.owners (id uuid primary key);
      create table stock.baskets (owner_id uuid not null references stock.owners (id), line_no integer not null, note text, primary key (owner_id, line_no));
      create view storefront.baskets with (security_invoker = true) as select owner_id, line_no, note from stock.baskets;`);
  });
  afterAll(async () => {
    await client.query('rollback');
    await client.end();
  });

  it("init's facts mark each of its columns a part of the key, on the table and on the view over it, and none the key of one column", async () => {
    const { tables } = await readTargetFacts(client, ['storefront']);
    const baskets = tables.find((t) => t.name === 'storefront.baskets')!;
    expect(baskets.columns.map((c) => [c.name, c.keyPart === true, c.primaryKey === true])).toEqual([
      ['owner_id', true, false],
      ['line_no', true, false],
      ['note', false, false],
    ]);
  });
});
