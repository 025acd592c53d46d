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

/**
 * Starts the binary and waits until its cases run (`ready in` on stdout): for tests that signal or
 * disturb it mid-run. `exited` resolves to its exit code; `output()` is its stdout and stderr so far.
 */
export async function spawnBinReady(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ child: ChildProcess; exited: Promise<number | null>; output: () => string }> {
  const child = spawnBin(args, options);
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('ready in')) resolve();
    });
    child.once('exit', () => reject(new Error(`exited before it was ready:\n${out}${err}`)));
  });
  return { child, exited, output: () => out + err };
}
