/**
 * The one place `policyfuzz fuzz` and `replay` reach the SSO half: start the bundled strict
 * emulator with the example config (or a given config), run the SSO properties against it, stop
 * it. Everything SSO-specific stays behind these two functions.
 */
import type { PropertyResult } from '../engine/run/index.ts';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../engine/errors.ts';

export const EXAMPLE_SSO_CONFIG = fileURLToPath(new URL('../sso/examples/sso.config.json', import.meta.url));

export interface SsoRun {
  seed: number;
  numRuns: number;
  only?: string[];
  path?: string;
  config?: string;
  /** Stops the cases at an interrupt (what ran is reported cut short). */
  signal?: AbortSignal;
  /** The time budget's end (epoch ms). */
  deadline?: number;
}

/** Reads an SSO config as the SSO half will; a missing or invalid one is bad input (exit 2). */
export async function checkSsoConfig(file: string): Promise<void> {
  const { loadSsoConfig, SsoConfigError } = await import('../sso/config.ts');
  try {
    await loadSsoConfig(file);
  } catch (e) {
    if (e instanceof SsoConfigError) throw new UsageError(`--sso-config: ${e.message}`);
    throw e;
  }
}

export async function ssoPropertyIds(): Promise<string[]> {
  return (await ssoPropertyTitles()).map((p) => p.id);
}

export async function ssoPropertyTitles(): Promise<{ id: string; title: string }[]> {
  const { SSO_PROPERTIES } = await import('../sso/properties/index.ts');
  return SSO_PROPERTIES.map(({ id, title }) => ({ id, title }));
}

/**
 * The request cap of a run against the bundled emulator. The 20 000 of `sso check` protects a
 * shared deployment; the emulator is ours, so the cap only stops a runaway run and grows with the
 * cases. Measured on the example config: at most 13 requests a case on average (S12, S17), about
 * 19 000 for the nightly's 200 cases of each property, so 40 a case leaves three times that.
 */
const EMULATOR_REQUESTS_PER_CASE = 40;
export function emulatorRequestCap(properties: number, numRuns: number): number {
  return 1000 + properties * numRuns * EMULATOR_REQUESTS_PER_CASE;
}

export async function runSsoAgainstEmulator(run: SsoRun): Promise<PropertyResult[]> {
  const [{ runSsoProperties }, { loadSsoConfig }, { startEmulator }] = await Promise.all([
    import('../sso/properties/index.ts'),
    import('../sso/config.ts'),
    import('../sso/emulator/server.ts'),
  ]);
  const config = await loadSsoConfig(run.config ?? EXAMPLE_SSO_CONFIG);
  const properties = run.only?.length ?? (await ssoPropertyIds()).length;
  const emulator = await startEmulator({ config, port: 0 });
  try {
    return await runSsoProperties(
      // The emulator's clock is real time plus an offset its control API moves, so control mode
      // checks every expiry real-time mode (`sso check --real-time`, for deployments without
      // one) would, and more: the nightly profile keeps it rather than wait a lifetime out.
      { webUrl: emulator.webUrl, apiUrl: emulator.apiUrl, config, driver: 'form', control: true, maxRequests: emulatorRequestCap(properties, run.numRuns) },
      { seed: run.seed, numRuns: run.numRuns, ...(run.only ? { only: run.only } : {}), ...(run.path ? { path: run.path } : {}), ...(run.signal ? { signal: run.signal } : {}), ...(run.deadline !== undefined ? { deadline: run.deadline } : {}) },
    );
  } finally {
    await emulator.close();
  }
}
