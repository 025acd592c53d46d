import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ClientRegistrationSchema, registeredRedirectUrls, UserRecordSchema } from './model/schemas.ts';
import { SsoSettingsSchema } from './model/settings.ts';
import { SSO_FAULTS } from './emulator/faults/index.ts';

/**
 * The one config file of `sso serve` and `sso check`: registered clients, users (with the
 * identity each must see), optional overrides of the open settings, and for `sso check` against
 * a real service the CSS selectors of its login form.
 */
export const LoginPageSelectorsSchema = z.strictObject({
  /** Form driver (default): `name` of the username input of the login form. */
  usernameField: z.string().min(1).default('username'),
  /** Form driver: `name` of the password input (`type="password"`); it also picks the form. */
  passwordField: z.string().min(1).default('password'),
  /** Browser driver (--browser): CSS selectors of the username and password inputs and the submit button. */
  username: z.string().min(1).default('form#login input[name="username"]'),
  password: z.string().min(1).default('form#login input[name="password"]'),
  submit: z.string().min(1).default('form#login button[type="submit"]'),
});

export const SsoConfigSchema = z
  .strictObject({
    clients: z.array(ClientRegistrationSchema).min(2, 'at least two clients are needed (code binding is checked across clients)'),
    users: z.array(UserRecordSchema).min(2, 'at least two users are needed (identity is checked across users)'),
    settings: SsoSettingsSchema.prefault({}),
    faults: z.array(z.enum(SSO_FAULTS)).default([]),
    loginPage: LoginPageSelectorsSchema.prefault({}),
    /** The issuer identifier the service puts in `iss` on its post-login redirect (RFC 9207); default: the web URL or its origin. */
    issuer: z.string().min(1).optional(),
  })
  .superRefine((cfg, ctx) => {
    const unique = (key: 'clients' | 'users', field: string, values: string[]) => {
      const seen = new Map<string, number>();
      values.forEach((v, i) => {
        if (seen.has(v)) ctx.addIssue({ code: 'custom', path: [key, i, field], message: `duplicate ${field} ${JSON.stringify(v)} (also at ${key}[${seen.get(v)}])` });
        else seen.set(v, i);
      });
    };
    unique('clients', 'appId', cfg.clients.map((c) => c.appId));
    unique('clients', 'clientId', cfg.clients.map((c) => c.clientId));
    // A Redirect URL belongs to one client (a code sent there is that client's).
    const owner = new Map<string, number>();
    cfg.clients.forEach((c, i) => {
      for (const url of registeredRedirectUrls(c)) {
        if (owner.has(url) && owner.get(url) !== i) ctx.addIssue({ code: 'custom', path: ['clients', i, 'redirectUrl'], message: `duplicate redirectUrl ${JSON.stringify(url)} (also at clients[${owner.get(url)}])` });
        else owner.set(url, i);
      }
    });
    unique('users', 'username', cfg.users.map((u) => u.username));
    unique('users', 'immutableId', cfg.users.map((u) => u.immutableId));
  });

export type SsoConfig = z.infer<typeof SsoConfigSchema>;
export type SsoConfigInput = z.input<typeof SsoConfigSchema>;

/** A bad config file, with a message that names the file and every field that is wrong. */
export class SsoConfigError extends Error {
  override name = 'SsoConfigError';
}

export function parseSsoConfig(data: unknown, source = 'config'): SsoConfig {
  const r = SsoConfigSchema.safeParse(data);
  if (r.success) return r.data;
  const lines = r.error.issues.map((i) => `  - ${i.path.length ? i.path.map(String).join('.') : '(top level)'}: ${i.message}`);
  throw new SsoConfigError(`${source} is not a valid SSO config:\n${lines.join('\n')}`);
}

export async function loadSsoConfig(path: string): Promise<SsoConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new SsoConfigError(`cannot read SSO config ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new SsoConfigError(`SSO config ${path} is not valid JSON: ${(e as Error).message}`);
  }
  return parseSsoConfig(data, path);
}
