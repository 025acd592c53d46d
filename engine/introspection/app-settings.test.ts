import { describe, expect, it } from 'vitest';
import { appSettingsNote, requestHeadersNote, settingsNotSetByHook } from './app-settings.ts';

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
