/**
 * `policyfuzz diff --base <git-ref|dir> [--head <dir> | --config <file>]`: what a migration change
 * changes. The same generated cases (by seed) run against both migration states; every behaviour
 * change is reported per rule and clause, judged by the model: regression (exit 1), fix, or
 * change outside the rules. A short table on the console, Markdown for a pull-request comment
 * with --markdown. A project config (given, or found in the current folder as `fuzz` finds it)
 * sets the head folders, the model's settings, the rules and the fixture plan for both sides.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import { startDatabaseServer } from '../engine/db/providers/index.ts';
import { changedObjects, touches } from '../engine/config/changed-since.ts';
import type { PackSource } from '../engine/pack.ts';
import { chooseTarget, ruleAllowed } from '../engine/config/target.ts';
import { UsageError } from '../engine/errors.ts';
import { baseFolders } from '../engine/diff/base-migrations.ts';
import { runDiff } from '../engine/diff/run-diff.ts';
import { diffMarkdown, diffTable } from '../engine/diff/behaviour-diff.ts';
import { freshSeed, idList, positiveInt, seedValue } from './options.ts';
import { defaultMigrationsOption } from './fuzz-command.ts';

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

export function registerDiffCommand(program: Command, run: (action: () => Promise<number>) => Promise<void>, pack: PackSource): void {
  program
    .command('diff')
    .description('behaviour diff of a migration change: the same cases against the base and the head, each change judged by the model (exit 1 on a regression)')
    .requiredOption('--base <git-ref|dir...>', "the migrations before the change: a git ref (its version of each head folder is used), or one folder for each of the head's folders, in the config's order")
    .option('--head <dir>', `the migrations after the change (default: the config's, else ${defaultMigrationsOption(pack)})`)
    .option('--config <file>', 'a project config (policyfuzz.config.json or .ts): its migration folders, model settings, rules and fixtures; default: the one in this folder, if any')
    .option('--seed <n>', 'seed for generation (default: a fresh one, printed)', seedValue)
    .option('--runs <n>', 'cases per rule (default 200)', positiveInt('--runs'))
    .option('--only <ids>', 'comma-separated rule ids, e.g. R02,R05', idList)
    .option('--changed-since <git-ref>', 'only the rules whose tables or functions the head migrations changed since this ref')
    .option('--database-url <url>', 'use this Postgres server (default: $DATABASE_URL, else testcontainers, else a local server)')
    .option('--markdown <file>', 'also write the report as Markdown (for a pull-request comment)')
    .option('--pack <module>', "a project pack module (as for fuzz): its properties and mapping; default: the config's \"pack\", if any")
    .action(({ pack: packModule, ...opts }: Omit<DiffOptions, 'packModule'> & { pack?: string }) => run(() => diff({ ...opts, ...(packModule ? { packModule } : {}) }, pack)));
}
