import { describe, it, expect } from 'vitest';
import { defaultSsoSettings, type SsoSettings } from './settings.ts';
import { initialSsoState, type SsoState } from './state.ts';
import { advanceClock, exchange, login, logout, profile, status, NOT_A_FRESH_CODE, NOT_A_FRESH_TOKEN, type FrontAnswer } from './transitions.ts';
import { TOKEN_FAILURE } from './schemas.ts';
import { fixtureClients, fixtureUsers } from './test-fixtures.ts';

const [alpha, beta] = fixtureClients;
const [u1] = fixtureUsers;
const CODE1 = '11111111-1111-4111-8111-111111111111';
const CODE2 = '22222222-2222-4222-8222-222222222222';
const start = (settings: Partial<SsoSettings> = {}) =>
  initialSsoState({ settings: { ...defaultSsoSettings, ...settings }, clients: fixtureClients, users: fixtureUsers, nowMs: 1_000_000 });

const creds = { username: u1!.username, password: u1!.password };
const loginAlpha = (s: SsoState, code = CODE1) => login(s, { browser: 'b1', query: [['app', alpha!.appId]], credentials: creds }, code);
const tokenReq = (body: object) => ({ method: 'POST', contentType: 'application/json', body: JSON.stringify(body) });
const goodBody = (code = CODE1) => ({ code, redirectUrl: alpha!.redirectUrl, clientId: alpha!.clientId, clientSecret: alpha!.clientSecret });
const bearer = (t: string) => [`Bearer ${t}`];

function loggedInWithToken(settings: Partial<SsoSettings> = {}) {
  const a = loginAlpha(start(settings));
  const b = exchange(a.state, tokenReq(goodBody()), 'tok-1');
  return b.state;
}

describe('login', () => {
  it('redirects to the registered URL with the code', () => {
    const { answer, state } = loginAlpha(start());
    expect(answer).toEqual<FrontAnswer>({ kind: 'redirect', status: 302, location: `${alpha!.redirectUrl}?code=${CODE1}` });
    expect(state.codes[CODE1]?.status).toBe('fresh');
  });
  it('keeps an existing query of the registered URL', () => {
    const { answer } = login(start(), { browser: 'b', query: [['app', beta!.appId]], credentials: creds }, CODE1);
    expect(answer).toMatchObject({ location: `https://beta.example:8443/cb?tenant=1&code=${CODE1}` });
  });
  it('shows the form without a session, and logs in silently with one', () => {
    const s0 = start();
    expect(login(s0, { browser: 'b1', query: [['app', alpha!.appId]] }, null).answer).toEqual({ kind: 'page', status: 200, page: 'login-form' });
    const s1 = loginAlpha(s0).state;
    const silent = login(s1, { browser: 'b1', query: [['app', beta!.appId]] }, CODE2);
    expect(silent.answer).toMatchObject({ kind: 'redirect', location: `https://beta.example:8443/cb?tenant=1&code=${CODE2}` });
    expect(login(s1, { browser: 'other', query: [['app', alpha!.appId]] }, null).answer).toMatchObject({ page: 'login-form' });
  });
  it('refuses bad apps and bad credentials without issuing a code', () => {
    const s0 = start();
    expect(login(s0, { browser: 'b', query: [['app', 'APP-ALPHA']], credentials: creds }, CODE1)).toEqual({ state: s0, answer: { kind: 'page', status: 400, page: 'bad-request' } });
    expect(login(s0, { browser: 'b', query: [['app', alpha!.appId]], credentials: { ...creds, password: 'x' } }, CODE1).answer).toMatchObject({ status: 401 });
  });
  it('predicts a placeholder when the observed code is not fresh or not uuid-shaped', () => {
    const s1 = loginAlpha(start()).state;
    expect(loginAlpha(s1, CODE1).answer).toMatchObject({ location: `${alpha!.redirectUrl}?code=${encodeURIComponent(NOT_A_FRESH_CODE)}` });
    expect(loginAlpha(start(), 'abc').answer).toMatchObject({ location: expect.stringContaining(encodeURIComponent(NOT_A_FRESH_CODE)) });
  });
  it('uses the configured redirect status', () => {
    expect(loginAlpha(start({ loginRedirectStatus: 303 })).answer).toMatchObject({ status: 303 });
  });
});

