/**
 * privilegesHeldInVain: a privilege an API role holds on a security_invoker view over one table
 * reaches nothing when the role lacks it on that table (Postgres checks the invoker's own); a
 * column privilege on the table counts as holding it; a view run as its owner is not such a view.
 */
import { expect, it } from 'vitest';
import { schemaInTransaction } from '../../testing/schema-in-transaction.ts';
import { privilegesHeldInVain } from './model-grants-property.ts';

const SCHEMA = `
do $$ begin create role anon nologin; exception when duplicate_object then null; end $$;
do $$ begin create role authenticated nologin; exception when duplicate_object then null; end $$;
create schema held_in_vain;
create table held_in_vain.members (id int primary key, org int, role text);
revoke all on table held_in_vain.members from anon, authenticated;
grant select on table held_in_vain.members to anon;
grant insert (org, role) on table held_in_vain.members to authenticated;
create view held_in_vain.members_view with (security_invoker = true) as select id, org, role from held_in_vain.members;
create view held_in_vain.members_as_owner as select id, org, role from held_in_vain.members;
grant select, insert, update, delete on held_in_vain.members_view, held_in_vain.members_as_owner to anon, authenticated;
`;

const client = schemaInTransaction(SCHEMA);

it("names each view privilege the role lacks on the invoker view's table, a column privilege counting as held", async () => {
  const held = await privilegesHeldInVain(client(), ['held_in_vain.members_view', 'held_in_vain.members_as_owner']);
  expect([...held].sort()).toEqual([
    'held_in_vain.members_view: anon holds DELETE',
    'held_in_vain.members_view: anon holds INSERT',
    'held_in_vain.members_view: anon holds UPDATE',
    'held_in_vain.members_view: authenticated holds DELETE',
    'held_in_vain.members_view: authenticated holds SELECT',
    'held_in_vain.members_view: authenticated holds UPDATE',
  ]);
  expect(await privilegesHeldInVain(client(), [])).toEqual(new Set());
});
