// Runs before `npm test`: the browser tests drive Debian's chromium (never a downloaded build).
// Installs it with apt when missing and we are root (CI, containers); otherwise says how.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.POLICYFUZZ_CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log(`policyfuzz: ${CHROMIUM} is missing; installing Debian's chromium for the browser tests`);
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } else {
    console.error(`policyfuzz: the browser tests need Chromium at ${CHROMIUM}: install it (Debian/Ubuntu: sudo apt-get install chromium) or set POLICYFUZZ_CHROMIUM.`);
    process.exit(1);
  }
}
