import type { PropertyResult } from '../engine/run/index.ts';
import { runSsoProperties, severityOf, SSO_PROPERTIES } from '../sso/properties/index.ts';
import { BrowserUnavailable } from '../sso/client/browser-unavailable.ts';
import { loadSsoConfig, SsoConfigError } from '../sso/config.ts';
import { startEmulator, type RunningEmulator } from '../sso/emulator/server.ts';
import { SSO_FAULTS, type SsoFault } from '../sso/emulator/faults/index.ts';
import { PreflightFailed } from '../sso/client/preflight.ts';
import { BudgetExhausted, TargetRefused, TransportError } from '../sso/client/http.ts';
import { samplePeakMemory } from '../sso/client/memory.ts';
import { INTERRUPTED_EXIT_CODE, InterruptWatch } from '../engine/db/cleanup.ts';
import { EXPIRY_WAIT_BOUND_S } from './sso-defaults.ts';

/** Where command output goes (the console, or a test's buffer). */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}
const consoleOutput: Output = { out: (l) => console.log(l), err: (l) => console.error(l) };

/** Bad command-line input: exit code 2 with this message, no stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface ServeOptions {
  config: string;
  port?: string;
  autoLogin?: string;
  fault?: string[];
}

/** `sso serve`: start the emulator and keep it running. Returns it (tests close it). */
export async function ssoServe(opts: ServeOptions, io: Output = consoleOutput): Promise<RunningEmulator> {
  const config = await loadSsoConfig(opts.config);
  const port = opts.port === undefined ? 0 : intOption('--port', opts.port, 0, 65535);
  const faults = (opts.fault ?? []).map((f) => {
    if (!(SSO_FAULTS as readonly string[]).includes(f)) throw new UsageError(`--fault: unknown fault ${JSON.stringify(f)} (known: ${SSO_FAULTS.join(', ')})`);
    return f as SsoFault;
  });
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator({ config, port, faults, ...(opts.autoLogin !== undefined ? { autoLogin: opts.autoLogin } : {}) });
  } catch (e) {
    throw new UsageError((e as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `--port ${port} is already in use` : (e as Error).message);
  }
  io.out(`policyfuzz SSO emulator on 127.0.0.1:${emulator.port}`);
  io.out(`  sso_web_url  ${emulator.webUrl}    (login: ${emulator.webUrl}/login?app=${config.clients[0]!.appId})`);
  io.out(`  sso_api_url  ${emulator.apiUrl}    (control API: ${emulator.apiUrl}/__control/)`);
  io.out(`  clients: ${config.clients.map((c) => c.appId).join(', ')}; users: ${config.users.map((u) => u.username).join(', ')}`);
  if (opts.autoLogin) io.out(`  auto-login as ${opts.autoLogin}`);
  if (faults.length || config.faults.length) io.out(`  FAULTS ENABLED (tests only): ${[...config.faults, ...faults].join(', ')}`);
  return emulator;
}

export interface CheckOptions {
  web: string;
  api: string;
  config: string;
  seed?: string;
  runs?: string;
  maxRequests?: string;
  throttleMs?: string;
  timeoutMs?: string;
  browser?: boolean;
  only?: string;
  path?: string;
  controlApi?: boolean;
  /** Accepted for older command lines: waiting for expiry is the default without a control API. */
  realTime?: boolean;
  maxWait?: string;
  /** `--no-wait` sets it false: S06 does not wait for expiry (N/A). */
  wait?: boolean;
  /** --time-budget, in ms (durationValue). */
  timeBudget?: number;
}

