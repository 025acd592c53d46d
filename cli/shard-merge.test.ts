/**
 * A red night's shards, merged through the real binary: a shard interrupted, a shard killed
 * outright whose report folder still held an earlier run's summary.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { propertySummary, runSummary } from '../engine/report/summary.ts';
import { runBin, spawnBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { POLICYFUZZ_VERSION } from './paths.ts';
import { escapeRegExp } from '../engine/regexp.ts';

/** A shard's summary.json as a run writes it: R02 passed on 10 cases. */
function writeShard(dir: string, index: number, extra: { interrupted?: string } = {}): string {
  const summary = runSummary(
    [propertySummary({ id: 'R02', title: 'users', area: 'data', status: 'passed', cases: 10, counts: { allowed: 10 }, durationMs: 1, seed: 5 })],
    { policyfuzzVersion: POLICYFUZZ_VERSION, seed: 5, profile: 'pr', shard: { index, count: 2 }, migrations: null, migrationsDigest: null, startedAt: new Date(), timeBudgetMs: null, ...extra },
  );
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'summary.json'), JSON.stringify(summary));
  return dir;
}

describe('merging the shards of a red night', () => {
  it('a shard interrupted: the merge says so and exits 130, as one machine interrupted does (not 0)', async () => {
    const dir = tempDir('merge-interrupted');
    const shards = [writeShard(path.join(dir, 'shard1'), 1), writeShard(path.join(dir, 'shard2'), 2, { interrupted: 'SIGTERM' })];
    const r = await runBin(['merge-reports', ...shards, '--out', path.join(dir, 'merged')]);
    expect(r.code, r.stdout + r.stderr).toBe(130);
    expect(r.stdout).toContain('a shard was interrupted by SIGTERM: the totals cover what completed');
    expect(JSON.parse(readFileSync(path.join(dir, 'merged', 'summary.json'), 'utf8')).interrupted).toBe('SIGTERM');
  });

  it("a shard killed outright (SIGKILL) in a report folder an earlier run left: its old summary is gone and the merge refuses the shard, naming it (exit 2), instead of merging the earlier run's green as this one's", async () => {
    const dir = tempDir('merge-killed');
    const shard1 = writeShard(path.join(dir, 'shard1'), 1);
    // Last night's shard 2, green, in the folder tonight's shard 2 writes to.
    const shard2 = writeShard(path.join(dir, 'shard2'), 2);
    writeFileSync(path.join(shard2, 'junit.xml'), '<testsuites tests="1" failures="0"/>');
    const child = spawnBin(['fuzz', '--shard', '2/2', '--seed', '5', '--only', 'R02', '--runs', '100000', '--no-sso', '--no-replay', '--no-color', '--database-url', inject('databaseUrl'), '--report-dir', shard2, '--failures-dir', path.join(dir, 'f')]);
    let stdout = '';
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      // Under way (its plan printed): killed as a runner's time limit or the OOM killer does.
      if (stdout.includes('policyfuzz: seed 5') && !child.killed) child.kill('SIGKILL');
    });
    await new Promise((resolve) => child.on('close', resolve));
    expect(child.signalCode).toBe('SIGKILL');
    expect(existsSync(path.join(shard2, 'junit.xml'))).toBe(false);
    const r = await runBin(['merge-reports', shard1, shard2, '--out', path.join(dir, 'merged')]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^policyfuzz: ${escapeRegExp(path.join(shard2, 'summary.json'))} is from a run that never wrote its reports \\(shard 2/2, started \\S+, pid ${child.pid}\\): it was killed, died or is still running\\. Run it again, or merge the other shards without it \\(--allow-partial\\)\\n$`));
    expect(existsSync(path.join(dir, 'merged', 'summary.json'))).toBe(false);
  }, 60_000);

  it("a run that ends short of its reports (SIGTERM as it starts) leaves neither the earlier run's summary nor a mark saying it still runs", async () => {
    const dir = tempDir('merge-ended-early');
    const shard2 = writeShard(path.join(dir, 'shard2'), 2);
    const child = spawnBin(['fuzz', '--shard', '2/2', '--seed', '5', '--only', 'R02', '--runs', '100000', '--no-sso', '--no-replay', '--no-color', '--database-url', inject('databaseUrl'), '--report-dir', shard2, '--failures-dir', path.join(dir, 'f')]);
    let stdout = '';
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes('policyfuzz: seed 5') && !child.killed) child.kill('SIGTERM');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    const file = path.join(shard2, 'summary.json');
    // Cut while starting: no reports. Cut once cases ran: the reports of what completed, marked interrupted.
    if (existsSync(file)) {
      const left = JSON.parse(readFileSync(file, 'utf8')) as { running?: unknown; interrupted?: string };
      expect(left.running).toBeUndefined();
      expect(left.interrupted).toBe('SIGTERM');
    }
  }, 60_000);
});
