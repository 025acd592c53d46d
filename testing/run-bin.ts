/** Runs the real `bin/policyfuzz.mjs` (the compiled dist/, built by `npm test`'s pretest) as a child process. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../cli/paths.ts';

export const BIN = path.join(PROJECT_ROOT, 'bin/policyfuzz.mjs');

export interface BinRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runBin(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<BinRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: options.cwd ?? PROJECT_ROOT, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts the binary without waiting: for tests that signal it mid-run. */
export function spawnBin(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? PROJECT_ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
}
