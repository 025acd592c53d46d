import fc from 'fast-check';
import type { PropertyResult } from '../../engine/runner/result.ts';
import type { SsoConfig } from '../config.ts';
import type { SsoClient } from '../client/client.ts';
import type { FrontObservation, LoginDriver } from '../client/driver.ts';
import { BudgetExhausted, TargetRefused, TransportError, type PacedHttp } from '../client/http.ts';
import { redirectWithCode } from '../model/front-channel.ts';
import { TokenSuccessSchema, type ClientRegistration, type TokenRequest, type UserRecord } from '../model/schemas.ts';

/** What an SSO property runs against: any deployment, reached through a client and a driver. */
export interface PropertyContext {
  config: SsoConfig;
  client: SsoClient;
  driver: LoginDriver;
  http: PacedHttp;
  webUrl: string;
  /** The target has the emulator's control API, so its clock can be moved. */
  control: boolean;
  /** A browser name never used before (a fresh cookie jar). */
  newBrowser(): string;
  /**
   * Real-time mode: without a control API, expiry is checked by waiting past the configured
   * lifetimes, at most `maxWaitMs` per property. Absent: expiry needs the control API.
   */
  realTime?: { maxWaitMs: number };
}

export interface PropertyRunOptions {
  seed: number;
  numRuns: number;
  /** fast-check replay path of a reported failure (with the same seed). */
  path?: string;
  /** Called after every case (the driver closes that case's browsers). */
  afterCase?: () => Promise<void>;
  /** Aborted when the run is asked to stop (Ctrl-C, SIGTERM): no further case starts; what ran is reported cut short. */
  signal?: AbortSignal;
  /** The property's share of the time budget (epoch ms): no case starts after it; what ran is reported cut short. */
  deadline?: number;
}

/** The run was asked to stop; the property did not finish and has no verdict. */
export class RunStopped extends Error {
  override name = 'RunStopped';
}

/** The property's share of the time budget is spent: like the request cap, a limit, not a fault. */
class OutOfTime extends Error {
  override name = 'OutOfTime';
}
/** Why a property its share of the budget stopped: its note says so (cutShort). */
export const TIME_BUDGET = 'time budget' as const;

export type Severity = 'M' | 'S';

export interface SsoProperty {
  id: string;
  title: string;
  /** M: a must (fails the run); S: a should (reported, does not fail `sso check`'s exit code). */
  severity: Severity;
  /**
   * It reads the access token (or the identity fields) of auth.token's answer: when that answer
   * drifted from the spec's schema (a renamed field), it has nothing to run on and says so; one
   * property reports the drift itself (see runSsoProperties).
   */
  needsTokenResult?: true;
  run(ctx: PropertyContext, opts: PropertyRunOptions): Promise<PropertyResult>;
}

/** The target answered something other than what the property demands. */
export class Disagreement extends Error {
  override name = 'Disagreement';
  constructor(
    message: string,
    readonly expected: unknown,
    readonly actual: unknown,
    /** The open setting (or reading) that would explain the difference, when one exists. */
    readonly setting?: string,
  ) {
    super(message);
  }
}

export function expectThat(ok: boolean, message: string, expected: unknown, actual: unknown, setting?: string): void {
  if (!ok) throw new Disagreement(message, expected, actual, setting);
}

/** Two JSON values are the same structure: member order does not count, array order does. */
export function sameJson(a: unknown, b: unknown): boolean {
  return structuralDiff(a, b).length === 0;
}

/**
 * Where two JSON values differ, as `path: expected → observed` lines (member order ignored).
 * Reports print it so expected and observed can be read side by side.
 */
