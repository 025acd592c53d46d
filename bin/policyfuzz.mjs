#!/usr/bin/env node
// The compiled CLI (dist/, built by `npm run build`, which `npm ci` and `npm test` run first),
// handed the bundled reference pack: the CLI receives packs, it never imports one. The pack is
// loaded only when a command runs, so `--help` answers at once.
import { existsSync } from 'node:fs';

// Loading dist/ takes about a second under load, before the CLI installs its own handlers: a
// signal then would kill the process with Node's default (143 for SIGTERM), not the documented
// 130. Nothing has started yet, so there is nothing to stop: say so and exit 130.
const INTERRUPTED_WHILE_LOADING = (signal) => {
  process.stderr.write(`policyfuzz: interrupted by ${signal} while loading; nothing had started\n`);
  process.exit(130);
};
const EARLY_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of EARLY_SIGNALS) process.on(signal, INTERRUPTED_WHILE_LOADING);

// node-pg asks, as it loads, whether it runs on Cloudflare Workers: with no `navigator` (Node 20;
// Node >= 21 has one) it builds a fetch Response to find out, which loads Node's whole fetch
// implementation (undici): 45-85 ms of CPU before the first case of every run that opens a
// database. Node 20 gets the answer Node >= 21 gives (its navigator's userAgent).
if (globalThis.navigator === undefined) {
  Object.defineProperty(globalThis, 'navigator', { value: Object.freeze({ userAgent: `Node.js/${process.versions.node.split('.')[0]}` }), writable: true, configurable: true });
}

const dist = new URL('../dist/', import.meta.url);
if (!existsSync(new URL('cli/main.js', dist))) {
  process.stderr.write('policyfuzz: not built yet (no dist/); run `npm run build` in the policyfuzz folder\n');
  process.exit(2);
}
const [{ main }, { referencePackSource }] = await Promise.all([import(new URL('cli/main.js', dist)), import(new URL('packs/reference/manifest.js', dist))]);
// main installs the CLI's handlers synchronously, first thing: from here they answer.
for (const signal of EARLY_SIGNALS) process.off(signal, INTERRUPTED_WHILE_LOADING);
process.exitCode = await main(process.argv, { pack: referencePackSource });
