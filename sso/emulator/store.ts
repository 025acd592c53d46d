import { randomBytes, randomUUID } from 'node:crypto';
import type { ClientRegistration, UserRecord } from '../model/schemas.ts';
import type { SsoSettings } from '../model/settings.ts';

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
export type CodeState = 'fresh' | 'redeemed' | 'burned';
export interface EmulatorCode {
  clientId: string;
  username: string;
  cookie: string;
  issuedAtMs: number;
  state: CodeState;
  token: string | null;
}
export interface EmulatorToken {
  username: string;
  cookie: string;
  issuedAtMs: number;
  revoked: boolean;
}

/** The store's single decisions, as a seam: a fault (faults/) may replace one of them. */
export interface StoreRules {
  /** A new login code. */
  newCode(): string;
  /** Whether a code in this state may be exchanged. */
  redeemable(state: CodeState): boolean;
  /** Whether the client secret sent is the registered one. */
  secretMatches(registered: string, sent: string): boolean;
  /** Whether the redirectUrl sent is the registered one. */
  redirectUrlMatches(registered: string, sent: string): boolean;
}

export const CORRECT_STORE_RULES: StoreRules = Object.freeze({
  newCode: () => randomUUID(),
  redeemable: (state: CodeState) => state === 'fresh',
  secretMatches: (registered: string, sent: string) => registered === sent,
  redirectUrlMatches: (registered: string, sent: string) => registered === sent,
});

export class EmulatorStore {
  readonly sessions = new Map<string, EmulatorSession>();
  readonly codes = new Map<string, EmulatorCode>();
  readonly tokens = new Map<string, EmulatorToken>();
  private clockOffsetMs = 0;

  constructor(
    readonly clients: readonly ClientRegistration[],
    readonly users: readonly UserRecord[],
    readonly settings: SsoSettings,
    readonly rules: StoreRules = CORRECT_STORE_RULES,
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
    if (this.settings.logoutRevokesTokens) {
      for (const t of this.tokens.values()) if (t.cookie === s.cookie) t.revoked = true;
    }
  }

  issueCode(session: EmulatorSession, client: ClientRegistration): string {
    const code = this.rules.newCode();
    this.codes.set(code, { clientId: client.clientId, username: session.username, cookie: session.cookie, issuedAtMs: this.now(), state: 'fresh', token: null });
    return code;
  }

  /** The exchange rules; returns the new token or null for the uniform failure. */
  redeem(req: { code: string; redirectUrl: string; clientId: string; clientSecret: string }): { token: string; user: UserRecord } | null {
    const code = this.codes.get(req.code);
    if (!code) return null;
    if (!this.rules.redeemable(code.state)) {
      if (code.state === 'redeemed' && this.settings.replayRevokesToken && code.token) {
        const t = this.tokens.get(code.token);
        if (t) t.revoked = true;
      }
      return null;
    }
    if (this.now() - code.issuedAtMs >= this.settings.codeLifetimeSeconds * 1000) return null;
    const client = this.clients.find((c) => c.clientId === req.clientId);
    const secretOk = client !== undefined && this.rules.secretMatches(client.clientSecret, req.clientSecret);
    const urlOk = client !== undefined && this.rules.redirectUrlMatches(client.redirectUrl, req.redirectUrl);
    if (!client || !secretOk || !urlOk || client.clientId !== code.clientId) {
      if (this.settings.failedExchangeConsumesCode) code.state = 'burned';
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
