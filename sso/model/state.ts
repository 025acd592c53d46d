import type { ClientRegistration, UserRecord } from './schemas.ts';
import type { SsoSettings } from './settings.ts';

/**
 * The whole observable state of the SSO service, as plain immutable data. The clock is part of
 * the state (`nowMs`), so the model never reads real time.
 */
export interface SsoState {
  readonly settings: SsoSettings;
  readonly clients: readonly ClientRegistration[];
  readonly users: readonly UserRecord[];
  readonly nowMs: number;
  /** Browser (cookie jar) name → the session its cookie points at, if any. */
  readonly browsers: Readonly<Record<string, BrowserRecord>>;
  readonly sessions: Readonly<Record<string, SessionRecord>>;
  readonly codes: Readonly<Record<string, CodeRecord>>;
  readonly tokens: Readonly<Record<string, TokenRecord>>;
  readonly sessionCount: number;
}

export interface BrowserRecord {
  readonly sessionKey: string | null;
}

export interface SessionRecord {
  /** Model-side name (`s1`, `s2`, …): the service's own session id is learnt from auth.status. */
  readonly key: string;
  readonly username: string;
  readonly createdAtMs: number;
  readonly ended: boolean;
  /** `sessionId` the service reported for this session, once seen. */
  readonly observedSessionId: string | null;
}

export type CodeStatus = 'fresh' | 'redeemed' | 'burned';

export interface CodeRecord {
  readonly code: string;
  readonly clientId: string;
  readonly username: string;
  readonly sessionKey: string;
  readonly issuedAtMs: number;
  readonly status: CodeStatus;
  /** The access token this code was exchanged for, if it was. */
  readonly tokenIssued: string | null;
}

export interface TokenRecord {
  readonly token: string;
  readonly username: string;
  readonly sessionKey: string;
  readonly fromCode: string;
  readonly issuedAtMs: number;
  readonly revoked: boolean;
}

export function initialSsoState(input: {
  settings: SsoSettings;
  clients: readonly ClientRegistration[];
  users: readonly UserRecord[];
  nowMs?: number;
}): SsoState {
  return {
    settings: input.settings,
    clients: input.clients,
    users: input.users,
    nowMs: input.nowMs ?? 0,
    browsers: {},
    sessions: {},
    codes: {},
    tokens: {},
    sessionCount: 0,
  };
}