/** `sso check`: run the properties against a deployment; prints one line per property; returns the exit code. */
export async function ssoCheck(opts: CheckOptions, io: Output = consoleOutput): Promise<{ exitCode: number; results: PropertyResult[] }> {
  const webUrl = urlOption('--web', opts.web);
  const apiUrl = urlOption('--api', opts.api);
  const config = await loadSsoConfig(opts.config);
  const seed = opts.seed === undefined ? undefined : intOption('--seed', opts.seed, -(2 ** 31), 2 ** 31 - 1);
  const numRuns = opts.runs === undefined ? 25 : intOption('--runs', opts.runs, 1, 100_000);
  const maxRequests = opts.maxRequests === undefined ? undefined : intOption('--max-requests', opts.maxRequests, 1, 10_000_000);
  const throttleMs = opts.throttleMs === undefined ? undefined : intOption('--throttle-ms', opts.throttleMs, 0, 600_000);
  const timeoutMs = opts.timeoutMs === undefined ? undefined : intOption('--timeout-ms', opts.timeoutMs, 1, 600_000);
  const maxWaitMs = (opts.maxWait === undefined ? EXPIRY_WAIT_BOUND_S : intOption('--max-wait', opts.maxWait, 1, 24 * 3600)) * 1000;
  if (opts.wait === false && opts.realTime) throw new UsageError('--real-time waits for expiry and --no-wait skips it: give one of them');
  if (opts.wait === false && opts.maxWait !== undefined) throw new UsageError('--max-wait bounds the expiry wait that --no-wait turns off: give one of them');
  const only = opts.only ? opts.only.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean) : undefined;
  const known = SSO_PROPERTIES.map((p) => p.id);
  const unknown = (only ?? []).filter((id) => !known.includes(id));
  if (unknown.length) throw new UsageError(`--only: unknown property ${unknown.join(', ')} (known: ${known.join(', ')})`);
  if (opts.path && (!only || only.length !== 1 || seed === undefined)) throw new UsageError('--path replays one failure: give it with --seed and --only naming one property');

  io.out('M = must (FAIL exits 1), S = should (WARN, exit 0)');
  // Without a control API, expiry is checked by waiting the configured lifetimes out (unless
  // --no-wait): said at the start, since the run then takes that long.
  const realTime = !opts.controlApi && opts.wait !== false;
  if (realTime && (!only || only.includes('S06'))) io.out(expiryWaitNotice(config.settings, maxWaitMs));
  const started = Date.now();
  const memory = samplePeakMemory();
  // Ctrl-C, SIGTERM: finish the request under way, report the property under way cut short
  // (PARTIAL) and what ran, exit 130. A second signal stops at once (engine/db/cleanup.ts).
  const interrupt = new InterruptWatch('the request in flight', (line) => io.err(line)).arm();
  const deadline = opts.timeBudget ? started + opts.timeBudget : undefined;
  const results = await runSsoProperties(
    { webUrl, apiUrl, config, driver: opts.browser ? 'browser' : 'form', control: opts.controlApi === true, ...(realTime ? { realTime: { maxWaitMs } } : {}), ...(maxRequests !== undefined ? { maxRequests } : {}), ...(throttleMs !== undefined ? { throttleMs } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}) },
    { ...(seed !== undefined ? { seed } : {}), numRuns, signal: interrupt.signal, onResult: (r) => printResult(r, io), ...(only ? { only } : {}), ...(opts.path ? { path: opts.path } : {}), ...(deadline !== undefined ? { deadline } : {}) },
  ).finally(() => interrupt.end());
  const peakMb = Math.round(memory.stop() / 2 ** 20);
  io.out(`time ${((Date.now() - started) / 1000).toFixed(1)} s, peak memory ${peakMb} MB (PSS of policyfuzz${opts.browser ? ' and its chromium' : ''}), ${results.reduce((n, r) => n + r.cases, 0)} cases`);
  const mustFailed = results.some((r) => r.status === 'failed' && severityOf(r.id) === 'M');
  const errored = results.some((r) => r.status === 'error');
  const counts = (s: string) => results.filter((r) => r.status === s).length;
  // A should that fails is a WARN (exit 0): counted as warned, never as failed.
  const warned = results.filter((r) => r.status === 'failed' && severityOf(r.id) === 'S').length;
  io.out(`${counts('passed')} passed, ${counts('failed') - warned} failed, ${warned ? `${warned} warned, ` : ''}${counts('partial') ? `${counts('partial')} partial, ` : ''}${counts('not-reached') ? `${counts('not-reached')} not reached, ` : ''}${counts('not-applicable')} not applicable, ${counts('error')} errors (seed ${results[0]?.seed ?? seed})`);
  if (interrupt.received) {
    const cut = counts('partial') + counts('not-reached');
    io.out(`interrupted by ${interrupt.received}: ${results.length - cut} of ${only?.length ?? SSO_PROPERTIES.length} properties finished${cut ? `, ${cut} cut short` : ''}; the rest did not run`);
  }
  // As fuzz: an interrupted run exits 130 whatever it found (what it found is printed above).
  return { exitCode: interrupt.received ? INTERRUPTED_EXIT_CODE : mustFailed ? 1 : errored ? 2 : 0, results };
}