describe('exchange', () => {
  it('succeeds once with the token result of the user', () => {
    const s1 = loginAlpha(start()).state;
    const ok = exchange(s1, tokenReq(goodBody()), 'tok-1');
    expect(ok.answer).toEqual({ status: 200, body: { ok: true, accessToken: 'tok-1', email: u1!.email, immutableId: u1!.immutableId, citizenId: u1!.citizenId, firstName: u1!.firstName, lastName: u1!.lastName, employeeId: u1!.employeeId } });
    const again = exchange(ok.state, tokenReq(goodBody()), 'tok-2');
    expect(again.answer).toEqual({ status: 200, body: TOKEN_FAILURE });
  });
  it('revokes the first token on replay only when the setting says so', () => {
    for (const replayRevokesToken of [true, false]) {
      const s = loggedInWithToken({ replayRevokesToken });
      const replayed = exchange(s, tokenReq(goodBody()), null).state;
      expect(profile(replayed, bearer('tok-1')).answer.status).toBe(replayRevokesToken ? 401 : 200);
    }
  });
  it('fails for another client, wrong secret, or a near-miss URL; the code is burned when the setting says so', () => {
    const variants = [
      { ...goodBody(), clientId: beta!.clientId, clientSecret: beta!.clientSecret },
      { ...goodBody(), clientSecret: alpha!.clientSecret.toUpperCase() },
      { ...goodBody(), redirectUrl: alpha!.redirectUrl + '/' },
      { ...goodBody(), redirectUrl: beta!.redirectUrl },
    ];
    for (const failedExchangeConsumesCode of [true, false]) {
      for (const v of variants) {
        const s1 = loginAlpha(start({ failedExchangeConsumesCode })).state;
        const bad = exchange(s1, tokenReq(v), 'tok-x');
        expect(bad.answer.body).toEqual(TOKEN_FAILURE);
        const after = exchange(bad.state, tokenReq(goodBody()), 'tok-y');
        expect((after.answer.body as { ok: boolean }).ok).toBe(!failedExchangeConsumesCode);
      }
    }
  });
  it('fails once the code lifetime has passed', () => {
    const s1 = loginAlpha(start()).state;
    expect((exchange(advanceClock(s1, 59_999), tokenReq(goodBody()), 't').answer.body as { ok: boolean }).ok).toBe(true);
    expect(exchange(advanceClock(s1, 60_000), tokenReq(goodBody()), 't').answer.body).toEqual(TOKEN_FAILURE);
  });
  it('answers the uniform failure to every malformed request', () => {
    const s1 = loginAlpha(start()).state;
    const good = JSON.stringify(goodBody());
    const bad = [
      { method: 'GET', contentType: 'application/json', body: good },
      { method: 'POST', contentType: 'text/plain', body: good },
      { method: 'POST', contentType: null, body: good },
      { method: 'POST', contentType: 'application/json', body: good.slice(0, -1) },
      { method: 'POST', contentType: 'application/json', body: JSON.stringify({ ...goodBody(), extra: 'x' }) },
      { method: 'POST', contentType: 'application/json', body: JSON.stringify({ ...goodBody(), code: 1 }) },
      { method: 'POST', contentType: 'application/json', body: good.replace('{', `{"code":"${CODE2}",`) },
      { method: 'POST', contentType: 'application/json', body: good.replace('{', '{"__proto__":{},') },
      { method: 'POST', contentType: 'application/json', body: JSON.stringify({ ...goodBody(), clientSecret: 'x'.repeat(20000) }) },
    ];
    for (const req of bad) {
      const r = exchange(s1, req, 'tok');
      expect(r.answer, JSON.stringify(req).slice(0, 80)).toEqual({ status: 200, body: TOKEN_FAILURE });
      expect(r.state).toBe(s1);
    }
  });
  it('refuses a token value it has already seen', () => {
    const s = loggedInWithToken();
    const s2 = login(s, { browser: 'b1', query: [['app', alpha!.appId]] }, CODE2).state;
    expect(exchange(s2, tokenReq(goodBody(CODE2)), 'tok-1').answer.body).toMatchObject({ accessToken: NOT_A_FRESH_TOKEN });
  });
});

