import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSsoConfig } from '../../config.ts';
import example from '../../examples/sso.config.json' with { type: 'json' };
import { SsoClient } from '../../client/client.ts';
import { FormPostDriver } from '../../client/form-driver.ts';
import { PacedHttp } from '../../client/http.ts';
import { startEmulator, type RunningEmulator } from '../server.ts';
import { CORRECT_STORE_RULES } from '../store.ts';
import { SSO_FAULTS, faultLayersOf, type SsoFault } from './index.ts';

const config = parseSsoConfig(example);
const [intranet] = config.clients;
const [somchai] = config.users;
const credentials = { username: somchai!.username, password: somchai!.password };
const good = (code: string) => ({ code, redirectUrl: intranet!.redirectUrl, clientId: intranet!.clientId, clientSecret: intranet!.clientSecret });

const running: RunningEmulator[] = [];
afterAll(async () => Promise.all(running.map((e) => e.close())));

/** An emulator with these faults, a browser driver and a back-channel client for it. */
async function emulatorWith(faults: SsoFault[]) {
  const emu = await startEmulator({ config, faults });
  running.push(emu);
  const http = new PacedHttp();
  const driver = new FormPostDriver(emu.webUrl, http);
  const client = new SsoClient(emu.apiUrl, http);
  const loginCode = async (browser: string) => {
    const seen = await driver.login(browser, [['app', intranet!.appId]], credentials);
    return new URL((seen as { location: string }).location).searchParams.get('code')!;
  };
  const token = async (code: string) => ((await client.exchange(good(code))).parsed as { accessToken: string }).accessToken;
  return { emu, http, driver, client, loginCode, token };
}

describe('the correct emulator and its faults', () => {
  it('has no fault hook active when no fault is configured', () => {
    expect(config.faults).toEqual([]);
    const none = faultLayersOf(config.faults);
    expect(none.actsAsIf).toEqual({});
    expect(none.storeRules).toBe(CORRECT_STORE_RULES);
    expect(none.middleware).toEqual([]);
  });

  it('gives every fault at least one hook (a fault that changes nothing would prove nothing)', () => {
    for (const fault of SSO_FAULTS) {
      const layers = faultLayersOf([fault]);
      const hooks = Object.keys(layers.actsAsIf).length + layers.middleware.length + (layers.storeRules === CORRECT_STORE_RULES ? 0 : 1);
      expect(hooks, fault).toBeGreaterThan(0);
    }
  });

  it('keeps the routes and the store free of faults (only startEmulator composes them)', () => {
    for (const file of ['server.ts', 'store.ts', 'http.ts', 'web-routes.ts', 'api-routes.ts', 'control.ts', 'context.ts']) {
      const text = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
      expect(text, file).not.toMatch(/faults\.has/);
      if (file !== 'server.ts') expect(text, file).not.toMatch(/SsoFault|\.\/faults\//);
    }
  });

  it('composes a request hook and a response hook on one request', async () => {
    const strict = await emulatorWith([]);
    const faulty = await emulatorWith(['token-in-query-accepted', 'profile-camelcase']);
    for (const { client, loginCode, token } of [strict, faulty]) {
      const t = await token(await loginCode('b'));
      const viaQuery = await client.profile([], { query: `access_token=${t}` });
      if (client === strict.client) expect(viaQuery.status).toBe(401);
      else expect(JSON.parse(viaQuery.text).profile).toMatchObject({ firstName: somchai!.firstName, lastName: somchai!.lastName });
    }
    // Each alone does only its own part.
    const queryOnly = await emulatorWith(['token-in-query-accepted']);
    const t = await queryOnly.token(await queryOnly.loginCode('b'));
    expect(JSON.parse((await queryOnly.client.profile([], { query: `access_token=${t}` })).text).profile).toMatchObject({ firstname: somchai!.firstName });
  });

  it('composes two response hooks on one reply, whatever order the faults are named in', async () => {
    for (const faults of [['login-follows-redirect-uri', 'token-in-front-channel'], ['token-in-front-channel', 'login-follows-redirect-uri']] as SsoFault[][]) {
      const { driver, loginCode, token } = await emulatorWith(faults);
      const t = await token(await loginCode('b'));
      const silent = await driver.login('b', [['app', intranet!.appId], ['redirect_uri', 'https://evil.example/cb']]);
      expect(silent, faults.join(' + ')).toMatchObject({ kind: 'redirect', status: 302 });
      const location = (silent as { location: string }).location;
      expect(location, faults.join(' + ')).toMatch(new RegExp(`^https://evil\\.example/cb\\?code=[0-9a-f-]{36}#access_token=${t}$`));
    }
  });

  it('composes two store rules: guessable codes that can be exchanged twice', async () => {
    const { client, loginCode } = await emulatorWith(['reusable-code', 'guessable-codes']);
    const code = await loginCode('b');
    expect(code).toBe('00000000-0000-4000-8000-000000000001');
    expect((await client.exchange(good(code))).parsed).toMatchObject({ ok: true });
    expect((await client.exchange(good(code))).parsed).toMatchObject({ ok: true });
    expect(await loginCode('b2')).toBe('00000000-0000-4000-8000-000000000002');
  });
});
