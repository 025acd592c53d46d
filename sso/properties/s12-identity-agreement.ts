import fc from 'fast-check';
import { ProfileResponseSchema, StatusResponseSchema, profileOf, tokenResultOf } from '../model/schemas.ts';
import { bodyOf } from '../client/client.ts';
import { expectThat, freshLogin, freshToken, goodTokenRequest, pickClient, pickUser, runFcProperty, sameJson, type SsoProperty } from './kit.ts';

/**
 * Identity agrees across auth.token, user.profile (`firstname` vs `firstName`) and auth.status;
 * immutableId is stable across logins and distinct across users; identity fields smuggled into
 * the body or query are ignored.
 */
export const S12: SsoProperty = {
  id: 'S12',
  title: 'Identity agrees across auth.token, user.profile and auth.status; smuggled identity fields are ignored',
  severity: 'M',
  needsTokenResult: true,
  run: (ctx, opts) =>
    runFcProperty(
      S12,
      opts,
      fc.record({ client: pickClient(ctx), second: pickClient(ctx), user: pickUser(ctx), other: pickUser(ctx), smuggleIn: fc.constantFrom('body', 'query') }),
      async ({ client, second, user, other, smuggleIn }, counts) => {
        const { browser, token } = await freshToken(ctx, client, user);
        const auth = [`Bearer ${token}`];
        // auth.token's identity fields: the user's, exactly.
        const { code } = await freshLogin(ctx, second, user);
        const { parsed } = await ctx.client.exchange(goodTokenRequest(second, code));
        const expectedToken = tokenResultOf(user, (parsed as { accessToken?: string } | null)?.accessToken ?? '<token>');
        expectThat(sameJson(parsed, expectedToken), `auth.token must return ${user.username}'s identity`, expectedToken, parsed);

        const prof = await ctx.client.profile(auth);
        const p = ProfileResponseSchema.safeParse(bodyOf(prof));
        expectThat(prof.status === 200 && p.success, 'user.profile must answer 200 with a valid profile', { status: 200, body: { ok: true, profile: profileOf(user) } }, { status: prof.status, body: bodyOf(prof) });
        expectThat(sameJson(p.data!.profile, profileOf(user)), `user.profile must describe ${user.username} (email, citizenId, firstname, lastname as the token's unless the config's profile gives them)`, profileOf(user), p.data!.profile);

        const st = await ctx.client.status(auth);
        const s = StatusResponseSchema.safeParse(bodyOf(st));
        expectThat(st.status === 200 && s.success, 'auth.status must answer 200 with a valid session', { status: 200 }, { status: st.status, body: bodyOf(st) });
        expectThat(s.data!.user.email === user.email && s.data!.user.role === user.role, `auth.status must describe ${user.username}`, { email: user.email, role: user.role }, s.data!.user);

        // Smuggled identity of another user changes nothing.
        const decoy = { email: other.email, immutableId: other.immutableId, citizenId: other.citizenId, userId: other.profile.userId, sessionId: 'forged-session', username: other.username };
        const extra = smuggleIn === 'body' ? { body: JSON.stringify(decoy) } : { query: new URLSearchParams(decoy).toString() };
        const prof2 = await ctx.client.profile(auth, extra);
        const st2 = await ctx.client.status(auth, extra);
        expectThat(prof2.status === prof.status && sameJson(bodyOf(prof2), bodyOf(prof)), `user.profile must ignore identity fields in the ${smuggleIn}`, bodyOf(prof), bodyOf(prof2));
        expectThat(st2.status === st.status && sameJson(bodyOf(st2), bodyOf(st)), `auth.status must ignore identity fields in the ${smuggleIn}`, bodyOf(st), bodyOf(st2));

        // immutableId: distinct across users.
        if (other.username !== user.username) {
          const o = await freshToken(ctx, client, other);
          const op = ProfileResponseSchema.safeParse(bodyOf(await ctx.client.profile([`Bearer ${o.token}`])));
          expectThat(op.success && op.data.profile.email === profileOf(other).email, `a token of ${other.username} must not show ${user.username}'s profile`, profileOf(other).email, op.success ? op.data.profile.email : op.error.message);
          counts.add('two-users');
        } else counts.add('one-user');
        void browser;
      },
    ),
};
