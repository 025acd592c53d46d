/**
 * A failure found on a project's config, through the real binary: its saved regression test
 * rebuilds that target (config: settings, migration folders, fixtures), so it keeps failing while
 * the bug is there instead of passing at once on the bundled database.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { PROJECT_ROOT } from './paths.ts';

const run = promisify(execFile);
const CONFIG = path.join(PROJECT_ROOT, 'examples/campus-shop/policyfuzz.config.json');

describe('saved regression tests pin their target', () => {
  it('R01 on the campus shop config: the saved regression test fails while the deny-list guard is there', async () => {
    const dir = tempDir('pin');
    const r = await runBin(['fuzz', '--config', CONFIG, '--only', 'R01', '--seed', '1', '--runs', '200', '--workers', '1', '--no-replay', '--failures-dir', path.join(dir, 'f'), '--report-dir', path.join(dir, 'r'), '--database-url', inject('databaseUrl')]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const file = readdirSync(path.join(dir, 'f')).find((f) => f.endsWith('.regression.ts'))!;
    const text = readFileSync(path.join(dir, 'f', file), 'utf8');
    // The regression replays the saved failure beside it, which records its target.
    const saved = file.replace(/\.regression\.ts$/, '.json');
    expect(text).toContain(`./${saved}`);
    expect(readFileSync(path.join(dir, 'f', saved), 'utf8')).toContain(JSON.stringify(CONFIG));

    // Pasted three folders deep, as into packs/reference/regressions/, and run with vitest.
    const folder = path.join(PROJECT_ROOT, '.scratch', `pf-pin-${process.pid}`, 'regressions');
    mkdirSync(folder, { recursive: true });
    try {
      writeFileSync(path.join(folder, file.replace(/\.regression\.ts$/, '.test.ts')), text);
      writeFileSync(path.join(folder, saved), readFileSync(path.join(dir, 'f', saved)));
      const config = path.join(folder, 'vitest.config.ts');
      writeFileSync(config, `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { root: ${JSON.stringify(PROJECT_ROOT)}, include: [${JSON.stringify(`${path.relative(PROJECT_ROOT, folder)}/*.test.ts`)}], globalSetup: ['testing/global-setup.ts'], pool: 'forks' } });\n`);
      const { stdout, stderr } = await run(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'vitest'), ['run', '--config', config], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, DATABASE_URL: inject('databaseUrl'), CI: '1', NO_COLOR: '1' },
      }).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));
      expect(stdout).toMatch(/1 failed/);
      // Failed by the replay itself (the saved case still disagrees), not by a missing file or import.
      expect(stderr, stdout).toMatch(/R01 .* still fails \(.*R01-[0-9a-f]+\.json\): step \d+:/);
      expect(stderr).toMatch(/^model: +raised: SQLSTATE P0001/m);
    } finally {
      rmSync(path.dirname(folder), { recursive: true, force: true });
    }
  });
});