export function structuralDiff(expected: unknown, observed: unknown, path = '$'): string[] {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(expected) !== kind(observed)) return [`${path}: ${show(expected)} → ${show(observed)}`];
  if (Array.isArray(expected)) {
    const o = observed as unknown[];
    const out: string[] = [];
    for (let i = 0; i < Math.max(expected.length, o.length); i++) {
      if (i >= expected.length) out.push(`${path}[${i}]: (absent) → ${show(o[i])}`);
      else if (i >= o.length) out.push(`${path}[${i}]: ${show(expected[i])} → (absent)`);
      else out.push(...structuralDiff(expected[i], o[i], `${path}[${i}]`));
    }
    return out;
  }
  if (kind(expected) === 'object') {
    const e = expected as Record<string, unknown>;
    const o = observed as Record<string, unknown>;
    const out: string[] = [];
    for (const k of new Set([...Object.keys(e), ...Object.keys(o)])) {
      if (!Object.hasOwn(o, k)) out.push(`${path}.${k}: ${show(e[k])} → (absent)`);
      else if (!Object.hasOwn(e, k)) out.push(`${path}.${k}: (absent) → ${show(o[k])}`);
      else out.push(...structuralDiff(e[k], o[k], `${path}.${k}`));
    }
    return out;
  }
  return Object.is(expected, observed) ? [] : [`${path}: ${show(expected)} → ${show(observed)}`];
}

/** The message, the setting that would explain the difference, and the structural diff (one per line). */
export function failureMessage(d: Disagreement): string {
  const lines = [d.message];
  if (d.setting) lines.push(`a setting or a fault: what was observed matches setting ${d.setting}; if your service is meant to do this, set it so in the config's "settings", otherwise it is a fault to fix`);
  const diff = structuralDiff(d.expected, d.actual);
  if (diff.length) lines.push('diff (expected → observed):', ...diff.slice(0, 12).map((l) => `  ${l}`), ...(diff.length > 12 ? [`  … ${diff.length - 12} more`] : []));
  return lines.join('\n');
}

function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
}

/** Counts of outcome classes, as PropertyResult.counts. */
export class Counts {
  readonly values: Record<string, number> = {};
  add(key: string, n = 1): void {
    this.values[key] = (this.values[key] ?? 0) + n;
  }
}

/**
 * Run one fast-check property and report it as a PropertyResult. A Disagreement becomes a
 * failure with seed, path, the shrunk case as plain data, expected and actual; a refusing or
 * silent target becomes an error, a spent request cap a PARTIAL (never a pass).
 */
export async function runFcProperty<T>(
  meta: { id: string; title: string },
  opts: PropertyRunOptions,
  arb: fc.Arbitrary<T>,
  check: (value: T, counts: Counts) => Promise<void>,
  extra: {
    numRuns?: number;
    note?: string;
    examples?: T[];
    /**
     * false: stop at the first failing case, unshrunk. For a check whose verdict rests on the
     * values earlier cases saw (uniqueness, closeness): a shrunk case means nothing alone, and
     * shrinking would add values of its own to the run's figures, so its note could contradict
     * the finding.
     */
    shrink?: false;
  } = {},
): Promise<PropertyResult> {
  const counts = new Counts();
  const started = Date.now();
  let stopping: Error | null = null;
  // Once a case has failed, fast-check shrinks it: a stop then must not make an unchecked case the
  // counterexample. An interrupt passes the remaining candidates unchecked instead, so shrinking
  // ends at once on the smallest case that really failed, and the finding is kept.
  let failed = false;
  const prop = fc.asyncProperty(arb, async (v) => {
    if (failed && opts.signal?.aborted) return;
    if (!stopping && !failed && opts.signal?.aborted) stopping = new RunStopped('interrupted');
    if (!stopping && !failed && opts.deadline !== undefined && Date.now() >= opts.deadline) stopping = new OutOfTime(TIME_BUDGET);
    if (stopping) throw stopping;
    try {
      await check(v, counts);
    } catch (e) {
      // Out of budget, refused, no answer at all, or a browser step timed out: an environment
      // problem, so stop instead of shrinking against it.
      if (e instanceof BudgetExhausted || e instanceof TargetRefused || e instanceof TransportError || (e instanceof Error && e.name === 'TimeoutError')) stopping = e;
      else failed = true;
      throw e;
    } finally {
      await opts.afterCase?.();
    }
  });
  const numRuns = extra.numRuns ?? opts.numRuns;
  // Examples run first, on top of numRuns: one per variant, so no variant is left to chance.
  const examples = (extra.examples ?? []).map((e) => [e] as [T]);
  // fast-check counts examples within numRuns: add them so the generated cases keep their number.
  const details = await fc.check(prop, { seed: opts.seed, numRuns: numRuns + examples.length, examples, ...(opts.path ? { path: opts.path, endOnFailure: true } : {}), ...(extra.shrink === false ? { endOnFailure: true } : {}) });
  const base = { id: meta.id, title: meta.title, area: 'sso' as const, counts: counts.values, seed: opts.seed, durationMs: Date.now() - started };
  // The request cap, the time budget and an interrupt are limits, not faults: what ran is reported, cut short.
  const limit = stopping as Error | null;
  if (limit instanceof BudgetExhausted || limit instanceof OutOfTime || limit instanceof RunStopped) return cutShort(base, details.numRuns - 1, numRuns + examples.length, limit.message);
  if (stopping) return { ...base, status: 'error', cases: details.numRuns, note: `environment problem, not a finding: ${(stopping as Error).message} (${extra.note ?? 'stopped early'})` };
  if (!details.failed) return { ...base, status: 'passed', cases: details.numRuns, ...(extra.note ? { note: extra.note } : {}) };
  const err = details.errorInstance;
  const disagreement = err instanceof Disagreement ? err : null;
  return {
    ...base,
    status: disagreement ? 'failed' : 'error',
    cases: details.numRuns,
    failure: {
      seed: details.seed,
      path: details.counterexamplePath ?? '',
      counterexample: toPlain(details.counterexample?.[0]),
      expected: disagreement?.expected,
      actual: disagreement?.actual,
      message: disagreement ? failureMessage(disagreement) : `the check itself threw: ${err instanceof Error ? err.message : String(err)}`,
    },
    ...(disagreement ? {} : { note: 'the check could not run to a verdict' }),
  };
}

