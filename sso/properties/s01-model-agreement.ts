import fc from 'fast-check';
import { initialSsoState, type SsoState, type TokenRecord } from '../model/state.ts';
import type { SsoSettings } from '../model/settings.ts';
import { advanceClock, exchange, liveSessionOf, login, logout, profile, status, type FrontAnswer, type HttpAnswer } from '../model/transitions.ts';
import type { FrontObservation } from '../client/driver.ts';
import { bodyOf } from '../client/client.ts';
import { Disagreement, readCodeRedirect, runFcProperty, sameJson, type Counts, type PropertyContext, type SsoProperty } from './kit.ts';

/**
 * The model-based run: fc.commands over login, exchange (good, replayed, wrong secret, wrong
 * URL, other client), profile, status, logout and time passing, across several clients, users
 * and browsers. At every step the target's answer must equal the model's prediction.
 */
interface ModelBox {
  state: SsoState;
  /** Tokens whose code was exchanged again: revoking them is a should (S13), so either reading passes here. */
  replayed: Set<string>;
  counts: Counts;
  /** Every step's transition with the values observed, to replay the run under other settings. */
  history: ((s: SsoState) => SsoState)[];
  /** Codes issued so far, with the index of the client they were issued to. */
  codes: { code: string; client: number }[];
  tokens: string[];
  step: number;
}
interface RealBox {
  ctx: PropertyContext;
  browsers: string[];
  log: string[];
}
type Cmd = fc.AsyncCommand<ModelBox, RealBox>;

const BROWSERS = 3;

/**
 * Fail the step. `predictWith` re-predicts the step under other settings: when one of them
 * explains what was observed, the failure names it.
 */
function fail(m: ModelBox, r: RealBox, what: string, expected: unknown, actual: unknown, predictWith?: (s: SsoState) => unknown): never {
  // The failing step is already the last entry of the history: replay the ones before it.
  const setting = predictWith ? explainingAlternative(m.state, m.history.slice(0, -1), predictWith, actual)?.text : undefined;
  failWith(m, r, what, expected, actual, setting);
}
function failWith(m: ModelBox, r: RealBox, what: string, expected: unknown, actual: unknown, setting: string | undefined, note = ''): never {
  throw new Disagreement(`step ${m.step} (${what}) disagrees with the model${note}; steps so far: ${r.log.join(' → ')}`, expected, actual, setting);
}

/** Alternative values of each open setting that a config can choose. */
function alternatives(settings: SsoSettings): [keyof SsoSettings, unknown][] {
  const out: [keyof SsoSettings, unknown][] = [];
  for (const [k, v] of Object.entries(settings) as [keyof SsoSettings, unknown][]) {
    if (typeof v === 'boolean') out.push([k, !v]);
    if (k === 'loginRedirectStatus' || k === 'logoutRedirectStatus') out.push([k, v === 302 ? 303 : 302]);
  }
  return out;
}

/**
 * The setting under which the model, replaying the whole run so far, predicts what was observed:
 * its description and the state that run reaches under it (to check another endpoint against).
 */
export function explainingAlternative(
  state: SsoState,
  history: readonly ((s: SsoState) => SsoState)[],
  predictWith: (s: SsoState) => unknown,
  observed: unknown,
): { text: string; state: SsoState } | undefined {
  for (const [name, value] of alternatives(state.settings)) {
    const start = initialSsoState({ settings: { ...state.settings, [name]: value }, clients: state.clients, users: state.users });
    const replayed = history.reduce((s, step) => step(s), start);
    if (sameJson(predictWith(replayed), observed)) return { text: `${name} (configured ${JSON.stringify(state.settings[name])}; the service behaves as if it were ${JSON.stringify(value)})`, state: replayed };
  }
  return undefined;
}

/**
 * Pages are compared by kind only: the spec names no status for the login form or its error
 * page (a wrong password may answer 200 with a message, or 401), but a 5xx is never right.
 */
function comparable(o: FrontObservation, registeredUrl?: string): unknown {
  // Parameters a login redirect adds beside the code (`iss`, `state`) are S07's and S09's to judge.
  if (o.kind === 'redirect') return { kind: 'redirect', status: o.status, location: registeredUrl === undefined ? o.location : readCodeRedirect(o.location, registeredUrl).bare };
  return o.status >= 500 ? { kind: 'page', status: o.status } : { kind: 'page' };
}
function predicted(a: FrontAnswer): unknown {
  if (a.kind === 'redirect') return a;
  return { kind: 'page' };
}

