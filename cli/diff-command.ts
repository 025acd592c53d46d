/**
 * `policyfuzz diff --base <git-ref|dir> [--head <dir> | --config <file>]`: what a migration change
 * changes. The same generated cases (by seed) run against both migration states; every behaviour
 * change is reported per rule and clause, judged by the model: regression (exit 1), fix, or
 * change outside the rules. A short table on the console, Markdown for a pull-request comment
 * with --markdown. A project config (given, or found in the current folder as `fuzz` finds it)
 * sets the head folders, the model's settings, the rules and the fixture plan for both sides.
 */
import { writeFileSync } from 'node:fs';
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import { startDatabaseServer } from '../engine/db/providers/index.ts';
import { changedObjects, touches } from '../engine/config/changed-since.ts';
import type { PackSource } from '../engine/pack.ts';
import { chooseTarget, ruleAllowed } from '../engine/config/target.ts';
import { UsageError } from '../engine/errors.ts';
import { baseFolders } from '../engine/diff/base-migrations.ts';
import { runDiff } from '../engine/diff/run-diff.ts';
import { diffMarkdown, diffTable } from '../engine/diff/behaviour-diff.ts';
import { freshSeed } from './options.ts';

export interface DiffOptions {
  /** The migrations before the change: one git ref, or a folder for each of the head's folders. */
  base: string | string[];
  head?: string;
  /** A project config (policyfuzz.config.json/.ts); found in the current folder when neither it nor --head is given. */
  config?: string;
  seed?: number;
  runs?: number;
  only?: string[];
  changedSince?: string;
  databaseUrl?: string;
  markdown?: string;
  /** A project pack module (`--pack`), as for fuzz. */
  packModule?: string;
}

type Out = (line: string) => void;

export async function diff(options: DiffOptions, pack: PackSource, out: Out = console.log): Promise<number> {
  if (options.head && options.config) throw new UsageError('--head and --config both name the head migrations: give one (the config lists its folders under "migrations")');
  // A project's pack (its mapping, its rules) as fuzz takes it: --pack, else the config's "pack".
  // The head is chosen as fuzz chooses its target: --config, else the config here, else --head, supabase/migrations or the pack's own.
  const { pack: loaded, target } = await chooseTarget(pack, { config: options.config, ...(options.head ? { migrations: [options.head] } : {}), ...(options.packModule ? { pack: options.packModule } : {}) });
  const headDirs = target.migrationDirs;
  const seed = options.seed ?? freshSeed();
  const runs = options.runs ?? 200;
  const unknown = (options.only ?? []).filter((id) => !loaded.properties.some((p) => p.id === id));
  if (unknown.length) throw new UsageError(`no data-layer property ${unknown.join(', ')} (known: ${loaded.properties.map((p) => p.id).join(', ')})`);
  let listed = (options.only ? loaded.properties.filter((p) => options.only!.includes(p.id)) : loaded.properties).filter((p) => ruleAllowed(target.config, p.id));
  if (options.changedSince) listed = listed.filter((p) => touches(p, changedObjects(options.changedSince!, headDirs).objects, target.fixtures?.mapping));
  const base = baseFolders(options.base, headDirs);
  try {
    const baseFiles = base.dirs.flatMap((dir) => loadMigrationFolder(dir, target.config?.skip));
    out(`policyfuzz diff: ${base.label} → ${target.label}, seed ${seed}, ${runs} cases per rule`);
    const server = await startDatabaseServer({ databaseUrl: options.databaseUrl });
    try {
      const report = await runDiff({ pack: loaded, target, base: baseFiles, baseLabel: base.label, server, properties: listed, seed, runs });
      const { skipped, privileges } = report;
      out('');
      out(diffTable(report));
      for (const s of skipped) out(`not compared: ${s.id} (${s.reason})`);
      if (options.markdown) {
        writeFileSync(options.markdown, diffMarkdown(report));
        out(`markdown: ${options.markdown}`);
      }
      const regressions = report.changes.filter((c) => c.verdict === 'regression');
      const fixes = report.changes.filter((c) => c.verdict === 'fix');
      const grants = privileges ? privileges.gained.length + privileges.lost.length : 0;
      out(`\n${regressions.length} regression(s), ${fixes.length} fix(es), ${report.changes.length - regressions.length - fixes.length} change(s) outside the rules${grants ? `, ${grants} privilege change(s)` : ''} (seed ${seed})`);
      return regressions.length ? 1 : 0;
    } finally {
      await server.stop();
    }
  } finally {
    base.cleanup();
  }
}
