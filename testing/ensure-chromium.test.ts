/**
 * `npm test`'s pretest installs Debian's chromium when it is missing and we are root: only it,
 * with no recommended packages and no upgrade of anything already installed (#24). Run against a
 * stand-in apt-get on the PATH that records what it was asked.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../cli/paths.ts';
import { tempDir } from './temp-dir.ts';

const SCRIPT = path.join(PROJECT_ROOT, 'testing/ensure-chromium.mjs');

function ensure(env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [SCRIPT], { env }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr })),
  );
}

/** A folder with an apt-get that appends its arguments to `log` and, on install, creates `provides`. */
function fakeApt(provides?: string): { bin: string; log: string } {
  const bin = tempDir('fake-apt');
  const log = path.join(bin, 'calls.log');
  writeFileSync(path.join(bin, 'apt-get'), `#!/bin/sh\necho "$*" >> '${log}'\n${provides ? `[ "$1" = install ] && touch '${provides}'\n` : ''}exit 0\n`);
  chmodSync(path.join(bin, 'apt-get'), 0o755);
  return { bin, log };
}

describe('testing/ensure-chromium.mjs', () => {
  it.runIf(process.getuid?.() === 0)('as root, chromium missing: updates the lists, installs chromium alone (no recommends, no upgrades), never apt-get upgrade', async () => {
    const chromium = path.join(tempDir('chromium'), 'chromium');
    const apt = fakeApt(chromium);
    const r = await ensure({ ...process.env, PATH: `${apt.bin}:${process.env.PATH}`, POLICYFUZZ_CHROMIUM: chromium });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(apt.log, 'utf8').trim().split('\n')).toEqual(['update -qq', 'install -y -qq --no-install-recommends --no-upgrade chromium']);
    expect(existsSync(chromium)).toBe(true);
  });

  it.runIf(process.getuid?.() === 0)('an install that leaves chromium missing: exit 1 saying what to do', async () => {
    const chromium = path.join(tempDir('chromium'), 'chromium');
    const apt = fakeApt();
    const r = await ensure({ ...process.env, PATH: `${apt.bin}:${process.env.PATH}`, POLICYFUZZ_CHROMIUM: chromium });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`policyfuzz: apt-get installed chromium, yet ${chromium} is still missing: install it (Debian/Ubuntu: sudo apt-get install --no-install-recommends chromium) or set POLICYFUZZ_CHROMIUM.\n`);
  });

  it('chromium present: nothing is installed', async () => {
    const apt = fakeApt();
    const present = path.join(tempDir('chromium'), 'chromium');
    writeFileSync(present, '');
    const r = await ensure({ ...process.env, PATH: `${apt.bin}:${process.env.PATH}`, POLICYFUZZ_CHROMIUM: present });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(existsSync(apt.log)).toBe(false);
  });
});
