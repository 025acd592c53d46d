/** A signal before the CLI has loaded (its first second under load) still exits 130, through the real binary. */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spawnBin } from '../testing/run-bin.ts';

/**
 * Whether the process catches SIGHUP (bit 0 of SigCgt in /proc/<pid>/status): Node catches SIGINT
 * and SIGTERM itself from the start (to reset the terminal), SIGHUP only once a listener is added.
 */
function catchesSighup(pid: number): boolean {
  try {
    const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return mask !== undefined && (BigInt(`0x${mask}`) & 1n) !== 0n;
  } catch {
    return false;
  }
}

describe.skipIf(!existsSync('/proc/self/status'))('a signal while the CLI loads', () => {
  it('SIGTERM as soon as the binary listens, before dist/ has loaded: exit 130 saying nothing had started', async () => {
    const child = spawnBin(['fuzz', '--runs', '1']);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // The first listener is the binary's own, installed before it loads dist/ (hundreds of ms).
    while (!catchesSighup(child.pid!)) await new Promise((r) => setTimeout(r, 1));
    child.kill('SIGTERM');
    const code = await exited;
    expect(code, stderr).toBe(130);
    expect(stderr).toBe('policyfuzz: interrupted by SIGTERM while loading; nothing had started\n');
  }, 20_000);
});
