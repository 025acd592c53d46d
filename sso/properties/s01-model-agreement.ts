import fc from 'fast-check';
import { initialSsoState, type SsoState } from '../model/state.ts';
import { advanceClock, exchange, liveSessionOf, login, logout, profile, status, type FrontAnswer, type HttpAnswer } from '../model/transitions.ts';
import type { FrontObservation } from '../client/driver.ts';
import { bodyOf } from '../client/client.ts';
import { codesIn, Disagreement, runFcProperty, sameJson, type PropertyContext, type SsoProperty } from './kit.ts';

/**
 * The model-based run: fc.commands over login, exchange (good, replayed, wrong secret, wrong
 * URL, other client), profile, status, logout and time passing, across several clients, users
 * and browsers. At every step the target's answer must equal the model's prediction.
 */
interface ModelBox {
  state: SsoState;
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

function fail(m: ModelBox, r: RealBox, what: string, expected: unknown, actual: unknown): never {
  throw new Disagreement(`step ${m.step} (${what}) disagrees with the model; steps so far: ${r.log.join(' → ')}`, expected, actual);
}

function comparable(o: FrontObservation, withPageStatus: boolean): unknown {
  if (o.kind === 'redirect') return { kind: 'redirect', status: o.status, location: o.location };
  return withPageStatus ? { kind: 'page', status: o.status } : { kind: 'page' };
}
function predicted(a: FrontAnswer, withPageStatus: boolean): unknown {
  if (a.kind === 'redirect') return a;
  return withPageStatus ? { kind: 'page', status: a.status } : { kind: 'page' };
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
    const code = seen.kind === 'redirect' ? (codesIn(seen.location, client.redirectUrl)[0] ?? null) : null;
    const next = login(m.state, { browser: `b${this.browser}`, query, ...(credentials ? { credentials } : {}) }, code);
    const exact = r.ctx.control;
    if (!sameJson(predicted(next.answer, exact), comparable(seen, exact))) fail(m, r, this.toString(), predicted(next.answer, exact), comparable(seen, exact));
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
    const next = exchange(m.state, { method: 'POST', contentType: 'application/json', body: text }, token);
    if (!sameJson(next.answer, actual)) fail(m, r, this.toString(), next.answer, actual);
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
    const next: { state: SsoState; answer: HttpAnswer } =
      this.endpoint === 'user.profile' ? profile(m.state, auth) : status(m.state, auth, typeof observedSessionId === 'string' ? observedSessionId : null);
    const actual = { status: reply.status, body };
    if (!sameJson(next.answer, actual)) fail(m, r, this.toString(), next.answer, actual);
    m.state = next.state;
  }
  toString(): string {
    return `${this.endpoint}(token #${this.tokenIndex})`;
  }
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
    const next = logout(m.state, { browser: `b${this.browser}`, query });
    const exact = r.ctx.control;
    if (!sameJson(predicted(next.answer, exact), comparable(seen, exact))) fail(m, r, this.toString(), predicted(next.answer, exact), comparable(seen, exact));
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
  run: (ctx, opts) =>
    runFcProperty(S01, opts, ssoCommands(ctx), async (cmds, counts) => {
      const run = ++runCounter;
      const setup = () => ({
        model: { state: initialSsoState({ settings: ctx.config.settings, clients: ctx.config.clients, users: ctx.config.users }), codes: [], tokens: [], step: 0 } as ModelBox,
        real: { ctx, browsers: Array.from({ length: BROWSERS }, () => `${ctx.newBrowser()}-m${run}`), log: [] } as RealBox,
      });
      await fc.asyncModelRun(setup, cmds);
      counts.add('sequences');
      for (const c of cmds) counts.add(String(c).split('(')[0]!);
    }),
};
