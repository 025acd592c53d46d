#!/usr/bin/env node
// The compiled CLI (dist/, built by `npm run build`, which `npm ci` and `npm test` run first),
// handed the bundled reference pack: the CLI receives packs, it never imports one. The pack is
// loaded only when a command runs, so `--help` answers at once.
import { existsSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
if (!existsSync(new URL('cli/main.js', dist))) {
  process.stderr.write('policyfuzz: not built yet (no dist/); run `npm run build` in the policyfuzz folder\n');
  process.exit(2);
}
const [{ main }, { referencePackSource }] = await Promise.all([import(new URL('cli/main.js', dist)), import(new URL('packs/reference/manifest.js', dist))]);
process.exitCode = await main(process.argv, { pack: referencePackSource });
