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
import { openEnvironment } from '../engine/runner/environment.ts';
import { fitToTarget, missingObjects } from '../engine/runner/applicability.ts';
import { changedObjects, touches } from '../engine/config/changed-since.ts';
import type { PackSource } from '../engine/pack.ts';
import { choosePack, resolveTarget, ruleAllowed } from '../engine/config/target.ts';
import { findConfig } from '../engine/config/config-file.ts';
import type { DataCase } from '../engine/runner/data-case.ts';
import type { DataProperty } from '../engine/runner/data-property.ts';
import { UsageError } from '../engine/errors.ts';
import { baseFolders } from '../engine/diff/base-migrations.ts';
import { apiPrivileges, privilegeChanges } from '../engine/diff/privilege-diff.ts';
import { compareCase, diffCases, diffMarkdown, diffTable, groupChanges, observeCases, type DiffReport, type SideRecord } from '../engine/diff/behaviour-diff.ts';
import { freshSeed, idList, positiveInt, seedValue } from './options.ts';
import { defaultMigrationsOption } from './fuzz-command.ts';

export interface DiffOptions {
  base: string;
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
  const { pack: loaded } = await choosePack(pack, options.head ? options.config : (options.config ?? findConfig()), options.packModule);
  const headOption = options.head ?? defaultMigrationsOption(pack);
  const target = await resolveTarget(loaded, { config: options.config, migrations: headOption, explicitMigrations: Boolean(options.head), ...(options.packModule ? { packModule: options.packModule } : {}) });
  const headDirs = target.config?.migrationDirs ?? [headOption];
  const seed = options.seed ?? freshSeed();
  const runs = options.runs ?? 200;
  const unknown = (options.only ?? []).filter((id) => !loaded.properties.some((p) => p.id === id));
  if (unknown.length) throw new UsageError(`no data-layer property ${unknown.join(', ')} (known: ${loaded.properties.map((p) => p.id).join(', ')})`);
  let listed = (options.only ? loaded.properties.filter((p) => options.only!.includes(p.id)) : loaded.properties).filter((p) => ruleAllowed(target.config, p.id));
  if (options.changedSince) listed = listed.filter((p) => touches(p, changedObjects(options.changedSince!, headDirs).objects, target.fixtures?.mapping));
  const headFiles = target.migrations;
  const base = baseFolders(options.base, headDirs);
  const oracle = target.oracle;
  // Both sides are built the same way: the target's compatibility layer and fixture plan.
  const sides = { supabaseCompat: target.supabaseCompat, fixtures: target.fixtures, workers: 1 };
  try {
    const baseFiles = base.dirs.flatMap((dir) => loadMigrationFolder(dir, target.config?.skip));
    out(`policyfuzz diff: ${base.label} → ${target.label}, seed ${seed}, ${runs} cases per rule`);
    const server = await startDatabaseServer({ databaseUrl: options.databaseUrl });
    try {
      // Head first: its schema decides which rules run (and how R01 narrows); a rule the base cannot run is skipped.
      const head = await openEnvironment({ server, migrations: headFiles, ...sides });
      const headPrivileges = await apiPrivileges(head.workers[0].client, head.cache.exposedSchemas);
      const properties: DataProperty[] = [];
      const skipped: DiffReport['skipped'] = [];
      const cases = new Map<string, DataCase[]>();
      const headRecords = new Map<string, SideRecord[]>();
      try {
        for (const p of listed) {
          const { property, missing } = fitToTarget(p, head.cache, target.fixtures?.mapping);
          if (missing.length) {
            skipped.push({ id: p.id, reason: `head lacks ${missing.join(', ')}` });
            continue;
          }
          properties.push(property);
          cases.set(property.id, diffCases(property, oracle, seed, runs));
          headRecords.set(property.id, await observeCases(head.workers[0], cases.get(property.id)!, oracle));
        }
      } finally {
        await head.close();
      }
      const baseEnv = await openEnvironment({ server, migrations: baseFiles, ...sides });
      const privileges = privilegeChanges(await apiPrivileges(baseEnv.workers[0].client, head.cache.exposedSchemas), headPrivileges);
      const changes = [];
      const compared: string[] = [];
      try {
        for (const property of properties) {
          const missing = missingObjects(property, baseEnv.cache, target.fixtures?.mapping);
          if (missing.length) {
            skipped.push({ id: property.id, reason: `base lacks ${missing.join(', ')}` });
            continue;
          }
          compared.push(property.id);
          const list = cases.get(property.id)!;
          const baseRecords = await observeCases(baseEnv.workers[0], list, oracle);
          const headList = headRecords.get(property.id)!;
          for (let i = 0; i < list.length; i++) {
            const change = compareCase(property.id, list[i], baseRecords[i], headList[i], oracle);
            if (change) changes.push(change);
          }
        }
      } finally {
        await baseEnv.close();
      }
      const report: DiffReport = { base: base.label, head: target.label, seed, runs, properties: compared, skipped, changes: groupChanges(changes), privileges };
      out('');
      out(diffTable(report));
      for (const s of skipped) out(`not compared: ${s.id} (${s.reason})`);
      if (options.markdown) {
        writeFileSync(options.markdown, diffMarkdown(report));
        out(`markdown: ${options.markdown}`);
      }
      const regressions = report.changes.filter((c) => c.verdict === 'regression');
      const fixes = report.changes.filter((c) => c.verdict === 'fix');
      const grants = privileges.gained.length + privileges.lost.length;
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
    .requiredOption('--base <git-ref|dir>', 'the migrations before the change: a folder, or a git ref whose version of the head folder is used')
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
