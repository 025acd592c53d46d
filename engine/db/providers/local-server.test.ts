/**
 * Whatever starts must stop: a run interrupted mid-way (Ctrl-C, SIGTERM) leaves no Postgres
 * process and no temp dir, reports what completed marked interrupted and exits 130; a signal
 * during the server's start-up leaves nothing either; a run killed with SIGKILL leaves both,
 * and the next start cleans them. All through the real binary.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnBin } from '../../../testing/run-bin.ts';
import { tempDir } from '../../../testing/temp-dir.ts';
import { processesUsing } from '../../../testing/processes.ts';
import type { RunSummary } from '../../report/summary.ts';
import { cleanLeftoverRuns, LOCAL_CACHE_ROOT, LOCAL_SERVER_ROOT } from './local-server.ts';

function runDirsOf(pid: number): string[] {
  if (!existsSync(LOCAL_SERVER_ROOT)) return [];
  return readdirSync(LOCAL_SERVER_ROOT)
    .filter((n) => n.startsWith(`run-${pid}-`))
    .map((n) => path.join(LOCAL_SERVER_ROOT, n));
}

/** Half-built cache entries a start-up of this process left (kept templates' included). */
function cacheLeftoversOf(pid: number): string[] {
  if (!existsSync(LOCAL_CACHE_ROOT)) return [];
  const entries = (dir: string): string[] => readdirSync(dir).flatMap((n) => (n.startsWith('templates-') ? entries(path.join(dir, n)) : [n]));
  return readdirSync(LOCAL_CACHE_ROOT).flatMap((v) => entries(path.join(LOCAL_CACHE_ROOT, v)).filter((n) => n.includes(`.tmp-${pid}-`)));
}

function longRun(reports: string) {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  return spawnBin(['fuzz', '--seed', '1', '--runs', '1000000', '--workers', '1', '--time-budget', '10m', '--no-sso', '--report-dir', reports, '--failures-dir', path.join(reports, 'failures')], { env });
}

/** Starts a long fuzz run on a local server and resolves once cases are running. */
function startLongRun(reports: string): Promise<{ child: ChildProcess; runDir: string; output: () => string }> {
  const child = longRun(reports);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the run did not get ready:\n${out}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready in') && !out.includes('\u0000ready')) {
        out += '\u0000ready';
        clearTimeout(timer);
        const [runDir] = runDirsOf(child.pid!);
        setTimeout(() => resolve({ child, runDir, output: () => out }), 1500);
      }
    });
    child.stderr!.resume();
    child.on('exit', (code) => reject(new Error(`the run exited early (${code}):\n${out}`)));
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
}

describe('local server lifecycle', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} mid-run: exit 130, what completed reported as interrupted, Postgres stopped, temp dir removed`, async () => {
      const reports = tempDir('interrupt');
      const { child, runDir, output } = await startLongRun(reports);
      expect(runDir).toBeDefined();
      expect(processesUsing(runDir).length).toBeGreaterThan(0);
      const exited = exitOf(child);
      child.kill(signal);
      expect(await exited).toBe(130);
      expect(existsSync(runDir)).toBe(false);
      expect(processesUsing(runDir)).toEqual([]);

      const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as RunSummary;
      expect(summary.interrupted).toBe(signal);
      // Nothing unfinished turned into a failure: the property in flight is partial, the rest not reached.
      const statuses = summary.properties.map((p) => p.status);
      expect(statuses).not.toContain('failed');
      expect(statuses).not.toContain('error');
      expect(statuses[0]).toBe('partial');
      expect(summary.properties[0].cases).toBeGreaterThan(0);
      expect(summary.properties[0].planned).toBe(1000000);
      // Each property is partial (cut short after its cases in flight) or not reached, never more.
      expect(statuses.filter((s) => s !== 'partial' && s !== 'not-reached'), JSON.stringify(summary.properties.map((p) => [p.id, p.status]))).toEqual([]);
      expect(readFileSync(path.join(reports, 'junit.xml'), 'utf8')).toContain(`<testsuites name="policyfuzz (interrupted by ${signal})"`);
      expect(output()).not.toMatch(/connection|ERROR/);
      const partial = statuses.filter((s) => s === 'partial').length;
      expect(output().trimEnd().split('\n').at(-1)).toBe(`0 passed, 0 failed, ${partial} partial, ${20 - partial} not reached (seed 1) - interrupted by ${signal}`);
    });
  }

  // Signals at several moments of the start-up (copying the cluster, starting Postgres, waiting for it).
  for (const delayMs of [0, 100, 300, 600]) {
    it(`a signal ${delayMs} ms into the server's start-up: exit 130, no Postgres, no copy, no run folder`, async () => {
      const child = longRun(tempDir('startup'));
      const exited = exitOf(child);
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('starting a local Postgres')) resolve();
        });
        child.once('exit', () => reject(new Error(`exited before starting a server:\n${out}`)));
      });
      child.stderr!.resume();
      await new Promise((r) => setTimeout(r, delayMs));
      const dirs = runDirsOf(child.pid!);
      child.kill('SIGTERM');
      expect(await exited, out).toBe(130);
      for (const dir of dirs) expect(processesUsing(dir)).toEqual([]);
      expect(runDirsOf(child.pid!)).toEqual([]);
      expect(cacheLeftoversOf(child.pid!)).toEqual([]);
    });
  }

  it('SIGKILL leaves a server behind; the next start cleans it', async () => {
    const { child, runDir } = await startLongRun(tempDir('sigkill'));
    const exited = exitOf(child);
    child.kill('SIGKILL');
    await exited;
    expect(existsSync(runDir)).toBe(true);
    expect(processesUsing(runDir).length).toBeGreaterThan(0);
    expect(cleanLeftoverRuns()).toContain(runDir);
    expect(existsSync(runDir)).toBe(false);
    for (let i = 0; i < 50 && processesUsing(runDir).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(processesUsing(runDir)).toEqual([]);
  });
});
