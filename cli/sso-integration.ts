/**
 * The one place `policyfuzz fuzz` and `replay` reach the SSO half: start the bundled strict
 * emulator with the example config (or a given config), run the SSO properties against it, stop
 * it. Everything SSO-specific stays behind these two functions.
 */
import type { PropertyResult } from '../engine/run/index.ts';
import { fileURLToPath } from 'node:url';

export const EXAMPLE_SSO_CONFIG = fileURLToPath(new URL('../sso/examples/sso.config.json', import.meta.url));

export interface SsoRun {
  seed: number;
  numRuns: number;
  only?: string[];
  path?: string;
  config?: string;
}

export async function ssoPropertyIds(): Promise<string[]> {
  const { SSO_PROPERTIES } = await import('../sso/properties/index.ts');
  return SSO_PROPERTIES.map((p) => p.id);
}

export async function runSsoAgainstEmulator(run: SsoRun): Promise<PropertyResult[]> {
  const [{ runSsoProperties }, { loadSsoConfig }, { startEmulator }] = await Promise.all([
    import('../sso/properties/index.ts'),
    import('../sso/config.ts'),
    import('../sso/emulator/server.ts'),
  ]);
  const config = await loadSsoConfig(run.config ?? EXAMPLE_SSO_CONFIG);
  const emulator = await startEmulator({ config, port: 0 });
  try {
    return await runSsoProperties(
      // The emulator's clock is real time plus an offset its control API moves, so control mode
      // checks every expiry real-time mode (`sso check --real-time`, for deployments without
      // one) would, and more: the nightly profile keeps it rather than wait a lifetime out.
      { webUrl: emulator.webUrl, apiUrl: emulator.apiUrl, config, driver: 'form', control: true },
      { seed: run.seed, numRuns: run.numRuns, ...(run.only ? { only: run.only } : {}), ...(run.path ? { path: run.path } : {}) },
    );
  } finally {
    await emulator.close();
  }
}
