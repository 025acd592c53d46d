import { describe, it, expect, afterAll } from 'vitest';
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadSsoConfig, parseSsoConfig, SsoConfigError } from './config.ts';
import example from './examples/sso.config.json' with { type: 'json' };
import { tempDir } from '../testing/temp-dir.ts';
import { profileOf, registeredRedirectUrls, tokenResultOf } from './model/schemas.ts';
import { startEmulator } from './emulator/server.ts';
import { runSsoProperties } from './properties/index.ts';

const dir = tempDir('sso-config');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SSO config', () => {
  it('lets the profile hold other names, email and citizen id than the token (the spec does not say they are equal); S12 then expects those', async () => {
    const data = structuredClone(example) as { users: { profile: Record<string, string> }[] };
    Object.assign(data.users[0]!.profile, { firstname: 'Som', lastname: 'J.', email: 'somchai@staff.example', citizenId: '0000000000000' });
    const cfg = parseSsoConfig(data);
    const user = cfg.users[0]!;
    expect(profileOf(user)).toMatchObject({ firstname: 'Som', lastname: 'J.', email: 'somchai@staff.example', citizenId: '0000000000000' });
    expect(tokenResultOf(user, 't')).toMatchObject({ firstName: user.firstName, email: user.email, citizenId: user.citizenId });
    const emu = await startEmulator({ config: cfg });
    try {
      const [r] = await runSsoProperties({ webUrl: emu.webUrl, apiUrl: emu.apiUrl, config: cfg }, { seed: 4, numRuns: 4, only: ['S12'] });
      expect(r!.status, JSON.stringify(r)).toBe('passed');
      // And a service that repeats the token's fields instead is told so.
      const [wrong] = await runSsoProperties({ webUrl: emu.webUrl, apiUrl: emu.apiUrl, config: parseSsoConfig(example) }, { seed: 4, numRuns: 8, only: ['S12'] });
      expect(wrong!.status).toBe('failed');
      expect(wrong!.failure!.message).toMatch(/\$\.firstname: "Somchai" → "Som"|\$\.firstname/);
    } finally {
      await emu.close();
    }
  });

  it('loads the example with default settings and no faults', async () => {
    const cfg = await loadSsoConfig(new URL('./examples/sso.config.json', import.meta.url).pathname);
    expect(cfg.clients.length).toBeGreaterThanOrEqual(2);
    expect(cfg.settings.codeLifetimeSeconds).toBe(60);
    expect(cfg.faults).toEqual([]);
    expect(cfg.loginPage.username).toBe('form#login input[name="username"]');
  });

  it('names the file and the field that is wrong', () => {
    const bad = structuredClone(example) as { clients: { redirectUrl: string }[]; users: { email?: string }[] };
    bad.clients[1]!.redirectUrl = 'not a url';
    delete bad.users[0]!.email;
    expect(() => parseSsoConfig(bad, 'my.json')).toThrowError(SsoConfigError);
    try {
      parseSsoConfig(bad, 'my.json');
    } catch (e) {
      const msg = (e as Error).message;
      expect(msg).toContain('my.json');
      expect(msg).toContain('clients.1.redirectUrl: must be an absolute http(s) URL');
      expect(msg).toMatch(/users\.0\.email/);
    }
  });

  it('rejects duplicate app ids, unknown settings and unknown faults', () => {
    const dup = structuredClone(example) as { clients: { appId: string }[] };
    dup.clients[1]!.appId = dup.clients[0]!.appId;
    expect(() => parseSsoConfig(dup)).toThrow(/clients\.1\.appId: duplicate appId/);
    expect(() => parseSsoConfig({ ...example, settings: { codeLifetime: 5 } })).toThrow(/settings/);
    expect(() => parseSsoConfig({ ...example, faults: ['no-such-fault'] })).toThrow(/faults\.0/);
  });

  it('takes several Redirect URLs per client (redirectUrl, if given, is one of them and the default; none is another client\'s)', () => {
    const [a, b, ...rest] = example.clients;
    const two = { ...example, clients: [{ ...a!, redirectUrl: undefined, redirectUrls: [a!.redirectUrl, `${a!.redirectUrl}-2`] }, b!, ...rest] };
    const cfg = parseSsoConfig(two);
    expect(registeredRedirectUrls(cfg.clients[0]!)).toEqual([a!.redirectUrl, `${a!.redirectUrl}-2`]);
    expect(cfg.clients[0]!.redirectUrl).toBe(a!.redirectUrl);
    expect(registeredRedirectUrls(cfg.clients[1]!)).toEqual([b!.redirectUrl]);
    expect(() => parseSsoConfig({ ...two, clients: [{ ...two.clients[0], redirectUrl: 'https://x.example/cb' }, b, ...rest] })).toThrow(/clients\.0\.redirectUrl: must be one of redirectUrls/);
    expect(() => parseSsoConfig({ ...two, clients: [two.clients[0], { ...b!, redirectUrls: [b!.redirectUrl, `${a!.redirectUrl}-2`] }, ...rest] })).toThrow(/clients\.1\.redirectUrl: duplicate redirectUrl/);
    expect(() => parseSsoConfig({ ...two, clients: [{ ...two.clients[0], redirectUrls: undefined }, b, ...rest] })).toThrow(/clients\.0\.redirectUrl: give redirectUrl or redirectUrls/);
  });

  it('explains a missing file and invalid JSON without a stack trace', async () => {
    await expect(loadSsoConfig(join(dir, 'absent.json'))).rejects.toThrow(/cannot read SSO config .*absent\.json: ENOENT/);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"clients": [');
    await expect(loadSsoConfig(broken)).rejects.toThrow(/broken\.json is not valid JSON/);
  });
});