class LoginCmd implements Cmd {
  constructor(readonly browser: number, readonly client: number, readonly user: number, readonly typed: 'none' | 'right' | 'wrong-password') {}
  check(m: Readonly<ModelBox>): boolean {
    // Typing credentials into a browser that already has a session is driver-specific (a real
    // browser is redirected before it sees the form), so the run only types into fresh ones.
    return this.typed === 'none' || liveSessionOf(m.state, `b${this.browser}`) === null;
  }
  async run(m: ModelBox, r: RealBox): Promise<void> {
    m.step++;
    r.log.push(this.toString());
    const client = m.state.clients[this.client]!;
    const user = m.state.users[this.user]!;
    const credentials = this.typed === 'none' ? undefined : { username: user.username, password: this.typed === 'right' ? user.password : `${user.password}-wrong` };
    const query: [string, string][] = [['app', client.appId]];
    const seen = await r.ctx.driver.login(r.browsers[this.browser]!, query, credentials);
    const code = seen.kind === 'redirect' ? (readCodeRedirect(seen.location, client.redirectUrl).codes[0] ?? null) : null;
    const req = { browser: `b${this.browser}`, query, ...(credentials ? { credentials } : {}) };
    const next = login(m.state, req, code);
    m.history.push((s) => login(s, req, code).state);
    const observed = comparable(seen, client.redirectUrl);
    if (!sameJson(predicted(next.answer), observed)) fail(m, r, this.toString(), predicted(next.answer), observed, (s) => predicted(login(s, req, code).answer));
    m.state = next.state;
    if (code && next.state.codes[code]) m.codes.push({ code, client: this.client });
  }
  toString(): string {
    return `login(b${this.browser}, client ${this.client}, user ${this.user}, ${this.typed})`;
  }
}

type ExchangeVariant = 'good' | 'wrong-secret' | 'wrong-url' | 'other-client';

class ExchangeCmd implements Cmd {
  constructor(readonly codeIndex: number, readonly variant: ExchangeVariant, readonly otherClient: number) {}
  check(m: Readonly<ModelBox>): boolean {
    return m.codes.length > 0;
  }
  async run(m: ModelBox, r: RealBox): Promise<void> {
    m.step++;
    r.log.push(this.toString());
    // Index 0 is the latest code: shrinking moves towards it, and most steps use a recent code.
    const { code, client: ci } = m.codes[m.codes.length - 1 - (this.codeIndex % m.codes.length)]!;
    const owner = m.state.clients[ci]!;
    const other = m.state.clients[this.otherClient % m.state.clients.length]!;
    const body = { code, redirectUrl: owner.redirectUrl, clientId: owner.clientId, clientSecret: owner.clientSecret };
    if (this.variant === 'wrong-secret') body.clientSecret = `${owner.clientSecret}x`;
    if (this.variant === 'wrong-url') body.redirectUrl = `${owner.redirectUrl}/`;
    if (this.variant === 'other-client') Object.assign(body, { redirectUrl: other.redirectUrl, clientId: other.clientId, clientSecret: other.clientSecret });
    const text = JSON.stringify(body);
    const reply = await r.ctx.client.exchangeRaw({ contentType: 'application/json', body: text });
    const actual = { status: reply.status, body: bodyOf(reply) };
    const token = (actual.body as { ok?: unknown; accessToken?: unknown })?.ok === true ? String((actual.body as { accessToken: unknown }).accessToken) : null;
    const req = { method: 'POST', contentType: 'application/json', body: text };
    const before = m.state.codes[code];
    if (before?.status === 'redeemed' && before.tokenIssued) m.replayed.add(before.tokenIssued);
    let next = exchange(m.state, req, token);
    m.history.push((s) => exchange(s, req, token).state);
    if (!sameJson(next.answer, actual)) {
      // Stricter reading the spec allows: logout also kills the session's outstanding codes.
      const session = before ? m.state.sessions[before.sessionKey] : undefined;
      const killedAtLogout = before?.status === 'fresh' && session?.ended === true && isUniformFailureBody(actual);
      if (!killedAtLogout) fail(m, r, this.toString(), next.answer, actual, (s) => exchange(s, req, token).answer);
      m.counts.add('reading:logout-killed-code');
      next = { state: { ...m.state, codes: { ...m.state.codes, [code]: { ...before!, status: 'burned' } } }, answer: actual };
    }
    m.state = next.state;
    if (token && next.state.tokens[token]) m.tokens.push(token);
  }
  toString(): string {
    return `exchange(${this.codeIndex === 0 ? 'latest code' : `code ${this.codeIndex} back`}, ${this.variant}${this.variant === 'other-client' ? ` ${this.otherClient}` : ''})`;
  }
}

