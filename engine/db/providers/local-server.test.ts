/**
 * Whatever starts must stop: a run killed mid-way (Ctrl-C, SIGTERM) leaves no Postgres process
 * and no temp dir; a run killed with SIGKILL leaves both, and the next start cleans them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../cli/paths.ts';
import { cleanLeftoverRuns, LOCAL_SERVER_ROOT } from './local-server.ts';

function runDirsOf(pid: number): string[] {
  if (!existsSync(LOCAL_SERVER_ROOT)) return [];
  return readdirSync(LOCAL_SERVER_ROOT)
    .filter((n) => n.startsWith(`run-${pid}-`))
    .map((n) => path.join(LOCAL_SERVER_ROOT, n));
}

function postgresProcessesUsing(dir: string): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Starts a long fuzz run on a local server and resolves once cases are running. */
function startLongRun(): Promise<{ child: ChildProcess; runDir: string }> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin/policyfuzz.mjs'), 'fuzz', '--seed', '1', '--runs', '1000000', '--workers', '1'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the run did not get ready:\n${out}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready in')) {
        clearTimeout(timer);
        const [runDir] = runDirsOf(child.pid!);
        setTimeout(() => resolve({ child, runDir }), 300);
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
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal} mid-run stops Postgres and removes the temp dir`, async () => {
      const { child, runDir } = await startLongRun();
      expect(runDir).toBeDefined();
      expect(postgresProcessesUsing(runDir).length).toBeGreaterThan(0);
      const exited = exitOf(child);
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(existsSync(runDir)).toBe(false);
      expect(postgresProcessesUsing(runDir)).toEqual([]);
    });
  }

  it('SIGKILL leaves a server behind; the next start cleans it', async () => {
    const { child, runDir } = await startLongRun();
    const exited = exitOf(child);
    child.kill('SIGKILL');
    await exited;
    expect(existsSync(runDir)).toBe(true);
    expect(postgresProcessesUsing(runDir).length).toBeGreaterThan(0);
    expect(cleanLeftoverRuns()).toContain(runDir);
    expect(existsSync(runDir)).toBe(false);
    for (let i = 0; i < 50 && postgresProcessesUsing(runDir).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(postgresProcessesUsing(runDir)).toEqual([]);
  });
});
