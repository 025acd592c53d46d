/**
 * State that outlives a request: PostgREST v12.2 hands a pooled connection to the next request as
 * it is (src/PostgREST/AppState.hs usePool over hasql-pool 1.0; no DISCARD or RESET anywhere in
 * src/), so a session-level setting a function leaves set is seen by later requests of anyone.
 * The fault: a definer function that raises a trust flag with set_config(…, false) and a guard
 * that skips while it is set. Caught after the request that leaves it; the clean reference and
 * the examples get no probe at all.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import type { HistoryEntry } from '../checker/history-entry.ts';
import { nothingLeftBehind } from '../checker/history.ts';
import { loadMigrationFolder } from '../db/migrations.ts';
import type { Environment } from '../runner/environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';
import { BUNDLED_MIGRATIONS } from '../../cli/paths.ts';
import { sessionStateWatch, sessionWrites } from './session-state.ts';

const ALICE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const alice: Caller = { kind: 'user', id: ALICE };

const FAULT = `
create table public.docs (id int primary key, locked boolean not null default false, body text);
grant select, insert, update on public.docs to authenticated;
create function public.docs_guard() returns trigger language plpgsql as $$
begin
  if coalesce(current_setting('app.pf_trusted', true), '') <> 'on' and old.locked then raise exception 'locked'; end if;
  return new;
end $$;
create trigger docs_guard before update on public.docs for each row execute function public.docs_guard();
-- The fault: the flag is raised at session level and never lowered.
create function public.unlock_doc(p_id int) returns void language plpgsql security definer as $$
begin
  perform set_config('app.pf_trusted', 'on', false);
  update public.docs set body = 'unlocked' where id = p_id;
end $$;
-- Not faults: a transaction-local flag left set; a session-level flag lowered again before the end.
create function public.local_flag() returns void language sql as $$ select set_config('app.pf_local', 'on', true) $$;
create function public.lowered_flag() returns void language plpgsql as $$
begin
  perform set_config('app.pf_lowered', 'on', false);
  perform set_config('app.pf_lowered', '', false);
end $$;
-- A read leaves it too: PostgREST commits a GET's (read-only) transaction.
create function public.stable_flag() returns int language plpgsql stable as $$
begin
  perform set_config('app.pf_read', 'on', false);
  return 1;
end $$;
create function public.prepare_one() returns void language plpgsql as $$ begin execute 'prepare leftover as select 1'; end $$;
`;

let env: Environment;
beforeAll(async () => {
  env = await sqlEnvironment('session-state', FAULT);
});
afterAll(() => env?.close());

const FIXTURES = [{ table: 'docs', row: {}, sql: `insert into public.docs values (1, true, 'x')` }];
const rpc = (fn: string, args = {}): ApiRequest => ({ kind: 'rpc', fn, args });

const run = (...requests: ApiRequest[]) => runCase(env, FIXTURES, requests.map((request) => ({ caller: alice, request })));

describe('which function bodies can leave a setting behind (read from the catalog)', () => {
  it('set_config(…, false) and a SET statement, not set_config(…, true), SET LOCAL, an UPDATE’s SET, or PostgREST’s own settings', () => {
    expect(sessionWrites(`perform set_config('app.x', 'on', false); perform set_config('app.y', concat('a', 'b'), true);`).settings).toEqual(['app.x']);
    expect(sessionWrites(`begin set app.z = 'on'; set local app.w = 'on'; update t set x = 1; end`).settings).toEqual(['app.z']);
    expect(sessionWrites(`select set_config('search_path', 'x', false), set_config('request.jwt.claims', '{}', false)`).settings).toEqual([]);
    expect(sessionWrites(`create temp table scratch (n int) on commit drop`)).toMatchObject({ tempTables: true, droppedAtCommit: ['scratch'] });
  });
});

describe('a request that leaves session state on the pooled connection', () => {
  it('the session-level trust flag is reported after the request that raised it, naming the function; the checker fails the step', async () => {
    const [unlock, after] = await run(rpc('unlock_doc', { p_id: 1 }), { kind: 'select', table: 'docs', columns: '*', filters: [] });
    expect(unlock.status).toBe(204);
    expect(unlock.leftBehind).toEqual([`setting app.pf_trusted = 'on' (written at session level by public.unlock_doc)`]);
    // The harness still ends the request's settings: the next request starts clean.
    expect(after.leftBehind).toBeUndefined();
    const reason = nothingLeftBehind.check({ response: unlock } as HistoryEntry, []);
    expect(reason).toMatch(/left setting app\.pf_trusted = 'on'.*public\.unlock_doc.*next request/);
  });

  it('a read leaves it too (PostgREST commits a GET), and so does a statement PREPAREd in SQL', async () => {
    const [read, prepared] = await run(rpc('stable_flag'), rpc('prepare_one'));
    expect(read.leftBehind).toEqual([`setting app.pf_read = 'on' (written at session level by public.stable_flag)`]);
    expect(prepared.leftBehind).toEqual(['prepared statement leftover']);
    await env.workers[0].client.query('deallocate leftover');
  });

  it('a transaction-local flag, or a session flag lowered again, is not reported', async () => {
    const answers = await run(rpc('local_flag'), rpc('lowered_flag'));
    expect(answers.map((a) => a.leftBehind)).toEqual([undefined, undefined]);
  });
});

describe('the clean reference and the examples', () => {
  it('have no function that can leave anything, so no probe is sent (their migrations read as one body: a superset of their functions’ bodies)', () => {
    const dirs = [BUNDLED_MIGRATIONS, ...['campus-shop', 'notes-app', 'student-union'].map((e) => path.join('examples', e, 'supabase', 'migrations'))];
    for (const dir of dirs) {
      const files = loadMigrationFolder(dir);
      expect(files.length, dir).toBeGreaterThan(0);
      expect(sessionStateWatch(files.map((f) => ({ name: f.name, src: f.sql }))), dir).toBeUndefined();
    }
  });
});
