/**
 * Temp folders for tests, removed when the test file ends (testing/remove-temp-dirs.ts runs
 * `removeTempDirs` in an afterAll of every file), so `npm test` leaves no pf-* folder behind.
 * A run killed before its afterAll (a stopped worker, Ctrl-C twice) cannot remove its own: each
 * folder is named by the process that made it, and the next run's global setup removes the
 * folders of processes that are gone (`sweepDeadTempDirs`).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processAlive } from '../engine/db/process-alive.ts';

const created = new Set<string>();

/** A fresh `pf-<prefix>-<pid>-XXXXXX` folder in the temp folder, removed at the end of the test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `pf-${prefix}-${process.pid}-`));
  created.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
  created.clear();
}

/** Removes the tempDir() folders whose process is gone (a killed test run's); returns them. */
export function sweepDeadTempDirs(root = os.tmpdir()): string[] {
  const swept: string[] = [];
  for (const name of readdirSync(root)) {
    const pid = Number(/^pf-.+-(\d+)-[A-Za-z0-9]{6}$/.exec(name)?.[1]);
    if (!pid || processAlive(pid)) continue;
    rmSync(path.join(root, name), { recursive: true, force: true });
    swept.push(name);
  }
  return swept;
}
