/**
 * The report folder's lock beside its binary tests (cli/report-folder-lock.test.ts): a lock left by a
 * run killed in a container (its own hostname, so its pid cannot be asked) goes stale once its time
 * budget and grace are past, instead of refusing every later run on that folder for ever.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockReportFolder, REPORT_LOCK_FILE, unlockReportFolder } from './folder-lock.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folderLockedBy(holder: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'policyfuzz-lock-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, REPORT_LOCK_FILE), JSON.stringify(holder));
  return dir;
}
const running = { pid: process.pid, startedAt: new Date().toISOString() };

describe('lockReportFolder', () => {
  it("takes over another host's lock past its staleAfter, and leaves no file of its own beside it", () => {
    const dir = folderLockedBy({ pid: 1, host: 'container-gone', startedAt: '2026-01-01T00:00:00.000Z', staleAfter: '2026-01-01T02:00:00.000Z' });
    lockReportFolder(dir, running, '--report-dir', 60_000);
    const lock = JSON.parse(readFileSync(path.join(dir, REPORT_LOCK_FILE), 'utf8')) as { pid: number; host: string; staleAfter: string };
    expect(lock.pid).toBe(process.pid);
    expect(lock.host).toBe(os.hostname());
    expect(Date.parse(lock.staleAfter)).toBeGreaterThan(Date.now());
    expect(readdirSync(dir)).toEqual([REPORT_LOCK_FILE]);
    unlockReportFolder(dir, process.pid);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses another host's lock within its staleAfter, or with none, and leaves that lock as it was", () => {
    for (const staleAfter of [new Date(Date.now() + 3_600_000).toISOString(), undefined]) {
      const holder = { pid: 1, host: 'another-runner', startedAt: '2026-01-01T00:00:00.000Z', ...(staleAfter ? { staleAfter } : {}) };
      const dir = folderLockedBy(holder);
      expect(() => lockReportFolder(dir, running)).toThrow(/in use by another policyfuzz run \(pid 1 on another-runner/);
      expect(JSON.parse(readFileSync(path.join(dir, REPORT_LOCK_FILE), 'utf8'))).toEqual(holder);
      expect(readdirSync(dir)).toEqual([REPORT_LOCK_FILE]);
    }
  });
});
