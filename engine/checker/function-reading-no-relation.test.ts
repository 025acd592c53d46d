/**
 * Rule 15's catalog half on functions the model does not know that read no relation (stranger-app-11:
 * a nanoid id generator its column defaults call, executable by anon and authenticated as Supabase
 * grants every new function). Before, each was a finding ("reads no caller: anyone holding EXECUTE
 * may ask it about another person"): such a body has nothing about anyone to answer. One reading a
 * table, calling a project function that does, or running dynamic SQL is still a finding.
 */
import { describe, expect, it } from 'vitest';
import { schemaInTransaction } from '../../testing/schema-in-transaction.ts';
import { compareFunctions, FUNCTION_READING_NO_RELATION, readCatalogFunctions } from './catalog.ts';

const SCHEMA = `
do $$ begin create role anon nologin; exception when duplicate_object then null; end $$;
do $$ begin create role authenticated nologin; exception when duplicate_object then null; end $$;
do $$ begin create role service_role nologin; exception when duplicate_object then null; end $$;
create schema s11;
create table s11.people (id bigint primary key, email text);
create function s11.nanoid(size integer default 21) returns text language plpgsql volatile as $$
declare id text := '';
begin
  while length(id) < size loop id := id || substr('abcdefghijklmnopqrstuvwxyz', 1 + floor(random() * 26)::int, 1); end loop;
  return id;
end $$;
create function s11.email_of(p_id bigint) returns text language sql stable security definer as $$ select email from s11.people where id = p_id $$;
create function s11.email_through(p_id bigint) returns text language sql stable as $$ select s11.email_of(p_id) $$;
create function s11.run(p text) returns void language plpgsql as $$ begin execute p; end $$;
create schema s11_hidden;
create function s11_hidden.email_of(p_id bigint) returns text language sql stable security definer as $$ select email from s11.people where id = p_id $$;
create function s11.email_elsewhere(p_id bigint) returns text language sql stable as $$ select s11_hidden.email_of(p_id) $$;
create function s11.email_atomic(p_id bigint) returns text language sql stable begin atomic select email from s11.people where id = p_id; end;
create table s11.items (id text primary key default s11.nanoid());
grant execute on all functions in schema s11 to anon, authenticated, service_role;
`;

describe('a function the model does not know that reads no relation (R15:catalog)', () => {
  const client = schemaInTransaction(SCHEMA);
  it('is the named secure reading; one reading a table, through another function, or by dynamic SQL is still a finding', async () => {
    const found = await readCatalogFunctions(client(), ['s11']);
    expect(found.find((f) => f.name === 's11.nanoid')?.readsNoRelation).toBe(true);
    // Through a function in a schema rule 15 does not read, or in a body held as a parse tree: read.
    expect(found.find((f) => f.name === 's11.email_elsewhere')?.readsNoRelation).toBeUndefined();
    expect(found.find((f) => f.name === 's11.email_atomic')?.readsNoRelation).toBeUndefined();
    const callers = { calledBy: new Map([['s11.nanoid(size integer)', ['default value for column id of table s11.items']]]), exposedSchemas: ['s11'] };
    const result = compareFunctions(found, new Map(), callers);
    expect(result.readings?.[FUNCTION_READING_NO_RELATION]).toEqual(['s11.nanoid(size integer)']);
    expect(result.findings.map((f) => f.split(':')[0]).sort()).toEqual(['s11.email_atomic(p_id bigint)', 's11.email_elsewhere(p_id bigint)', 's11.email_of(p_id bigint)', 's11.email_through(p_id bigint)', 's11.run(p text)']);
  });
});
