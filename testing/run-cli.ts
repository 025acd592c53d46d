/** Runs the `policyfuzz` command in-process and captures what it prints (for tests). */
import { vi } from 'vitest';
import { main } from '../cli/main.ts';
import { referencePack } from '../packs/reference/index.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(...args: string[]): Promise<CliRun> {
  let stderr = '';
  let stdout = '';
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  const log = vi.spyOn(console, 'log').mockImplementation((s) => void (stdout += `${String(s)}\n`));
  try {
    const code = await main(['node', 'policyfuzz', ...args], { pack: referencePack });
    return { code, stderr, stdout };
  } finally {
    err.mockRestore();
    log.mockRestore();
  }
}
