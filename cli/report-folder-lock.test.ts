/**
 * Two runs writing one report folder at once (two nightly jobs, a developer's run during CI): the
 * second refuses in one line, exit 2, naming the first; a lock its run left behind (SIGKILL) is
 * taken over. Through two real bin/policyfuzz.mjs processes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, inject, it } from 'vitest';
import { REPORT_LOCK_FILE } from '../engine/report/folder-lock.ts';
import { runBin, spawnBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';

const fuzzInto = (dir: string, runs: string) => ['fuzz', '--only', 'R02', '--no-sso', '--seed', '1', '--runs', runs, '--no-replay', '--report-dir', path.join(dir, 'reports'), '--failures-dir', path.join(dir, 'failures'), '--database-url', inject('databaseUrl')];

it('a second run on a report folder in use refuses in one line naming the first (exit 2); the first ends as it would, and its lock goes', async () => {
  const dir = tempDir('report-lock');
  const lock = path.join(dir, 'reports', REPORT_LOCK_FILE);
  const first = spawnBin(fuzzInto(dir, '100000'));
  let firstErr = '';
  first.stderr!.on('data', (c: Buffer) => (firstErr += c.toString()));
  const firstExit = new Promise<number | null>((resolve) => first.on('close', (code) => resolve(code)));
  while (!existsSync(lock)) {
    if (first.exitCode !== null) throw new Error(`the first run ended before it held the folder: ${firstErr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const second = await runBin(fuzzInto(dir, '5'));
  expect(second.code, second.stderr).toBe(2);
  const lines = second.stderr.trim().split('\n');
  expect(lines, second.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`--report-dir \\S+ is in use by another policyfuzz run \\(pid ${first.pid}, started \\S+\\): wait for it to end, or give this run a folder of its own with --report-dir \\(if no such run is going, delete \\S+${REPORT_LOCK_FILE}\\)$`));
  // The folder is still the first run's: its under-way mark untouched by the second.
  expect(JSON.parse(readFileSync(path.join(dir, 'reports', 'summary.json'), 'utf8')).running.pid).toBe(first.pid);

  first.kill('SIGINT');
  expect(await firstExit, firstErr).toBe(130);
  expect(existsSync(lock)).toBe(false);
}, 120_000);

it('a lock left by a run that is gone (SIGKILL) is taken over: the run goes on, writes its reports, and its own lock goes at the end', async () => {
  const dir = tempDir('report-lock-stale');
  // A pid no process holds any more: a child that has exited.
  const gone = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
  const lock = path.join(dir, 'reports', REPORT_LOCK_FILE);
  mkdirSync(path.dirname(lock), { recursive: true });
  writeFileSync(lock, JSON.stringify({ pid: gone, host: os.hostname(), startedAt: '2026-01-01T00:00:00.000Z' }));
  const r = await runBin(fuzzInto(dir, '5'));
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(readFileSync(path.join(dir, 'reports', 'summary.json'), 'utf8'))).toMatchObject({ totals: expect.any(Object) });
  expect(existsSync(lock)).toBe(false);
}, 120_000);

it('merge-reports refuses an --out folder a live run holds, in one line, exit 2, and writes nothing there', async () => {
  const dir = tempDir('report-lock-merge');
  const r = await runBin(fuzzInto(dir, '5'));
  expect(r.code, r.stderr).toBe(0);
  const held = path.join(dir, 'held');
  mkdirSync(held);
  // This test's own process: alive, on this host, and not the merge's.
  writeFileSync(path.join(held, REPORT_LOCK_FILE), JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: '2026-01-01T00:00:00.000Z', shard: '1/2' }));
  const merge = await runBin(['merge-reports', path.join(dir, 'reports'), '--out', held]);
  expect(merge.code, merge.stderr).toBe(2);
  expect(merge.stderr.trim().split('\n')).toEqual([expect.stringContaining(`--out ${held} is in use by another policyfuzz run (pid ${process.pid}, started 2026-01-01T00:00:00.000Z, shard 1/2): wait for it to end`)]);
  expect(existsSync(path.join(held, 'summary.json'))).toBe(false);
}, 120_000);
