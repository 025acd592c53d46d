import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { appSettingsNote, appSettingsReadByPolicies, requestHeadersNote, settingsNotSetByHook } from './app-settings.ts';
import { sharedServer } from '../../testing/shared-server.ts';

describe('app settings the policies read and the db-pre-request hook does not set', () => {
  const policies = [
    { at: 'notes.own', expr: "(owner_id = (current_setting('app.user', true))::uuid)" },
    { at: 'notes.team', expr: "(team = current_setting('app.team', true)) AND (current_setting('request.jwt.claims', true) IS NOT NULL)" },
  ];

  it("a setting the hook names whole is set; one only inside a longer name (app.user in app.user_id, in myapp.user) is not", () => {
    const hook = "begin perform set_config('app.user_id', auth.uid()::text, true); perform set_config('myapp.user', 'x', true); perform set_config('app.team', 'a', true); end";
    expect(settingsNotSetByHook(policies, hook)).toEqual([{ setting: 'app.user', policies: ['notes.own'] }]);
    expect(settingsNotSetByHook(policies, "perform set_config('app.user', auth.uid()::text, true); perform set_config('app.team', 'a', true);")).toEqual([]);
  });

  it('no hook: every app setting read, none PostgREST sets per request', () => {
    expect(settingsNotSetByHook(policies, '')).toEqual([
      { setting: 'app.user', policies: ['notes.own'] },
      { setting: 'app.team', policies: ['notes.team'] },
    ]);
  });

  it("a request header a policy reads (as pg_get_expr prints it, feedbase's lumkey) is named apart, as a header, never as an app setting nobody sets", () => {
    const reads = settingsNotSetByHook([{ at: 'changelogs.api_key', expr: "public.is_allowed_api_token(((current_setting('request.headers'::text, true))::json ->> 'LumKey'::text), '{full_access}'::text[])" }], '');
    expect(reads).toEqual([{ setting: 'lumkey', policies: ['changelogs.api_key'], header: true }]);
    expect(appSettingsNote(reads)).toBeUndefined();
    expect(requestHeadersNote(reads)).toContain("requestHeaderOf(ctx.caller, 'lumkey')");
    expect(requestHeadersNote(settingsNotSetByHook([{ at: 'notes.own', expr: "(owner_id = (current_setting('app.user', true))::uuid)" }], ''))).toBeUndefined();
  });
});

describe('the db-pre-request hook read for a database (real Postgres)', () => {
  it("is the authenticator's setting for that database or every database, never another database's (another project on the server)", async () => {
    const server = await sharedServer();
    const id = randomBytes(4).toString('hex');
    const [mine, theirs] = [`pf_t_hook_mine_${id}`, `pf_t_hook_theirs_${id}`];
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    // PostgREST's login role, as on Supabase (the compatibility layer makes it; this server may be fresh).
    await admin.query(`do $$ begin create role authenticator noinherit login; exception when duplicate_object then null; end $$`);
    const connect = async (database: string) => {
      const url = new URL(server.adminUrl);
      url.pathname = `/${database}`;
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      return c;
    };
    // Both projects have a function of the same name that sets app.user; only theirs is the hook.
    const schema = `create table notes (owner text);
      alter table notes enable row level security;
      create policy own on notes using (owner = current_setting('app.user', true));
      create function public.pre_request() returns void language plpgsql as $$ begin perform set_config('app.user', 'x', true); end $$;`;
    await admin.query(`create database ${mine}`);
    await admin.query(`create database ${theirs}`);
    const c = await connect(mine);
    try {
      await c.query(schema);
      await admin.query(`alter role authenticator in database ${theirs} set pgrst.db_pre_request = 'public.pre_request'`);
      expect(await appSettingsReadByPolicies(c)).toEqual([{ setting: 'app.user', policies: ['notes.own'] }]);
      await admin.query(`alter role authenticator in database ${mine} set pgrst.db_pre_request = 'public.pre_request'`);
      expect(await appSettingsReadByPolicies(c)).toEqual([]);
    } finally {
      await c.end();
      await admin.query(`drop database if exists ${mine} with (force)`);
      await admin.query(`drop database if exists ${theirs} with (force)`);
      await admin.end();
    }
  });
});
