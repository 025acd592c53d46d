/**
 * A default drawn at random through the project's own generator (stranger-app-11: `public_ref text
 * default nanoid(16)`): init proposes the handle as drawn by the target (vs.publicHandle.from:
 * random), as it did for `gen_random_uuid()`. Before, only a random call written in the default
 * itself counted, and the model computed the handle as a formula over the id.
 */
import { describe, expect, it } from 'vitest';
import { schemaInTransaction } from '../../testing/schema-in-transaction.ts';
import { defaultDrawsAtRandom } from './random-default.ts';

const SCHEMA = `
create schema s11r;
create function s11r.nanoid(size integer default 21) returns text language plpgsql volatile as $$
declare id text := '';
begin
  while length(id) < size loop id := id || substr('abcdefghijklmnopqrstuvwxyz', 1 + floor(random() * 26)::int, 1); end loop;
  return id;
end $$;
create function s11r.slug(p text) returns text language sql immutable as $$ select lower(regexp_replace(p, '\\W+', '-', 'g')) $$;
`;

describe('a column default drawn at random', () => {
  const client = schemaInTransaction(SCHEMA);
  it('through a generator function of the project, qualified or not', async () => {
    expect(await defaultDrawsAtRandom(client(), 'nanoid(16)')).toBe(true);
    expect(await defaultDrawsAtRandom(client(), 's11r.nanoid(16)')).toBe(true);
    expect(await defaultDrawsAtRandom(client(), 'gen_random_uuid()')).toBe(true);
  });
  it('not a formula over the row, nor a function that draws nothing', async () => {
    expect(await defaultDrawsAtRandom(client(), "('pub-'::text || substr(md5((id)::text), 1, 16))")).toBe(false);
    expect(await defaultDrawsAtRandom(client(), "s11r.slug('A b')")).toBe(false);
    expect(await defaultDrawsAtRandom(client(), "'x'::text")).toBe(false);
  });
});
