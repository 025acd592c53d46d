/**
 * loadSchemaCache's reading of the project: whether anything of its own reads session_user (then
 * requests log in as authenticator, as PostgREST does). Only the project's functions, policies,
 * views and defaults count, never the system's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEnvironment, type Environment } from '../runner/environment.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { loadSchemaCache } from './schema-cache.ts';

let env: Environment;

beforeAll(async () => {
  const sql = `create table public.notes (id int primary key, body text);`;
  env = await openEnvironment({ server: await sharedServer(), migrations: [{ name: '0001.sql', path: '0001.sql', sql }], workers: 1 });
});
afterAll(async () => {
  await env?.close();
});

describe('a project that reads session_user', () => {
  const sessionUserOf = async () => (await loadSchemaCache(env.workers[0].client, ['public'])).apiSessionUser;

  it('nothing of the project reads it: requests keep the connection\'s login (the system\'s own views and functions do not count)', async () => {
    expect(env.cache.apiSessionUser).toBeUndefined();
    expect(await sessionUserOf()).toBeUndefined();
  });

  it.each([
    ['a view', `create view public.who as select session_user as u`],
    ['a function', `create function public.who() returns text language sql as $$ select session_user::text $$`],
    ['a policy', `create policy who on public.notes using (session_user = 'authenticator')`],
    ['a column default', `alter table public.notes alter column body set default session_user`],
  ])('%s reading it: requests log in as authenticator', async (_what, ddl) => {
    const c = env.workers[0].client;
    await c.query('begin');
    try {
      await c.query(ddl);
      expect(await sessionUserOf()).toBe('authenticator');
    } finally {
      await c.query('rollback');
    }
  });
});

describe('whether a request can defer a constraint', () => {
  const noDeferrableOf = async () => (await loadSchemaCache(env.workers[0].client, ['public'])).noDeferrableConstraints;

  it('no constraint is DEFERRABLE: a write ends without SET CONSTRAINTS ALL IMMEDIATE (it would do nothing)', async () => {
    expect(env.cache.noDeferrableConstraints).toBe(true);
    expect(await noDeferrableOf()).toBe(true);
  });

  it.each([
    ['an initially deferred foreign key', `create table public.kids (id int primary key, note int references public.notes(id) deferrable initially deferred)`],
    // Deferred only when a function says so (SET CONSTRAINTS … DEFERRED): still the end of the request's to fire.
    ['an initially immediate unique key', `alter table public.notes add constraint notes_body_key unique (body) deferrable initially immediate`],
    ['a constraint trigger in a schema the API does not expose', `create schema hidden; create table hidden.t (id int); create function hidden.f() returns trigger language plpgsql as $$ begin return null; end $$; create constraint trigger t_check after insert on hidden.t deferrable for each row execute function hidden.f()`],
  ])('%s: every write ends with it', async (_what, ddl) => {
    const c = env.workers[0].client;
    await c.query('begin');
    try {
      await c.query(ddl);
      expect(await noDeferrableOf()).toBeUndefined();
    } finally {
      await c.query('rollback');
    }
  });
});
