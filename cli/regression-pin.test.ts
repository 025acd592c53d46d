/**
 * A failure found on a project's config, through the real binary: its saved regression test
 * rebuilds that target (config: settings, migration folders, fixtures), so it keeps failing while
 * the bug is there instead of passing at once on the bundled database.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { PROJECT_ROOT } from './paths.ts';

const run = promisify(execFile);
const CONFIG = path.join(PROJECT_ROOT, 'examples/campus-shop/policyfuzz.config.json');

/**
 * The campus shop project copied to a temp folder, and R01's failure found on its config (the
 * deny-list guard): one run both tests read. The first pastes its regression test; the second
 * then moves the project away, as a checkout elsewhere.
 */
async function foundOnCopy() {
  const project = path.join(tempDir('pin'), 'project');
  mkdirSync(project);
  cpSync(path.dirname(CONFIG), project, { recursive: true, filter: (f) => !f.endsWith('.test.ts') });
  const config = path.join(project, 'policyfuzz.config.json');
  const failures = path.join(project, '.policyfuzz', 'failures');
  // 30 cases: seed 1 finds R01's one finding within them (200 found the same one).
  const found = await runBin(['fuzz', '--config', config, '--only', 'R01', '--seed', '1', '--runs', '30', '--workers', '1', '--no-replay', '--failures-dir', failures, '--report-dir', path.join(project, 'r'), '--database-url', inject('databaseUrl')]);
  return { project, config, failures, found };
}

describe('saved regression tests pin their target', () => {
  let copy: Awaited<ReturnType<typeof foundOnCopy>>;
  beforeAll(async () => {
    copy = await foundOnCopy();
  });

  it("R01 on the campus shop's config: the saved regression test fails while the deny-list guard is there", async () => {
    const r = copy.found;
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const file = readdirSync(copy.failures).find((f) => f.endsWith('.regression.ts'))!;
    const text = readFileSync(path.join(copy.failures, file), 'utf8');
    // The regression replays the saved failure beside it, which records its target.
    const saved = file.replace(/\.regression\.ts$/, '.json');
    expect(text).toContain(`./${saved}`);
    expect(readFileSync(path.join(copy.failures, saved), 'utf8')).toContain(JSON.stringify(copy.config));

    // Pasted three folders deep, as into packs/reference/regressions/, and run with vitest.
    const folder = path.join(PROJECT_ROOT, '.scratch', `pf-pin-${process.pid}`, 'regressions');
    mkdirSync(folder, { recursive: true });
    try {
      writeFileSync(path.join(folder, file.replace(/\.regression\.ts$/, '.test.ts')), text);
      writeFileSync(path.join(folder, saved), readFileSync(path.join(copy.failures, saved)));
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

  it('the project moved (or checked out elsewhere) with its failures: replay finds its config beside them; with the config gone, exit 2 naming it, never a replay on another target', async () => {
    // Seen: a failure saved on /a/policyfuzz.config.json replayed from /b fell back to the bundled
    // reference database, where the case passes: FIXED, exit 0, with the bug still in the project.
    const { project, failures, found } = copy;
    expect(found.code, found.stdout + found.stderr).toBe(1);
    const saved = readdirSync(failures).find((f) => f.endsWith('.json'))!;
    const moved = path.join(path.dirname(project), 'elsewhere');
    cpSync(project, moved, { recursive: true });
    rmSync(project, { recursive: true });

    const replayed = await runBin(['replay', path.join(moved, '.policyfuzz', 'failures', saved), '--times', '1', '--no-color', '--database-url', inject('databaseUrl')]);
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(1);
    expect(replayed.stdout).toContain(`config ${path.join(moved, 'policyfuzz.config.json')}`);
    expect(replayed.stdout).toMatch(/STILL FAILING/);

    rmSync(path.join(moved, 'policyfuzz.config.json'));
    const lost = await runBin(['replay', path.join(moved, '.policyfuzz', 'failures', saved), '--times', '1', '--no-color', '--database-url', inject('databaseUrl')]);
    expect(lost.code, lost.stdout + lost.stderr).toBe(2);
    expect(lost.stderr).toBe(`policyfuzz: this failure was found with the config ${path.join(project, 'policyfuzz.config.json')}, which is not here (nor where it lay relative to the failure file): replay it with --config <that project's config file>\n`);
    expect(lost.stdout).not.toMatch(/FIXED/);
  });
});
