import { randomBytes, randomUUID } from 'node:crypto';
import type { ClientRegistration, UserRecord } from '../model/schemas.ts';
import type { SsoSettings } from '../model/settings.ts';
import type { SsoFault } from './faults.ts';

/**
 * The emulator's mutable state. Written independently of the pure model (the model-based test
 * compares the two), but reading the same settings. Time is real time plus a test offset that
 * the control API can advance.
 */
export interface EmulatorSession {
  cookie: string;
  sessionId: string;
  username: string;
  createdAtMs: number;
  ended: boolean;
}
export interface EmulatorCode {
  clientId: string;
  username: string;
  cookie: string;
  issuedAtMs: number;
  state: 'fresh' | 'redeemed' | 'burned';
  token: string | null;
}
export interface EmulatorToken {
  username: string;
  cookie: string;
  issuedAtMs: number;
  revoked: boolean;
}

export class EmulatorStore {
  readonly sessions = new Map<string, EmulatorSession>();
  readonly codes = new Map<string, EmulatorCode>();
  readonly tokens = new Map<string, EmulatorToken>();
  private clockOffsetMs = 0;
  private codeCounter = 0;

  constructor(
    readonly clients: readonly ClientRegistration[],
    readonly users: readonly UserRecord[],
    readonly settings: SsoSettings,
    readonly faults: ReadonlySet<SsoFault>,
  ) {}

  now(): number {
    return Date.now() + this.clockOffsetMs;
  }
  advanceClock(ms: number): void {
    this.clockOffsetMs += ms;
  }
  reset(): void {
    this.sessions.clear();
    this.codes.clear();
    this.tokens.clear();
    this.clockOffsetMs = 0;
  }

  checkPassword(username: string, password: string): UserRecord | null {
    return this.users.find((u) => u.username === username && u.password === password) ?? null;
  }
  user(username: string): UserRecord {
    return this.users.find((u) => u.username === username)!;
  }

  openSession(username: string): EmulatorSession {
    const s: EmulatorSession = { cookie: randomBytes(32).toString('base64url'), sessionId: randomUUID(), username, createdAtMs: this.now(), ended: false };
    this.sessions.set(s.cookie, s);
    return s;
  }
  liveSession(cookie: string | undefined): EmulatorSession | null {
    if (!cookie) return null;
    const s = this.sessions.get(cookie);
    if (!s || s.ended || this.now() - s.createdAtMs >= this.settings.sessionLifetimeSeconds * 1000) return null;
    return s;
  }
  endSession(cookie: string | undefined): void {
    const s = cookie ? this.sessions.get(cookie) : undefined;
    if (!s) return;
    s.ended = true;
    if (this.settings.logoutRevokesTokens && !this.faults.has('token-survives-logout')) {
      for (const t of this.tokens.values()) if (t.cookie === s.cookie) t.revoked = true;
    }
  }

  issueCode(session: EmulatorSession, client: ClientRegistration): string {
    const code = this.faults.has('guessable-codes') ? `00000000-0000-4000-8000-${(++this.codeCounter).toString(16).padStart(12, '0')}` : randomUUID();
    this.codes.set(code, { clientId: client.clientId, username: session.username, cookie: session.cookie, issuedAtMs: this.now(), state: 'fresh', token: null });
    return code;
  }

  /** The exchange rules; returns the new token or null for the uniform failure. */
  redeem(req: { code: string; redirectUrl: string; clientId: string; clientSecret: string }): { token: string; user: UserRecord } | null {
    const code = this.codes.get(req.code);
    if (!code) return null;
    const reusable = this.faults.has('reusable-code');
    if (code.state !== 'fresh' && !(reusable && code.state === 'redeemed')) {
      if (code.state === 'redeemed' && this.settings.replayRevokesToken && code.token) {
        const t = this.tokens.get(code.token);
        if (t) t.revoked = true;
      }
      return null;
    }
    if (!this.faults.has('code-never-expires') && this.now() - code.issuedAtMs >= this.settings.codeLifetimeSeconds * 1000) return null;
    const client = this.clients.find((c) => c.clientId === req.clientId);
    const secretOk = client !== undefined && (this.faults.has('ignore-client-secret') || client.clientSecret === req.clientSecret);
    const urlOk =
      client !== undefined &&
      (this.faults.has('redirect-prefix-match') ? req.redirectUrl.startsWith(client.redirectUrl) : req.redirectUrl === client.redirectUrl);
    if (!client || !secretOk || !urlOk || client.clientId !== code.clientId) {
      if (this.settings.failedExchangeConsumesCode && !this.faults.has('failed-exchange-keeps-code')) code.state = 'burned';
      return null;
    }
    const token = randomBytes(32).toString('base64url');
    code.state = 'redeemed';
    code.token = token;
    this.tokens.set(token, { username: code.username, cookie: code.cookie, issuedAtMs: this.now(), revoked: false });
    return { token, user: this.user(code.username) };
  }

  acceptedToken(token: string | null): { token: EmulatorToken; session: EmulatorSession; user: UserRecord } | null {
    if (token === null) return null;
    const t = this.tokens.get(token);
    if (!t || t.revoked || this.now() - t.issuedAtMs >= this.settings.tokenLifetimeSeconds * 1000) return null;
    return { token: t, session: this.sessions.get(t.cookie)!, user: this.user(t.username) };
  }
}