class BearerCmd implements Cmd {
  constructor(readonly endpoint: 'user.profile' | 'auth.status', readonly tokenIndex: number) {}
  check(m: Readonly<ModelBox>): boolean {
    return m.tokens.length > 0;
  }
  async run(m: ModelBox, r: RealBox): Promise<void> {
    m.step++;
    r.log.push(this.toString());
    const auth = [`Bearer ${m.tokens[this.tokenIndex % m.tokens.length]!}`];
    const reply = this.endpoint === 'user.profile' ? await r.ctx.client.profile(auth) : await r.ctx.client.status(auth);
    const body = reply.status === 200 ? bodyOf(reply) : null;
    const observedSessionId = (body as { user?: { sessionId?: unknown } } | null)?.user?.sessionId;
    const predict = (s: SsoState): { state: SsoState; answer: HttpAnswer } =>
      this.endpoint === 'user.profile' ? profile(s, auth) : status(s, auth, typeof observedSessionId === 'string' ? observedSessionId : null);
    let next = predict(m.state);
    m.history.push((s) => predict(s).state);
    const actual = { status: reply.status, body };
    if (!sameJson(next.answer, actual)) {
      // Revoking a replayed code's token is a should (S13 reports it): both readings pass here.
      const token = m.tokens[this.tokenIndex % m.tokens.length]!;
      const record = m.state.tokens[token];
      const reading = record && m.replayed.has(token) ? replayReading(m.state, record, predict, actual) : null;
      if (!reading) return this.failCorroborated(m, r, auth, next.answer, actual, (s) => predict(s).answer);
      m.counts.add(`reading:${reading.name}`);
      next = reading.next;
    }
    m.state = next.state;
  }
  /**
   * A setting may explain this endpoint's answer, but a setting holds for both bearer endpoints:
   * the other one is asked with the same token first, and when it answers as the configured
   * settings predict (a profile served from a cache while auth.status says 401), no setting is named.
   */
  private async failCorroborated(m: ModelBox, r: RealBox, auth: string[], expected: unknown, actual: unknown, predictWith: (s: SsoState) => unknown): Promise<never> {
    const alt = explainingAlternative(m.state, m.history.slice(0, -1), predictWith, actual);
    if (!alt) failWith(m, r, this.toString(), expected, actual, undefined);
    const other = this.endpoint === 'user.profile' ? 'auth.status' : 'user.profile';
    const reply = other === 'user.profile' ? await r.ctx.client.profile(auth) : await r.ctx.client.status(auth);
    const body = reply.status === 200 ? bodyOf(reply) : null;
    const sessionId = (body as { user?: { sessionId?: unknown } } | null)?.user?.sessionId;
    const predictOther = (s: SsoState) => (other === 'user.profile' ? profile(s, auth) : status(s, auth, typeof sessionId === 'string' ? sessionId : null)).answer;
    const seen = { status: reply.status, body };
    if (sameJson(predictOther(alt.state), seen)) failWith(m, r, this.toString(), expected, actual, alt.text);
    const configured = sameJson(predictOther(m.state), seen) ? ', as the configured settings predict' : '';
    failWith(m, r, this.toString(), expected, actual, undefined, `; ${other} answered ${reply.status} for the same token${configured}, so no setting explains it: a fault`);
  }
  toString(): string {
    return `${this.endpoint}(token #${this.tokenIndex})`;
  }
}

/** The model state under the other reading of replay revocation, if that reading gives the observed answer. */
function replayReading(
  state: SsoState,
  record: TokenRecord,
  predict: (s: SsoState) => { state: SsoState; answer: HttpAnswer },
  actual: HttpAnswer,
): { name: string; next: { state: SsoState; answer: HttpAnswer } } | null {
  const loggedOut = state.sessions[record.sessionKey]?.ended === true && state.settings.logoutRevokesTokens;
  const flipped = { ...record, revoked: record.revoked ? loggedOut : true };
  if (flipped.revoked === record.revoked) return null;
  const alt = predict({ ...state, tokens: { ...state.tokens, [record.token]: flipped } });
  if (!sameJson(alt.answer, actual)) return null;
  return { name: flipped.revoked ? 'replay-revoked-token' : 'replay-kept-token', next: alt };
}

function isUniformFailureBody(a: { status: number; body: unknown }): boolean {
  return a.status === 200 && sameJson(a.body, { ok: false, error: 'AUTH0001' });
}

