import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { parseSsoConfig } from '../config.ts';
import example from '../examples/sso.config.json' with { type: 'json' };
import { startEmulator, type RunningEmulator } from '../emulator/server.ts';
import { BrowserDriver, CHROMIUM_PATH, captureFrontChannel, launchChromium } from './browser-driver.ts';
import { SsoClient } from './client.ts';
import { PacedHttp } from './http.ts';
import { runSsoProperties } from '../properties/index.ts';

const config = parseSsoConfig(example);
const [intranet, library] = config.clients;
const [, malee] = config.users;
let emu: RunningEmulator;
let browser: Browser | undefined;

beforeAll(async () => {
  // CI installs Debian's chromium; a missing browser is a failure with a clear message, not a skip.
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: run \`apt-get install -y chromium\` (the login page must be tested in a real browser)`);
  emu = await startEmulator({ config });
  browser = await launchChromium();
}, 30_000);
afterAll(async () => {
  await browser?.close();
  await emu?.close();
});

describe('the login page in headless chromium', () => {
  it('picks a preset user, is redirected with a code, and the code exchanges', async () => {
    const context = await browser!.newContext();
    const captured: string[] = [];
    await captureFrontChannel(context, emu.webUrl, (_, seen) => {
      if (seen.kind === 'redirect') captured.push(seen.location);
    });
    const page = await context.newPage();
    const shown = await page.goto(`${emu.webUrl}/login?app=${intranet!.appId}`);
    expect(shown!.status()).toBe(200);
    expect(await page.title()).toBe('Sign in');
    await Promise.all([page.waitForNavigation({ waitUntil: 'commit' }), page.click(`form[data-user="${malee!.username}"] button`)]);
    expect(await page.textContent('body')).toContain('redirect to https://intranet.uni.example/auth/callback?code=');
    expect(captured).toHaveLength(1);
    const code = new URL(captured[0]!).searchParams.get('code')!;
    expect(captured[0]).toBe(`${intranet!.redirectUrl}?code=${code}`);
    const client = new SsoClient(emu.apiUrl, new PacedHttp());
    const { parsed } = await client.exchange({ code, redirectUrl: intranet!.redirectUrl, clientId: intranet!.clientId, clientSecret: intranet!.clientSecret });
    expect(parsed).toMatchObject({ ok: true, email: malee!.email, immutableId: malee!.immutableId });
    await context.close();
  }, 30_000);

  it('the browser driver types credentials, logs in silently with a session, and logs out', async () => {
    const driver = await BrowserDriver.launch(emu.webUrl, config.loginPage);
    try {
      const first = await driver.login('b', [['app', intranet!.appId]], { username: malee!.username, password: malee!.password });
      expect(first).toMatchObject({ kind: 'redirect', status: 302, location: expect.stringMatching(/^https:\/\/intranet\.uni\.example\/auth\/callback\?code=[0-9a-f-]{36}$/) });
      const silent = await driver.login('b', [['app', library!.appId]]);
      expect(silent).toMatchObject({ kind: 'redirect', location: expect.stringContaining(library!.redirectUrl) });
      const out = await driver.logout('b', [['app', library!.appId], ['redirect', 'https://evil.example/']]);
      expect(out).toMatchObject({ kind: 'redirect', location: library!.logoutUrl });
      expect(await driver.login('b', [['app', intranet!.appId]])).toMatchObject({ kind: 'page', status: 200 });
      const wrong = await driver.login('c', [['app', intranet!.appId]], { username: malee!.username, password: 'nope' });
      expect(wrong).toMatchObject({ kind: 'page', status: 401 });
    } finally {
      await driver.close();
    }
  }, 30_000);

  it('sso properties run through the browser driver', async () => {
    // One case a property (and, as at any count, one example of each bad-app variant): this proves
    // the runner drives chromium through both properties; that they catch faults is
    // fault-variants.test.ts's (form driver). 3 cases a property: 28.2 s of CPU for this test alone
    // (vitest -t, its start and the file's set-up included: 9.0 s), 1 case: 22.5 s.
    const results = await runSsoProperties({ webUrl: emu.webUrl, apiUrl: emu.apiUrl, config, driver: 'browser' }, { seed: 3, numRuns: 1, only: ['S07', 'S08'] });
    expect(results.map((r) => [r.id, r.status])).toEqual([['S07', 'passed'], ['S08', 'passed']]);
  }, 60_000);
});