/** The first lines' word on S06's real-time wait: how long, for what, and how to skip it. */
export function expiryWaitNotice(settings: { codeLifetimeSeconds: number; tokenLifetimeSeconds: number }, maxWaitMs: number): string {
  const { codeLifetimeSeconds: code, tokenLifetimeSeconds: token } = settings;
  const bound = `the ${maxWaitMs / 1000} s bound (--max-wait)`;
  if (code * 1000 + 1000 > maxWaitMs) return `not waiting for expiry: the code lifetime (${code} s) is beyond ${bound}, so S06 is N/A; --max-wait ${code + 1} waits it out`;
  const withToken = token * 1000 + 1000 <= maxWaitMs;
  const wait = (withToken ? Math.max(code, token) : code) + 1;
  return `waiting up to ${wait} s for ${withToken ? 'code/token' : 'code'} expiry (S06: code lifetime ${code} s, token lifetime ${token} s${withToken ? '' : `, beyond ${bound}, not waited for`}); --no-wait to skip`;
}

function printResult(r: PropertyResult, io: Output): void {
  const sev = severityOf(r.id) ?? 'M';
  const verdict = { passed: 'PASS', failed: sev === 'S' ? 'WARN' : 'FAIL', 'not-applicable': 'N/A', error: 'ERROR', partial: 'PARTIAL', 'not-reached': 'NOT REACHED', 'no-verdict': 'NO VERDICT' }[r.status];
  io.out(`${r.id}  ${verdict.padEnd(5)} ${String(r.cases).padStart(4)} cases  ${String(r.durationMs).padStart(6)} ms  [${sev}] ${r.title}`);
  if (r.note) io.out(`      note: ${r.note}`);
  const variants = Object.entries(r.counts).filter(([k]) => k.startsWith('variant '));
  if (variants.length) io.out(`      variants (${variants.length}): ${variants.map(([k, n]) => `${k.slice('variant '.length)}×${n}`).join(', ')}`);
  if (r.failure) {
    for (const line of r.failure.message.split('\n')) io.out(`      ${line}`);
    // A finding outside fast-check's cases (the preflight's, a real-time run) has no path: the seed and id replay it.
    io.out(`      replay: --seed ${r.failure.seed} --only ${r.id}${r.failure.path ? ` --path ${r.failure.path}` : ''}`);
    io.out(`      counterexample: ${JSON.stringify(r.failure.counterexample)}`);
    io.out(`      expected: ${JSON.stringify(r.failure.expected)}`);
    io.out(`      actual:   ${JSON.stringify(r.failure.actual)}`);
  }
}

function intOption(name: string, value: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`${name} must be an integer, got ${JSON.stringify(value)}`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function urlOption(name: string, value: string): string {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    return value;
  } catch {
    throw new UsageError(`${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
}

/** Known input problems print one clear line and give exit code 2; anything else is a bug and keeps its trace. */
async function guarded(io: Output, f: () => Promise<number>): Promise<number> {
  try {
    return await f();
  } catch (e) {
    // A target that cannot be reached before any property runs (the preflight) is one line too.
    const environment = e instanceof TransportError || e instanceof TargetRefused || e instanceof BudgetExhausted;
    if (e instanceof UsageError || e instanceof SsoConfigError || e instanceof BrowserUnavailable || e instanceof PreflightFailed || environment) {
      io.err(`error: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

/** `sso serve` as the CLI runs it (cli/commands/sso.ts defines its options): until a signal stops it. */
export async function ssoServeCommand(opts: ServeOptions): Promise<number> {
  return guarded(consoleOutput, async () => {
    const emulator = await ssoServe(opts);
    const stop = () => void emulator.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // The listening server keeps the process alive; 0 is the exit code once it is stopped.
    return 0;
  });
}

/** `sso check` as the CLI runs it: its exit code. */
export async function ssoCheckCommand(opts: CheckOptions): Promise<number> {
  return guarded(consoleOutput, async () => (await ssoCheck(opts)).exitCode);
}
