import { bearerTokenOf } from './bearer.ts';
import { clientForApp, redirectWithCode, type QueryPairs } from './front-channel.ts';
import {
  TOKEN_FAILURE,
  TokenRequestSchema,
  UUID_SHAPE,
  profileOf,
  tokenResultOf,
  type TokenFailure,
  type TokenSuccess,
  type UserRecord,
} from './schemas.ts';
import type { SessionRecord, SsoState, TokenRecord } from './state.ts';
import { parseStrictJson } from './strict-json.ts';

/**
 * Pure transitions of the SSO state machine. Each returns the next state and the answer the
 * service must give. Values the service draws at random (codes, tokens, session ids) cannot be
 * predicted, so the caller passes in the value it observed; the model accepts it only if it is
 * fresh and well-formed, otherwise it predicts a placeholder that cannot match.
 */

export type PageName = 'login-form' | 'bad-request' | 'bad-credentials';
export type FrontAnswer =
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'page'; status: number; page: PageName };
export interface HttpAnswer {
  status: number;
  body: unknown;
}
export interface Step<A> {
  state: SsoState;
  answer: A;
}

/** Placeholders predicted when an observed random value is stale or malformed. */
export const NOT_A_FRESH_CODE = '<a fresh uuid-shaped code>';
export const NOT_A_FRESH_TOKEN = '<a fresh access token>';
export const NOT_A_DISTINCT_SESSION_ID = '<a session id distinct from other sessions>';

const UNAUTHORIZED: HttpAnswer = { status: 401, body: null };

// ---- time ---------------------------------------------------------------------------------