/**
 * One concrete case per variant (deterministic for a seed): `wrap` builds the whole case around a
 * variant's arbitrary. Passed as `examples`, they make every variant run in every run.
 */
export function oneCasePerVariant<V, T>(variants: readonly fc.Arbitrary<V>[], wrap: (variant: fc.Arbitrary<V>) => fc.Arbitrary<T>, seed: number): T[] {
  return variants.map((v, i) => fc.sample(wrap(v), { seed: (seed + i * 7919) | 0, numRuns: 1 })[0]!);
}

/**
 * A property the request cap stopped: PARTIAL with the cases that ran to the end (the one under
 * way when the cap was reached is not counted), NOT REACHED when none did.
 */
export function cutShort(base: Omit<PropertyResult, 'status' | 'cases'>, cases: number, planned: number, why: string): PropertyResult {
  const n = Math.max(0, cases);
  // As the data half's: the console shows ran/planned and names the properties the budget cut.
  const stopped = why === TIME_BUDGET || why === 'interrupted' ? { stopped: why as NonNullable<PropertyResult['stopped']> } : {};
  return n === 0
    ? { ...base, status: 'not-reached', cases: 0, planned, ...stopped, note: `not reached: ${why} before its first case` }
    : { ...base, status: 'partial', cases: n, planned, ...stopped, note: `partial (${n} of ${planned} cases): ${why}` };
}

export function notApplicable(meta: { id: string; title: string }, seed: number, note: string): PropertyResult {
  return { id: meta.id, title: meta.title, area: 'sso', status: 'not-applicable', cases: 0, counts: {}, durationMs: 0, seed, note };
}

/** Shrunk cases as plain data: objects with their own toString (commands) become strings. */
export function toPlain(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return typeof v === 'bigint' ? String(v) : v;
  if (Array.isArray(v)) return v.map(toPlain);
  // Registered clients and users appear by name: reports must not repeat secrets and passwords.
  const o = v as Record<string, unknown>;
  if (typeof o['appId'] === 'string' && 'clientSecret' in o) return `client ${o['appId']}`;
  if (typeof o['username'] === 'string' && 'password' in o) return `user ${o['username']}`;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null && typeof (v as object).toString === 'function' && (v as object).toString !== Object.prototype.toString) {
    return String(v);
  }
  if (proto !== Object.prototype && proto !== null) return String(v);
  return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, toPlain(x)]));
}

// ---- common steps -------------------------------------------------------------------------

export function goodTokenRequest(client: ClientRegistration, code: string): TokenRequest {
  return { code, redirectUrl: client.redirectUrl, clientId: client.clientId, clientSecret: client.clientSecret };
}

