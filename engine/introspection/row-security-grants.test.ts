/**
 * Where row security, not the grant, decides a privilege (readGrantsUnderRowSecurity): an `api`
 * schema of security_invoker views granting writes over tables with row security (stranger-app-9),
 * and the shapes that give no such reading.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { schemaInTransaction } from '../../testing/schema-in-transaction.ts';
import { readGrantsUnderRowSecurity } from './row-security-grants.ts';

const SCHEMA = `
do $$ begin create role anon nologin; exception when duplicate_object then null; end $$;
do $$ begin create role authenticated nologin; exception when duplicate_object then null; end $$;
create schema app; create schema api;
grant usage on schema app, api to anon, authenticated;
create table app.orders (id uuid primary key, buyer uuid);
alter table app.orders enable row level security;
create table app.open_notes (id uuid primary key, body text);
create table app.tickets (id uuid primary key, deleted_at timestamptz);
alter table app.tickets enable row level security;
grant select, update, delete on app.orders, app.open_notes, app.tickets to authenticated;
-- an invoker view over a table with row security: row security decides
create view api.orders with (security_invoker = true) as select id, buyer from app.orders;
-- a view with its owner's rights: the grant alone decides
create view api.orders_as_owner as select id, buyer from app.orders;
-- an invoker view over a table with row security off: the grant alone decides
create view api.open_notes with (security_invoker = true) as select id, body from app.open_notes;
-- an INSTEAD OF DELETE trigger takes the delete: its body decides, not row security (UPDATE still row security's)
create view api.tickets with (security_invoker = true) as select id from app.tickets;
create function app.soft_delete() returns trigger language plpgsql as $$ begin update app.tickets set deleted_at = now() where id = old.id; return old; end $$;
create trigger tickets_soft_delete instead of delete on api.tickets for each row execute function app.soft_delete();
grant select, update, delete on api.orders, api.orders_as_owner, api.open_notes, api.tickets to authenticated;
-- granted on the view, not on the table under it: the table's grant refuses
grant insert on api.orders to authenticated;
-- a table with row security in the second exposed schema: its name is qualified
create schema passport; grant usage on schema passport to authenticated;
create table passport.profiles (id uuid primary key);
alter table passport.profiles enable row level security;
grant delete on passport.profiles to authenticated;
-- a column grant: row security decides that UPDATE too
create table passport.cards (id uuid primary key, label text);
alter table passport.cards enable row level security;
grant update (label) on passport.cards to authenticated;
`;

describe('privileges row security decides (readGrantsUnderRowSecurity)', () => {
  const client = schemaInTransaction(SCHEMA);
  let held: Set<string>;
  beforeAll(async () => {
    held = await readGrantsUnderRowSecurity(client(), ['api', 'passport']);
  });

  it('an invoker view over a table with row security: each privilege granted on both, under its bare and qualified names in the first exposed schema', () => {
    expect([...held].filter((k) => k.startsWith('orders:')).sort()).toEqual(['orders:delete:authenticated', 'orders:select:authenticated', 'orders:update:authenticated']);
    // stranger-app-9's mapping names them qualified (`api.shop_orders`)
    expect([...held].filter((k) => k.startsWith('api.orders:')).sort()).toEqual(['api.orders:delete:authenticated', 'api.orders:select:authenticated', 'api.orders:update:authenticated']);
  });

  it('no reading for a definer view, a table with row security off, a privilege the table withholds, or a role with no grant', () => {
    expect([...held].some((k) => k.startsWith('orders_as_owner:') || k.startsWith('open_notes:'))).toBe(false);
    expect(held.has('orders:insert:authenticated')).toBe(false);
    expect(held.has('orders:delete:anon')).toBe(false);
  });

  it('a write an INSTEAD OF trigger takes gets no reading; the view’s other privileges keep theirs', () => {
    expect(held.has('tickets:delete:authenticated')).toBe(false);
    expect(held.has('tickets:update:authenticated')).toBe(true);
  });

  it('a table of another exposed schema, by its qualified name', () => {
    expect(held.has('passport.profiles:delete:authenticated')).toBe(true);
    expect(held.has('profiles:delete:authenticated')).toBe(false);
  });

  it('a privilege granted on some columns only counts, as privilege-held.ts counts it everywhere', () => {
    expect(held.has('passport.cards:update:authenticated')).toBe(true);
    expect(held.has('passport.cards:insert:authenticated')).toBe(false);
  });
});