class LogoutCmd implements Cmd {
  constructor(readonly browser: number, readonly client: number) {}
  check(): boolean {
    return true;
  }
  async run(m: ModelBox, r: RealBox): Promise<void> {
    m.step++;
    r.log.push(this.toString());
    const query: [string, string][] = [['app', m.state.clients[this.client]!.appId]];
    const seen = await r.ctx.driver.logout(r.browsers[this.browser]!, query);
    const req = { browser: `b${this.browser}`, query };
    const next = logout(m.state, req);
    m.history.push((s) => logout(s, req).state);
    if (!sameJson(predicted(next.answer), comparable(seen))) fail(m, r, this.toString(), predicted(next.answer), comparable(seen), (s) => predicted(logout(s, req).answer));
    m.state = next.state;
  }
  toString(): string {
    return `logout(b${this.browser}, client ${this.client})`;
  }
}

class AdvanceClockCmd implements Cmd {
  constructor(readonly ms: number) {}
  check(): boolean {
    return true;
  }
  async run(m: ModelBox, r: RealBox): Promise<void> {
    m.step++;
    r.log.push(this.toString());
    await r.ctx.client.advanceClock(this.ms);
    m.state = advanceClock(m.state, this.ms);
    m.history.push((s) => advanceClock(s, this.ms));
  }
  toString(): string {
    return `advanceClock(${this.ms} ms)`;
  }
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Clock steps are multiples of the greatest common divisor of all lifetimes, so a model age is
 * either past a lifetime or at least one step short of it: the real milliseconds that pass
 * during a run can never tip a verdict.
 */
export function clockStepMs(settings: SsoState['settings']): number {
  return 1000 * gcd(gcd(settings.codeLifetimeSeconds, settings.tokenLifetimeSeconds), settings.sessionLifetimeSeconds);
}

export function ssoCommands(ctx: PropertyContext, maxCommands = 25): fc.Arbitrary<Iterable<Cmd>> {
  const { clients, users, settings } = ctx.config;
  const client = fc.nat({ max: clients.length - 1 });
  const browser = fc.nat({ max: BROWSERS - 1 });
  const step = clockStepMs(settings);
  const exchangeCmd = fc
    .tuple(fc.oneof(fc.nat({ max: 1 }), fc.nat()), fc.constantFrom('good', 'good', 'good', 'wrong-secret', 'wrong-url', 'other-client') as fc.Arbitrary<ExchangeVariant>, client)
    .map(([i, v, o]) => new ExchangeCmd(i, v, o));
  const list: fc.Arbitrary<Cmd>[] = [
    fc.tuple(browser, client, fc.nat({ max: users.length - 1 }), fc.constantFrom('none', 'right', 'right', 'wrong-password') as fc.Arbitrary<LoginCmd['typed']>).map(([b, c, u, t]) => new LoginCmd(b, c, u, t)),
    exchangeCmd,
    exchangeCmd, // twice: exchanges carry most of the rules
    fc.tuple(fc.constantFrom('user.profile', 'auth.status') as fc.Arbitrary<'user.profile' | 'auth.status'>, fc.nat()).map(([e, i]) => new BearerCmd(e, i)),
    fc.tuple(browser, client).map(([b, c]) => new LogoutCmd(b, c)),
  ];
  if (ctx.control) {
    const codeSteps = Math.ceil((settings.codeLifetimeSeconds * 1000) / step);
    const tokenSteps = Math.ceil((settings.tokenLifetimeSeconds * 1000) / step);
    list.push(fc.oneof(fc.integer({ min: 1, max: codeSteps + 1 }), fc.constant(tokenSteps)).map((k) => new AdvanceClockCmd(k * step)));
  }
  // 'medium' gives sequences of about 12 steps; the default ('small') gives 4 or 5, too short to
  // reach orders such as login → failed exchange → good exchange of the same code.
  return fc.commands(list, { maxCommands, size: 'medium' });
}

let runCounter = 0;

export const S01: SsoProperty = {
  id: 'S01',
  title: 'The target agrees with the model at every step of generated login/exchange/profile/status/logout/clock sequences',
  severity: 'M',
  needsTokenResult: true,
  run: (ctx, opts) =>
    runFcProperty(S01, opts, ssoCommands(ctx), async (cmds, counts) => {
      const run = ++runCounter;
      const setup = () => ({
        model: { state: initialSsoState({ settings: ctx.config.settings, clients: ctx.config.clients, users: ctx.config.users }), replayed: new Set(), counts, history: [], codes: [], tokens: [], step: 0 } as ModelBox,
        real: { ctx, browsers: Array.from({ length: BROWSERS }, () => `${ctx.newBrowser()}-m${run}`), log: [] } as RealBox,
      });
      await fc.asyncModelRun(setup, cmds);
      counts.add('sequences');
      for (const c of cmds) counts.add(String(c).split('(')[0]!);
    }),
};
