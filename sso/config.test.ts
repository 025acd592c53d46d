import { describe, it, expect, afterAll } from 'vitest';
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadSsoConfig, parseSsoConfig, SsoConfigError } from './config.ts';
import example from './examples/sso.config.json' with { type: 'json' };
import { tempDir } from '../testing/temp-dir.ts';

const dir = tempDir('sso-config');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SSO config', () => {
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

  it('explains a missing file and invalid JSON without a stack trace', async () => {
    await expect(loadSsoConfig(join(dir, 'absent.json'))).rejects.toThrow(/cannot read SSO config .*absent\.json: ENOENT/);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"clients": [');
    await expect(loadSsoConfig(broken)).rejects.toThrow(/broken\.json is not valid JSON/);
  });
});
