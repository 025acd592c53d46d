/**
 * The SSO half on a thread of its own, started beside the data half. The SSO half is Node CPU
 * alone (the emulator and the properties, no database), while the data half leaves part of the
 * machine idle (its one Node thread and the database's backends take turns), so run together the
 * two take little more than the data half. One Node thread for both was tried and lost cases
 * under load (README, Benchmark): the SSO half needs a thread of its own.
 *
 * Its results are reported after the data half's, as when it ran afterwards; the SSO properties'
 * cases depend on their seed alone, so the verdicts are the same.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PropertyResult } from '../../engine/run/index.ts';
import type { SsoRun } from '../sso-integration.ts';

/** The SSO half's results and its own time: what the thread answers (its time from the thread's start), or what runSsoHalf returns. */
export interface SsoThreadAnswer {
  results: PropertyResult[];
  ms: number;
}

export interface SsoThread {
  readonly answer: Promise<SsoThreadAnswer>;
  /** Ends it now (its results are not wanted: --max-failures reached, or the data half failed). */
  stop(): Promise<void>;
}

/** The compiled entry: a thread runs compiled JavaScript only (the CLI's dist/); from the sources (vitest) the SSO half runs in the main thread after the data half, as before. */
const ENTRY = new URL('./sso-thread-entry.js', import.meta.url);

/** POLICYFUZZ_SSO_THREAD=off: the SSO half in the main thread after the data half (a comparison, or a machine where a thread is unwelcome). */
export function ssoThreadAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.POLICYFUZZ_SSO_THREAD?.trim().toLowerCase() !== 'off' && import.meta.url.endsWith('.js') && existsSync(fileURLToPath(ENTRY));
}

/**
 * `signal` stops it at the interrupt (the properties stop after their case in flight, as in the
 * main thread): an abort before its answer is passed on to it, one already made as it starts too.
 */
export function startSsoThread(run: Omit<SsoRun, 'signal'>, signal: AbortSignal): SsoThread {
  const started = performance.now();
  const worker = new Worker(ENTRY, { workerData: run });
  const onAbort = () => worker.postMessage('abort');
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort(); // a listener added after the abort is never called
  const answer = new Promise<SsoThreadAnswer>((resolve, reject) => {
    worker.once('message', (results: PropertyResult[]) => resolve({ results, ms: Math.round(performance.now() - started) }));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the SSO half's thread ended (exit ${code}) before its results`)));
  }).finally(() => signal.removeEventListener('abort', onAbort));
  // Not answered yet when stopped: nobody waits for it.
  answer.catch(() => {});
  return {
    answer,
    stop: async () => void (await worker.terminate()),
  };
}
