/**
 * The SSO half keeps to the run's limits (#24), through the real binary: `--time-budget` cuts its
 * properties short (PARTIAL, or NOT REACHED when none of their cases ran), never a verdict made up;
 * Ctrl-C stops it after the case in flight with exit 130 and an interrupted report. The same for
 * `sso check`. Each run asks for 100 000 cases a property: without the limits it would take hours.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../engine/report/summary.ts';
import { runBin, spawnBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { startEmulator, type RunningEmulator } from '../sso/emulator/server.ts';
import { loadSsoConfig } from '../sso/config.ts';
import { EXAMPLE_SSO_CONFIG } from './sso-integration.ts';

const summaryOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as RunSummary;
const CUT_SHORT = ['partial', 'not-reached'];

function fuzzArgs(dir: string, ...extra: string[]): string[] {
  return ['fuzz', '--reference', '--only', 'S02,S03', '--sso-runs', '100000', '--seed', '1', '--no-replay', '--no-color', '--report-dir', dir, '--failures-dir', path.join(dir, 'f'), ...extra];
}

/** Spawns the binary and resolves once `marker` was printed and `afterMs` more passed; then SIGINT. */
async function interruptAfter(args: string[], marker: string, afterMs: number): Promise<{ code: number | null; out: string }> {
  const child = spawnBin(args);
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  await new Promise<void>((resolve, reject) => {
    const onData = (c: Buffer) => {
      out += c.toString();
      if (out.includes(marker)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', () => reject(new Error(`exited before "${marker}":\n${out}`)));
  });
  await new Promise((r) => setTimeout(r, afterMs));
  child.kill('SIGINT');
  return { code: await exited, out };
}

describe('fuzz: the SSO half under the time budget and Ctrl-C', () => {
  it('--time-budget 4s: its properties cut short, not passed; exit 0, or 1 with --fail-on-partial', async () => {
    const dir = tempDir('sso-budget');
    const r = await runBin(fuzzArgs(dir, '--time-budget', '4s', '--fail-on-partial'));
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const sso = summaryOf(dir).properties;
    expect(sso.map((p) => p.id)).toEqual(['S02', 'S03']);
    for (const p of sso) {
      expect(CUT_SHORT, JSON.stringify(p)).toContain(p.status);
      expect(p.planned).toBe(100_000);
      expect(p.cases).toBeLessThan(100_000);
      expect(p.note).toMatch(/time budget/);
    }
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  }, 120_000);

  it('Ctrl-C during its cases: exit 130, summary.json interrupted, the property under way PARTIAL or NOT REACHED, nothing failed', async () => {
    const dir = tempDir('sso-interrupt');
    const { code, out } = await interruptAfter(fuzzArgs(dir), 'SSO: 2 properties', 1500);
    expect(code, out).toBe(130);
    const summary = summaryOf(dir);
    expect(summary.interrupted).toBe('SIGINT');
    expect(summary.properties.map((p) => p.id)).toEqual(['S02', 'S03']);
    for (const p of summary.properties) expect(CUT_SHORT, JSON.stringify(p)).toContain(p.status);
    expect(out).toMatch(/interrupted by SIGINT\n/);
    expect(out).not.toMatch(/internal error|\n\s+at /);
  }, 120_000);
});

describe('sso check: the time budget and Ctrl-C', () => {
  let emulator: RunningEmulator;
  const running: RunningEmulator[] = [];
  afterAll(() => Promise.all(running.map((e) => e.close())));
  const args = async () => {
    emulator ??= await startEmulator({ config: await loadSsoConfig(EXAMPLE_SSO_CONFIG), port: 0 });
    if (!running.includes(emulator)) running.push(emulator);
    return ['sso', 'check', '--web', emulator.webUrl, '--api', emulator.apiUrl, '--config', EXAMPLE_SSO_CONFIG, '--control-api', '--runs', '100000', '--only', 'S02,S03', '--seed', '1'];
  };

  it('--time-budget 3s: both PARTIAL (or NOT REACHED), exit 0', async () => {
    const r = await runBin([...(await args()), '--time-budget', '3s']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^S0[23] /.test(l));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatch(/^S0[23] {2}(PARTIAL|NOT REACHED)/);
    expect(r.stdout).toMatch(/0 passed, 0 failed/);
  }, 120_000);

  it('Ctrl-C: the property under way cut short, exit 130', async () => {
    const { code, out } = await interruptAfter(await args(), 'M = must', 1500);
    expect(code, out).toBe(130);
    expect(out).toMatch(/^S02 {2}(PARTIAL|NOT REACHED)/m);
    expect(out).toMatch(/interrupted by SIGINT: 0 of 2 properties finished, 1 cut short; the rest did not run/);
    expect(out).not.toMatch(/ERROR|internal error|\n\s+at /);
  }, 120_000);
});
