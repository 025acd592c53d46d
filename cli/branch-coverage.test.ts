/**
 * Model-branch coverage through the binary: summary.json holds, per property, every branch of
 * the model it owns with the cases that took it and the ones never taken; the console names
 * those; report.html shows taken/known; and `--shard i/n` + merge-reports give the branch tallies
 * of one unsharded run of the same seed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import type { RunSummary } from '../engine/report/summary.ts';
import { referenceBranches } from '../packs/reference/model/branches.ts';

const summaryOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as RunSummary;

describe('model-branch coverage', () => {
  it('is reported per rule, names the branches never reached, and merges across shards to the unsharded tallies', async () => {
    const common = ['fuzz', '--only', 'R03', '--seed', '4', '--runs', '80', '--no-replay', '--no-sso', '--database-url', inject('databaseUrl')];
    const [whole, one, two, merged] = ['whole', 'shard1', 'shard2', 'merged'].map((p) => tempDir(p));
    const w = await runBin([...common, '--workers', '2', '--report-dir', whole]);
    expect(w.code, w.stderr).toBe(0);
    expect((await runBin([...common, '--workers', '1', '--shard', '1/2', '--report-dir', one])).code).toBe(0);
    expect((await runBin([...common, '--workers', '1', '--shard', '2/2', '--report-dir', two])).code).toBe(0);
    const m = await runBin(['merge-reports', one, two, '--out', merged]);
    expect(m.code, m.stderr).toBe(0);

    const r03 = summaryOf(whole).properties.find((p) => p.id === 'R03')!;
    const known = Object.keys(referenceBranches.catalog).filter((id) => id.startsWith('R03.'));
    expect(r03.branches!.map((b) => b.id)).toEqual(known);
    const untaken = r03.branches!.filter((b) => b.taken === 0).map((b) => b.id);
    expect(r03.untakenBranches).toEqual(untaken);
    // 80 cases reach most of them, not all (the rarest are what guided generation is for).
    expect(untaken.length).toBeGreaterThan(0);
    expect(untaken.length).toBeLessThan(known.length / 2);
    expect(w.stdout + w.stderr).toContain(`R03  ${known.length - untaken.length}/${known.length}  never reached: ${untaken.join(', ')}`);
    expect(readFileSync(path.join(whole, 'report.html'), 'utf8')).toContain(`data-branches="${known.length - untaken.length}/${known.length}"`);

    const mergedR03 = summaryOf(merged).properties.find((p) => p.id === 'R03')!;
    expect(mergedR03.branches).toEqual(r03.branches);
    expect(mergedR03.untakenBranches).toEqual(untaken);
    expect(summaryOf(one).properties[0].branches).not.toEqual(r03.branches);
    expect(m.stdout).toContain(`R03  ${known.length - untaken.length}/${known.length}`);
  });
});