/** The `code` values a redirect carries beyond those already in the registered URL. */
export function codesIn(location: string, registeredUrl: string): string[] {
  try {
    const got = new URL(location).searchParams.getAll('code');
    const had = new URL(registeredUrl).searchParams.getAll('code');
    return got.slice(had.length);
  } catch {
    return [];
  }
}

/** A post-login redirect read against a registered Redirect URL. */
export interface CodeRedirect {
  /** The `code` values added to the registered URL. */
  codes: string[];
  /**
   * Every other parameter added (RFC 9207's `iss`, an echoed `state`, a `session_state`…), in
   * order and decoded: S07 judges `iss` and `state`, S09 looks for secrets in all of them.
   */
  extras: [string, string][];
  /** The location with those extras taken out, byte for byte otherwise. */
  bare: string;
  /** The bare location is exactly the registered URL with one code added. */
  onTarget: boolean;
}

/**
 * The one reading of a post-login redirect: any redirect to the registered URL that carries
 * exactly one code is a login, whatever other parameters the service adds; the properties
 * judge those parameters, not the login.
 */
export function readCodeRedirect(location: string, registeredUrl: string): CodeRedirect {
  const hash = location.indexOf('#');
  const head = hash < 0 ? location : location.slice(0, hash);
  const fragment = hash < 0 ? '' : location.slice(hash);
  const q = head.indexOf('?');
  let registeredKeys: Set<string>;
  try {
    registeredKeys = new Set(new URL(registeredUrl).searchParams.keys());
  } catch {
    registeredKeys = new Set();
  }
  const extras: [string, string][] = [];
  let bare = location;
  if (q >= 0) {
    const kept: string[] = [];
    for (const part of head.slice(q + 1).split('&')) {
      const pair = [...new URLSearchParams(part)][0];
      if (pair && pair[0] !== 'code' && !registeredKeys.has(pair[0])) extras.push(pair);
      else kept.push(part);
    }
    bare = `${head.slice(0, q)}${kept.length ? `?${kept.join('&')}` : ''}${fragment}`;
  }
  const codes = codesIn(bare, registeredUrl);
  return { codes, extras, bare, onTarget: codes.length === 1 && bare === redirectWithCode(registeredUrl, codes[0]!) };
}

/** The `iss` values (RFC 9207) that name this service: the config's `issuer`, else its web URL or that URL's origin. */
export function issuerValues(ctx: PropertyContext): string[] {
  if (ctx.config.issuer !== undefined) return [ctx.config.issuer];
  const origin = new URL(ctx.webUrl).origin;
  return [ctx.webUrl, `${ctx.webUrl}/`, origin, `${origin}/`];
}

/** Log `user` in to `client` in a new browser; the answer must be a redirect to its Redirect URL with exactly one code. */
export async function freshLogin(ctx: PropertyContext, client: ClientRegistration, user: UserRecord): Promise<{ browser: string; code: string; seen: FrontObservation }> {
  const browser = ctx.newBrowser();
  const seen = await ctx.driver.login(browser, [['app', client.appId]], { username: user.username, password: user.password });
  const read = seen.kind === 'redirect' ? readCodeRedirect(seen.location, client.redirectUrl) : null;
  expectThat(
    read?.onTarget === true,
    `a login of ${user.username} to ${client.appId} must redirect to its Redirect URL with one code`,
    { kind: 'redirect', location: redirectWithCode(client.redirectUrl, '<code>') },
    seen,
  );
  return { browser, code: read!.codes[0]!, seen };
}

/** Log in and exchange the code; the exchange must succeed, in the spec's shape. */
export async function freshToken(ctx: PropertyContext, client: ClientRegistration, user: UserRecord): Promise<{ browser: string; code: string; token: string; seen: FrontObservation }> {
  const { browser, code, seen } = await freshLogin(ctx, client, user);
  const { reply, parsed } = await ctx.client.exchange(goodTokenRequest(client, code));
  expectSuccessfulExchange(reply, parsed);
  return { browser, code, seen, token: (parsed as { accessToken: string }).accessToken };
}

/**
 * A good exchange must succeed in the spec's shape. A success whose shape drifted (a renamed or
 * missing field) says so, naming the field, instead of "must succeed".
 */
