/**
 * `request.headers` as supabase-js 2.49 (postgrest-js 1.19) sends them, read by a function on
 * Postgres (PostgREST v12.2 sets every header: ApiRequest.hs 160, Query.hs 294):
 * - a GET (a read, `.rpc(fn, args, { get: true })`) carries no `content-type` and names a schema
 *   with `accept-profile`; every other method `content-type: application/json` and
 *   `content-profile` (postgrest-js PostgrestBuilder.ts `then`);
 * - a write's `prefer` is what its builder joined: empty for a plain insert, update or delete
 *   (return=minimal is PostgREST's default, never spelled out), `resolution=…` for an upsert,
 *   `return=representation` once `.select()` asks for the rows (PostgrestQueryBuilder.ts,
 *   PostgrestTransformBuilder.ts select).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import type { Environment } from '../runner/environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';
import { credentialTexts } from './credentials.ts';

const alice: Caller = { kind: 'user', id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' };

const SCHEMA = `
create function public.sent_headers() returns json language sql stable as $$ select current_setting('request.headers', true)::json $$;
grant execute on function public.sent_headers() to authenticated;
-- A row remembers the Prefer header of the request that wrote it.
create table public.marks (id int primary key, prefer text default current_setting('request.headers', true)::json ->> 'prefer');
grant select, insert, update on public.marks to authenticated;
`;

let env: Environment;
beforeAll(async () => {
  env = await sqlEnvironment('client-headers', SCHEMA);
});
afterAll(() => env?.close());

describe('request.headers as supabase-js sends them', () => {
  it('a GET rpc carries no content-type; a POST rpc carries application/json', async () => {
    const call = (get: boolean): ApiRequest => ({ kind: 'rpc', fn: 'sent_headers', args: {}, get });
    const [get, post] = await runCase(env, [], [{ caller: alice, request: call(true) }, { caller: alice, request: call(false) }]);
    expect((get.body as Record<string, string>)['content-type']).toBeUndefined();
    expect((post.body as Record<string, string>)['content-type']).toBe('application/json');
  });

  it("names a schema with accept-profile for a GET, content-profile otherwise", () => {
    const headers = (request: ApiRequest) => JSON.parse(credentialTexts(alice, {}, request).headers) as Record<string, string>;
    expect(headers({ kind: 'rpc', fn: 'f', schema: 'api', args: {}, get: true })).toMatchObject({ 'accept-profile': 'api' });
    expect(headers({ kind: 'rpc', fn: 'f', schema: 'api', args: {}, get: true })['content-profile']).toBeUndefined();
    expect(headers({ kind: 'rpc', fn: 'f', schema: 'api', args: {} })).toMatchObject({ 'content-profile': 'api', 'content-type': 'application/json' });
  });

  it("a write's prefer: empty when plain, resolution=… for an upsert, return=representation read back; max-affected with handling=strict", async () => {
    const insert = (id: number, more: Partial<Extract<ApiRequest, { kind: 'insert' }>> = {}): ApiRequest => ({ kind: 'insert', table: 'marks', rows: [{ id }], returning: 'minimal', ...more });
    const [, , , read] = await runCase(env, [], [
      { caller: alice, request: insert(1) },
      { caller: alice, request: insert(2, { upsert: { resolution: 'merge-duplicates' } }) },
      { caller: alice, request: insert(3, { upsert: { resolution: 'ignore-duplicates' }, returning: 'representation' }) },
      { caller: alice, request: { kind: 'select', table: 'marks', columns: '*', filters: [], order: [{ column: 'id' }] } },
    ]);
    expect(read.body).toEqual([
      { id: 1, prefer: '' },
      { id: 2, prefer: 'resolution=merge-duplicates' },
      { id: 3, prefer: 'resolution=ignore-duplicates,return=representation' },
    ]);
    const patch: ApiRequest = { kind: 'update', table: 'marks', patch: { id: 4 }, filters: [{ column: 'id', op: 'eq', value: 1 }], returning: 'minimal', maxAffected: 1 };
    expect(JSON.parse(credentialTexts(alice, {}, patch).headers).prefer).toBe('handling=strict,max-affected=1');
  });
});
