/**
 * Report and failures folders are checked before a run starts, so a folder that cannot be
 * written is a one-line usage error at once, never a stack trace after the whole run (which would
 * also lose the failures it found). Nothing is created: the nearest existing folder must be a
 * writable directory.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../engine/errors.ts';

export function assertWritableFolder(dir: string, option: string): void {
  let at = path.resolve(dir);
  while (!existsSync(at)) {
    const up = path.dirname(at);
    if (up === at) break;
    at = up;
  }
  const problem = !statSync(at).isDirectory() ? `${at} is a file, not a folder` : !canWrite(at) ? `${at} is not writable` : undefined;
  if (problem) throw new UsageError(`${option} ${dir} cannot be written: ${problem}. Choose another folder with ${option}`);
}

function canWrite(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
