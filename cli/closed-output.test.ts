/**
 * A reader that closes the pipe early (`policyfuzz fuzz --help | head -1`, a nightly's log tail
 * that died) must not crash the run: before, Node's EPIPE stack ended it with exit 1, no reports
 * written and (on a local server) the server left running.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { RunSummary } from '../engine/report/summary.ts';
import { spawnBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';

/** Runs the binary and closes its stdout, as `| head -1` does: at once, or once the first chunk arrives. */
function runWithStdoutClosedEarly(args: string[], closeAt: 'start' | 'first chunk'): Promise<{ code: number | null; stderr: string }> {
  const child = spawnBin(args);
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  if (closeAt === 'start') child.stdout!.destroy();
  else child.stdout!.once('data', () => child.stdout!.destroy());
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('stdout closed by its reader', () => {
  it('fuzz --help into a closed pipe: exit 0, no EPIPE stack', async () => {
    const r = await runWithStdoutClosedEarly(['fuzz', '--help'], 'start');
    expect(r.stderr).not.toContain('EPIPE');
    expect(r.code, r.stderr).toBe(0);
  }, 30_000);

  it('a fuzz run whose stdout closes after its first line goes on: its verdict, summary.json and junit.xml', async () => {
    const dir = tempDir('closed-stdout');
    const r = await runWithStdoutClosedEarly(['fuzz', '--only', 'R02', '--runs', '30', '--no-sso', '--seed', '1', '--no-replay', '--no-color', '--database-url', inject('databaseUrl'), '--report-dir', dir, '--failures-dir', path.join(dir, 'f')], 'first chunk');
    expect(r.stderr).not.toContain('EPIPE');
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.properties.map((p) => `${p.id} ${p.status} ${p.cases}`)).toEqual(['R02 passed 30']);
    expect(existsSync(path.join(dir, 'junit.xml'))).toBe(true);
  }, 120_000);
});
