/** The SSO half's thread (sso-thread.ts): runs the SSO properties against the bundled emulator, answers their results once. */
import { parentPort, workerData } from 'node:worker_threads';
import { runSsoAgainstEmulator, type SsoRun } from '../sso-integration.ts';

const aborter = new AbortController();
parentPort!.on('message', (message) => {
  if (message === 'abort') aborter.abort();
});
const results = await runSsoAgainstEmulator({ ...(workerData as Omit<SsoRun, 'signal'>), signal: aborter.signal });
parentPort!.postMessage(results);
parentPort!.close();