export function expectSuccessfulExchange(reply: { status: number; text: string; headers: Record<string, string | string[] | undefined> }, parsed: { ok: boolean } | null): void {
  if (parsed?.ok === true) return;
  const drift = tokenDrift(reply);
  if (drift) throw new Disagreement(drift.message, drift.expected, drift.actual);
  throw new Disagreement('the first exchange of a fresh code with the right credentials must succeed', { status: 200, body: { ok: true } }, { status: reply.status, body: bodyOfText(reply.text) });
}

/** HTTP 200 with a JSON object whose `ok` is true: the service said the exchange succeeded (whatever its other fields). */
export function isSuccessAnswer(reply: { status: number; text: string }): boolean {
  if (reply.status !== 200) return false;
  try {
    const v = JSON.parse(reply.text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as { ok?: unknown }).ok === true;
  } catch {
    return false;
  }
}

/** How a success answer of auth.token drifted from the spec's schema: each field named. */
export interface TokenDrift {
  message: string;
  /** The spec's fields and their types. */
  expected: Record<string, string>;
  /** The fields the answer has, and their types (values left out: one is a token). */
  actual: Record<string, string>;
}

/**
 * A success answer (200, JSON, `ok: true`) that does not follow the spec's schema, described by
 * field: absent (and what is there instead when it looks renamed, e.g. `access_token`) or of
 * another type. Null when the answer is not a success or follows the schema.
 */
export function tokenDrift(reply: { status: number; text: string; headers?: Record<string, string | string[] | undefined> }): TokenDrift | null {
  if (!isSuccessAnswer(reply)) return null;
  const body = JSON.parse(reply.text) as Record<string, unknown>;
  if (TokenSuccessSchema.safeParse(body).success) return null;
  const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  const fold = (k: string) => k.toLowerCase().replace(/[_-]/g, '');
  const spec = Object.keys(TokenSuccessSchema.shape);
  const unknown = Object.keys(body).filter((k) => !spec.includes(k));
  const problems: string[] = [];
  for (const field of spec) {
    if (field === 'ok') continue;
    const v = body[field];
    if (!Object.hasOwn(body, field)) {
      const renamed = unknown.find((k) => fold(k) === fold(field));
      problems.push(`${field} is absent${renamed ? ` (${renamed} is there instead: renamed?)` : ''}`);
    } else if (typeof v !== 'string' || (field === 'accessToken' && v === '')) problems.push(`${field} is ${typeof v === 'string' ? 'empty' : `a ${typeOf(v)}`}, not a string`);
  }
  return {
    message: `schema drift: auth.token's success answer does not follow the spec's schema: ${problems.join('; ')}`,
    expected: Object.fromEntries(spec.map((k) => [k, k === 'ok' ? 'true' : 'string'])),
    actual: Object.fromEntries(Object.entries(body).map(([k, v]) => [k, k === 'ok' ? String(v) : typeOf(v)])),
  };
}

function bodyOfText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  }
}

export const TOKEN_FAILURE_JSON = JSON.stringify({ ok: false, error: 'AUTH0001' });

/** The uniform failure: HTTP 200, exactly `{ok:false,error:"AUTH0001"}`. */
export function isUniformFailure(reply: { status: number; text: string }): boolean {
  if (reply.status !== 200) return false;
  try {
    return sameJson(JSON.parse(reply.text), { ok: false, error: 'AUTH0001' });
  } catch {
    return false;
  }
}

export function replySummary(reply: { status: number; text: string }): { status: number; body: string } {
  return { status: reply.status, body: reply.text.length > 300 ? `${reply.text.slice(0, 300)}…` : reply.text };
}

export const pickClient = (ctx: PropertyContext) => fc.constantFrom(...ctx.config.clients);
export const pickUser = (ctx: PropertyContext) => fc.constantFrom(...ctx.config.users);
/** Two different clients. */
export const pickClientPair = (ctx: PropertyContext) =>
  fc
    .tuple(fc.nat({ max: ctx.config.clients.length - 1 }), fc.nat({ max: ctx.config.clients.length - 2 }))
    .map(([a, b]) => [ctx.config.clients[a]!, ctx.config.clients[b >= a ? b + 1 : b]!] as const);