describe('bearer endpoints', () => {
  it('answer the profile and status of the token owner', () => {
    const s = loggedInWithToken();
    expect(profile(s, bearer('tok-1')).answer).toEqual({ status: 200, body: { ok: true, profile: { email: u1!.email, citizenId: u1!.citizenId, firstname: u1!.firstName, lastname: u1!.lastName, ...u1!.profile } } });
    const st = status(s, bearer('tok-1'), 'sess-A');
    expect(st.answer).toEqual({ status: 200, body: { ok: true, user: { sessionId: 'sess-A', email: u1!.email, role: u1!.role } } });
    expect(status(st.state, bearer('tok-1'), 'sess-B').answer.body).toMatchObject({ user: { sessionId: 'sess-A' } });
  });
  it('answer 401 to unknown, malformed, expired and logged-out tokens', () => {
    const s = loggedInWithToken();
    expect(profile(s, bearer('tok-2')).answer.status).toBe(401);
    expect(profile(s, ['Basic tok-1']).answer.status).toBe(401);
    expect(profile(s, []).answer.status).toBe(401);
    expect(status(advanceClock(s, 3600_000), bearer('tok-1'), 'x').answer.status).toBe(401);
    expect(status(advanceClock(s, 3599_999), bearer('tok-1'), 'x').answer.status).toBe(200);
    const out = logout(s, { browser: 'b1', query: [['app', alpha!.appId]] });
    expect(out.answer).toEqual({ kind: 'redirect', status: 302, location: alpha!.logoutUrl });
    expect(profile(out.state, bearer('tok-1')).answer.status).toBe(401);
    const kept = logout(loggedInWithToken({ logoutRevokesTokens: false }), { browser: 'b1', query: [['app', alpha!.appId]] });
    expect(profile(kept.state, bearer('tok-1')).answer.status).toBe(200);
  });
});

describe('logout', () => {
  it('ends the session so the next login must authenticate', () => {
    const s = loggedInWithToken();
    const out = logout(s, { browser: 'b1', query: [['app', beta!.appId], ['redirect', 'https://evil.example']] });
    expect(out.answer).toEqual({ kind: 'redirect', status: 302, location: beta!.logoutUrl });
    expect(login(out.state, { browser: 'b1', query: [['app', alpha!.appId]] }, CODE2).answer).toMatchObject({ kind: 'page', page: 'login-form' });
  });
  it('with a bad app changes nothing', () => {
    const s = loggedInWithToken();
    expect(logout(s, { browser: 'b1', query: [['app', 'nope']] })).toEqual({ state: s, answer: { kind: 'page', status: 400, page: 'bad-request' } });
  });
});

describe('clock', () => {
  it('only moves forward', () => {
    expect(() => advanceClock(start(), -1)).toThrow(/forward/);
    expect(advanceClock(start(), 5).nowMs).toBe(1_000_005);
  });
  it('expires sessions for silent login', () => {
    const s = advanceClock(loginAlpha(start()).state, 8 * 3600_000);
    expect(login(s, { browser: 'b1', query: [['app', alpha!.appId]] }, CODE2).answer).toMatchObject({ page: 'login-form' });
  });
});