export function advanceClock(state: SsoState, ms: number): SsoState {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock only moves forward (got ${ms})`);
  return { ...state, nowMs: state.nowMs + ms };
}

// ---- /login -------------------------------------------------------------------------------

export interface LoginRequest {
  browser: string;
  query: QueryPairs;
  /** Present when the user submitted the form; absent for a plain GET of the page. */
  credentials?: { username: string; password: string };
}

export function login(state: SsoState, req: LoginRequest, observedCode: string | null): Step<FrontAnswer> {
  const client = clientForApp(state.clients, req.query);
  if (!client) return { state, answer: { kind: 'page', status: 400, page: 'bad-request' } };

  let s = state;
  let sessionKey: string;
  if (req.credentials) {
    const user = s.users.find((u) => u.username === req.credentials!.username && u.password === req.credentials!.password);
    if (!user) return { state, answer: { kind: 'page', status: 401, page: 'bad-credentials' } };
    sessionKey = `s${s.sessionCount + 1}`;
    const session: SessionRecord = { key: sessionKey, username: user.username, createdAtMs: s.nowMs, ended: false, observedSessionId: null };
    s = {
      ...s,
      sessionCount: s.sessionCount + 1,
      sessions: { ...s.sessions, [sessionKey]: session },
      browsers: { ...s.browsers, [req.browser]: { sessionKey } },
    };
  } else {
    const live = liveSessionOf(s, req.browser);
    if (!live || !s.settings.silentLoginWithSession) return { state, answer: { kind: 'page', status: 200, page: 'login-form' } };
    sessionKey = live.key;
  }

  const fresh = observedCode !== null && UUID_SHAPE.test(observedCode) && !(observedCode in s.codes);
  const code = fresh ? observedCode : NOT_A_FRESH_CODE;
  const answer: FrontAnswer = { kind: 'redirect', status: s.settings.loginRedirectStatus, location: redirectWithCode(client.redirectUrl, code) };
  if (!fresh) return { state: s, answer };
  const session = s.sessions[sessionKey]!;
  return {
    state: {
      ...s,
      codes: {
        ...s.codes,
        [code]: { code, clientId: client.clientId, username: session.username, sessionKey, issuedAtMs: s.nowMs, status: 'fresh', tokenIssued: null },
      },
    },
    answer,
  };
}

export function liveSessionOf(state: SsoState, browser: string): SessionRecord | null {
  const key = state.browsers[browser]?.sessionKey;
  if (!key) return null;
  const session = state.sessions[key]!;
  if (session.ended) return null;
  if (state.nowMs - session.createdAtMs >= state.settings.sessionLifetimeSeconds * 1000) return null;
  return session;
}

// ---- /logout ------------------------------------------------------------------------------

export interface LogoutRequest {
  browser: string;
  query: QueryPairs;
}

export function logout(state: SsoState, req: LogoutRequest): Step<FrontAnswer> {
  const client = clientForApp(state.clients, req.query);
  if (!client) return { state, answer: { kind: 'page', status: 400, page: 'bad-request' } };
  const answer: FrontAnswer = { kind: 'redirect', status: state.settings.logoutRedirectStatus, location: client.logoutUrl };
  const key = state.browsers[req.browser]?.sessionKey ?? null;
  if (!key) return { state, answer };
  const sessions = { ...state.sessions, [key]: { ...state.sessions[key]!, ended: true } };
  let tokens = state.tokens;
  if (state.settings.logoutRevokesTokens) {
    tokens = mapValues(tokens, (t) => (t.sessionKey === key ? { ...t, revoked: true } : t));
  }
  return { state: { ...state, sessions, tokens, browsers: { ...state.browsers, [req.browser]: { sessionKey: null } } }, answer };
}

// ---- auth.token ---------------------------------------------------------------------------

export interface TokenHttpRequest {
  method: string;
  contentType: string | null;
  /** The body exactly as sent. */
  body: string;
}

const JSON_CONTENT_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

export function exchange(state: SsoState, req: TokenHttpRequest, observedToken: string | null): Step<HttpAnswer> {
  const failure = (s: SsoState): Step<HttpAnswer> => ({ state: s, answer: { status: 200, body: TOKEN_FAILURE as TokenFailure } });

  if (req.method !== 'POST') return failure(state);
  if (req.contentType === null || !JSON_CONTENT_TYPE.test(req.contentType.trim())) return failure(state);
  if (utf8Length(req.body) > state.settings.maxTokenBodyBytes) return failure(state);
  const parsed = parseStrictJson(req.body);
  if (!parsed.ok) return failure(state);
  const shape = TokenRequestSchema.safeParse(parsed.value);
  if (!shape.success) return failure(state);
  const body = shape.data;

  const record = Object.hasOwn(state.codes, body.code) ? state.codes[body.code]! : null;
  if (!record) return failure(state);

  if (record.status !== 'fresh') {
    if (record.status === 'redeemed' && state.settings.replayRevokesToken && record.tokenIssued) {
      const t = state.tokens[record.tokenIssued]!;
      return failure({ ...state, tokens: { ...state.tokens, [t.token]: { ...t, revoked: true } } });
    }
    return failure(state);
  }
  if (state.nowMs - record.issuedAtMs >= state.settings.codeLifetimeSeconds * 1000) return failure(state);

  const client = state.clients.find((c) => c.clientId === body.clientId);
  const bound =
    client !== undefined &&
    client.clientSecret === body.clientSecret &&
    client.clientId === record.clientId &&
    client.redirectUrl === body.redirectUrl;
  if (!bound) {
    if (!state.settings.failedExchangeConsumesCode) return failure(state);
    return failure({ ...state, codes: { ...state.codes, [record.code]: { ...record, status: 'burned' } } });
  }

  const user = userNamed(state, record.username);
  const fresh = observedToken !== null && observedToken.length > 0 && !(observedToken in state.tokens);
  const token = fresh ? observedToken : NOT_A_FRESH_TOKEN;
  const answer: HttpAnswer = { status: 200, body: tokenResultOf(user, token) as TokenSuccess };
  const codes = { ...state.codes, [record.code]: { ...record, status: 'redeemed' as const, tokenIssued: fresh ? token : null } };
  if (!fresh) return { state: { ...state, codes }, answer };
  const tokenRecord: TokenRecord = { token, username: user.username, sessionKey: record.sessionKey, fromCode: record.code, issuedAtMs: state.nowMs, revoked: false };
  return { state: { ...state, codes, tokens: { ...state.tokens, [token]: tokenRecord } }, answer };
}

// ---- user.profile and auth.status ---------------------------------------------------------

/** The token record a request's Authorization headers name, if the token is still accepted. */
export function acceptedToken(state: SsoState, authorization: readonly string[]): TokenRecord | null {
  const token = bearerTokenOf(authorization);
  if (token === null || !Object.hasOwn(state.tokens, token)) return null;
  const t = state.tokens[token]!;
  if (t.revoked) return null;
  if (state.nowMs - t.issuedAtMs >= state.settings.tokenLifetimeSeconds * 1000) return null;
  return t;
}

export function profile(state: SsoState, authorization: readonly string[]): Step<HttpAnswer> {
  const t = acceptedToken(state, authorization);
  if (!t) return { state, answer: UNAUTHORIZED };
  return { state, answer: { status: 200, body: { ok: true, profile: profileOf(userNamed(state, t.username)) } } };
}

export function status(state: SsoState, authorization: readonly string[], observedSessionId: string | null): Step<HttpAnswer> {
  const t = acceptedToken(state, authorization);
  if (!t) return { state, answer: UNAUTHORIZED };
  const user = userNamed(state, t.username);
  const session = state.sessions[t.sessionKey]!;
  let s = state;
  let sessionId = session.observedSessionId;
  if (sessionId === null) {
    const taken = Object.values(state.sessions).some((x) => x.observedSessionId !== null && x.observedSessionId === observedSessionId);
    if (observedSessionId && !taken) {
      sessionId = observedSessionId;
      s = { ...state, sessions: { ...state.sessions, [session.key]: { ...session, observedSessionId } } };
    } else sessionId = NOT_A_DISTINCT_SESSION_ID;
  }
  return { state: s, answer: { status: 200, body: { ok: true, user: { sessionId, email: user.email, role: user.role } } } };
}

// ---- helpers ------------------------------------------------------------------------------

function userNamed(state: SsoState, username: string): UserRecord {
  const u = state.users.find((x) => x.username === username);
  if (!u) throw new Error(`model invariant: no user ${username}`);
  return u;
}

function mapValues<T>(o: Readonly<Record<string, T>>, f: (v: T) => T): Record<string, T> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
}

const encoder = new TextEncoder();
function utf8Length(s: string): number {
  return encoder.encode(s).length;
}
