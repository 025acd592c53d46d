import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepDeadTempDirs, tempDir } from './temp-dir.ts';

describe('test temp folders', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sweep-root-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('are named by their process, and a killed run’s are swept by the next run while a live one’s stay', () => {
    expect(path.basename(tempDir('naming'))).toMatch(new RegExp(`^pf-naming-${process.pid}-[A-Za-z0-9]{6}$`));
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const dead = path.join(root, `pf-bad-config-${gone}-Ab12Cd`);
    const live = path.join(root, `pf-bad-config-${process.pid}-Ef34Gh`);
    const other = path.join(root, 'pf-consumer-Ij56Kl');
    for (const d of [dead, live, other]) mkdirSync(d);
    expect(sweepDeadTempDirs(root)).toEqual([path.basename(dead)]);
    expect([existsSync(dead), existsSync(live), existsSync(other)]).toEqual([false, true, true]);
  });
});
