/**
 * Temp folders for tests, removed when the test file ends (testing/remove-temp-dirs.ts runs
 * `removeTempDirs` in an afterAll of every file), so `npm test` leaves no pf-* folder behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const created = new Set<string>();

/** A fresh `pf-<prefix>-XXXXXX` folder in the temp folder, removed at the end of the test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `pf-${prefix}-`));
  created.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
  created.clear();
}
