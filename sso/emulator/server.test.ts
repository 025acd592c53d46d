import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { parseSsoConfig } from '../config.ts';
import example from '../examples/sso.config.json' with { type: 'json' };
import { startEmulator, type RunningEmulator } from './server.ts';
import { PacedHttp, type HttpReply } from '../client/http.ts';
import { SsoClient } from '../client/client.ts';
import { FormPostDriver } from '../client/form-driver.ts';
import { TOKEN_FAILURE, UUID_SHAPE } from '../model/schemas.ts';

const config = parseSsoConfig(example);
const [intranet, library] = config.clients;
const [somchai] = config.users;
let emu: RunningEmulator;
let http: PacedHttp;
let client: SsoClient;
let driver: FormPostDriver;
let startupMs = 0;

beforeAll(async () => {
  const t = performance.now();
  emu = await startEmulator({ config });
  startupMs = performance.now() - t;
});
afterAll(async () => emu.close());
beforeEach(async () => {
  http = new PacedHttp();
  client = new SsoClient(emu.apiUrl, http);
  driver = new FormPostDriver(emu.webUrl, http);
  await client.reset();
});

async function loginCode(browser = 'b1', app = intranet!): Promise<string> {
  const seen = await driver.login(browser, [['app', app.appId]], { username: somchai!.username, password: somchai!.password });
  expect(seen.kind).toBe('redirect');
  return new URL((seen as { location: string }).location).searchParams.get('code')!;
}
const good = (code: string) => ({ code, redirectUrl: intranet!.redirectUrl, clientId: intranet!.clientId, clientSecret: intranet!.clientSecret });

describe('SSO emulator', () => {
  it('starts in well under a second, on loopback', () => {
    expect(startupMs).toBeLessThan(500);
    expect(emu.webUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emu.apiUrl).toBe(`${emu.webUrl}/api`);
  });

  it('serves a login page with preset users, a form and anti-framing headers', async () => {
    const r = await http.send({ method: 'GET', url: `${emu.webUrl}/login?app=${intranet!.appId}&next=x` });
    expect(r.status).toBe(200);
    expect(r.text).toContain('<form id="login" method="post" action="/login?app=intranet-portal&amp;next=x"');
    for (const u of config.users) expect(r.text).toContain(`data-user="${u.username}"`);
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(r.headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers 400 to a bad app and 401 to bad credentials, without a redirect', async () => {
    expect((await driver.login('b', [['app', 'nope']])).status).toBe(400);
    expect((await driver.login('b', [['app', intranet!.appId]], { username: somchai!.username, password: 'x' })).status).toBe(401);
  });

  it('runs the whole flow: login, exchange once, profile, status, logout', async () => {
    const code = await loginCode();
    expect(code).toMatch(UUID_SHAPE);
    const ok = await client.exchange(good(code));
    expect(ok.parsed).toMatchObject({ ok: true, email: somchai!.email, firstName: somchai!.firstName });
    expect(ok.reply.headers['cache-control']).toBe('no-store');
    const token = (ok.parsed as { accessToken: string }).accessToken;
    const prof = await client.profile([`Bearer ${token}`]);
    expect(prof.status).toBe(200);
    expect(JSON.parse(prof.text).profile.firstname).toBe(somchai!.firstName);
    // A replay fails and revokes the token it produced (replayRevokesToken).
    expect((await client.exchange(good(code))).parsed).toEqual(TOKEN_FAILURE);
    expect((await client.profile([`Bearer ${token}`])).status).toBe(401);
    const token2 = ((await client.exchange(good(await loginCode('b2')))).parsed as { accessToken: string }).accessToken;
    const st = await client.status([`Bearer ${token2}`]);
    expect(JSON.parse(st.text)).toMatchObject({ ok: true, user: { email: somchai!.email, role: somchai!.role } });
    const out = await driver.logout('b2', [['app', library!.appId], ['redirect', 'https://evil.example']]);
    expect(out).toMatchObject({ kind: 'redirect', status: 302, location: library!.logoutUrl });
    const after: HttpReply = await client.status([`Bearer ${token2}`]);
    expect(after.status).toBe(401);
    expect(after.headers['www-authenticate']).toBe('Bearer');
  });

  it('moves its clock, masks secrets in its log, and resets', async () => {
    const code = await loginCode();
    await client.advanceClock(60_000);
    expect((await client.exchange(good(code))).parsed).toEqual(TOKEN_FAILURE);
    const log = JSON.stringify(await client.requestLog());
    expect(log).toContain('/api/auth.token');
    expect(log).not.toContain(code);
    expect(log).not.toContain(intranet!.clientSecret);
    expect(log).not.toContain(somchai!.password);
    await client.reset();
    expect(await client.requestLog()).toHaveLength(0);
  });

  it('queues injected failures for relying-party tests', async () => {
    const inject = (body: object) => http.send({ method: 'POST', url: `${emu.apiUrl}/__control/inject`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await inject({ endpoint: 'auth.token', kind: 'malformed' })).status).toBe(200);
    expect((await client.exchange(good('x'))).reply.text).toBe('{"ok":tru');
    expect((await client.exchange(good('x'))).parsed).toEqual(TOKEN_FAILURE);
    await inject({ endpoint: 'user.profile', kind: 'status', status: 503 });
    expect((await client.profile(['Bearer x'])).status).toBe(503);
    await inject({ endpoint: 'auth.status', kind: 'slow', delayMs: 150 });
    const t = Date.now();
    expect((await client.status(['Bearer x'])).status).toBe(401);
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
    const bad = await inject({ endpoint: 'nowhere', kind: 'slow' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).error).toMatch(/endpoint/);
  });

  it('never answers 5xx to garbage', async () => {
    for (const body of ['', '{', 'null', '{"__proto__":{}}', 'x'.repeat(40_000)]) {
      const r = await client.exchangeRaw({ contentType: 'application/json', body });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.text)).toEqual(TOKEN_FAILURE);
    }
    expect((await http.send({ method: 'GET', url: `${emu.apiUrl}/user.profile` })).status).toBe(405);
    expect((await http.send({ method: 'GET', url: `${emu.webUrl}/nothing` })).status).toBe(404);
  });

  it('with auto-login issues a code without a form', async () => {
    const auto = await startEmulator({ config, autoLogin: somchai!.username });
    try {
      const d = new FormPostDriver(auto.webUrl, new PacedHttp());
      const seen = await d.login('b', [['app', intranet!.appId]]);
      expect(seen).toMatchObject({ kind: 'redirect', status: 302 });
    } finally {
      await auto.close();
    }
    await expect(startEmulator({ config, autoLogin: 'nobody' })).rejects.toThrow(/no user named "nobody"/);
  });
});
