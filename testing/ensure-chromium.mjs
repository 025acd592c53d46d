// Runs before `npm test`: the browser tests drive Debian's chromium (never a downloaded build).
// Installs it with apt when missing and we are root (CI, containers); otherwise says how.
// Only chromium and what it needs: no recommended packages, nothing already installed upgraded
// (--no-upgrade), never `apt-get upgrade` (testing/ensure-chromium.test.ts checks the commands).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const CHROMIUM = process.env.POLICYFUZZ_CHROMIUM ?? '/usr/bin/chromium';
const HOW = `install it (Debian/Ubuntu: sudo apt-get install --no-install-recommends chromium) or set POLICYFUZZ_CHROMIUM`;

/** apt-get on the PATH, if any. */
function aptGet() {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir || '.', 'apt-get');
    if (dir && existsSync(file)) return file;
  }
  return undefined;
}

if (!existsSync(CHROMIUM)) {
  const apt = process.getuid?.() === 0 ? aptGet() : undefined;
  if (!apt) {
    console.error(`policyfuzz: the browser tests need Chromium at ${CHROMIUM}: ${HOW}.`);
    process.exit(1);
  }
  console.log(`policyfuzz: ${CHROMIUM} is missing; installing Debian's chromium for the browser tests (only it: no recommends, no upgrades)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    // The package lists only (a fresh container has none); no package is changed by it.
    execFileSync(apt, ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync(apt, ['install', '-y', '-qq', '--no-install-recommends', '--no-upgrade', 'chromium'], { stdio: 'inherit', env });
  } catch (e) {
    console.error(`policyfuzz: apt-get could not install chromium (${e.message.split('\n')[0]}): ${HOW}.`);
    process.exit(1);
  }
  if (!existsSync(CHROMIUM)) {
    console.error(`policyfuzz: apt-get installed chromium, yet ${CHROMIUM} is still missing: ${HOW}.`);
    process.exit(1);
  }
}
