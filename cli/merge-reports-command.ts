/**
 * `policyfuzz merge-reports <summary.json|folder>...`: combines the JSON summaries of the shards
 * of one run into one summary, one JUnit file and one HTML report, judges coverage on the merged
 * clause tallies (a shard leaves it to the merge), prints the per-property table and ends with
 * `N passed, N failed` (exit 1 when any property failed, or had no verdict: every case dropped;
 * 130 when a shard was interrupted, as one machine interrupted exits).
 */
import { branchCoverageLines, cutCaseLines, earlyStopLines, summaryTable } from '../engine/report/console.ts';
import { loadSummary, mergeSummaries } from '../engine/report/summary.ts';
import { existsSync } from 'node:fs';
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import { reportFileList, writeReports, type ReportFormat } from '../engine/report/write.ts';
import { lockReportFolder, unlockReportFolder } from '../engine/report/folder-lock.ts';
import { UsageError } from '../engine/errors.ts';
import { assertWritableFolder } from './writable-folder.ts';
import { INTERRUPTED_EXIT_CODE } from '../engine/db/cleanup.ts';

export interface MergeOptions {
  out: string;
  /** Report files to write (default json, junit, html). */
  report?: ReportFormat[];
  /** Merge even when some shards are missing (the totals then cover only those given). */
  allowPartial?: boolean;
}

export async function mergeReports(inputs: string[], options: MergeOptions, out: (line: string) => void = console.log): Promise<number> {
  if (inputs.length === 0) throw new UsageError('merge-reports needs the summary.json files (or report folders) of the shards');
  assertWritableFolder(options.out, '--out');
  const summaries = inputs.map(loadSummary);
  const seeds = new Set(summaries.map((s) => s.seed));
  // Shards of other seeds tested other cases: their merge would be no one machine's run.
  if (seeds.size > 1) throw new UsageError(`the inputs ran with different seeds (${[...seeds].join(', ')}): merge the shards of one run (each run with the same --seed)`);
  // The values the shards recorded (an older summary records none: it differs from nothing).
  const recorded = (key: 'profile' | 'migrationsDigest' | 'policyfuzzVersion') => new Set(summaries.map((s) => s[key]).filter((v) => v !== undefined && v !== null));
  // Nor are shards of other profiles (cases, workers, early stop: split otherwise), migrations or policyfuzz versions one run's.
  const differing = (
    [
      ['profile', 'profiles', 'the same --profile'],
      ['migrationsDigest', 'migrations (digests)', 'the same migrations and pack'],
      ['policyfuzzVersion', 'policyfuzz versions', 'the same policyfuzz'],
    ] as const
  ).find(([key]) => recorded(key).size > 1);
  if (differing) {
    const [key, what, same] = differing;
    throw new UsageError(`the inputs ran with different ${what} (${[...recorded(key)].join(', ')}): merge the shards of one run (each with ${same})`);
  }
  const shards = summaries.flatMap((s) => s.shards);
  const dup = shards.find((s, i) => shards.some((t, j) => j < i && t.index === s.index && t.count === s.count));
  if (dup) throw new UsageError(`shard ${dup.index}/${dup.count} appears twice among the inputs`);
  const counts = new Set(shards.map((s) => s.count));
  if (counts.size > 1) throw new UsageError(`the inputs come from runs split differently (${[...new Set(shards.map((s) => `${s.index}/${s.count}`))].join(', ')}): merge the shards of one run`);
  const [count] = counts;
  if (shards.length < count) {
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !shards.some((s) => s.index === i));
    const message = `${shards.length} of ${count} shards given (missing ${missing.map((i) => `${i}/${count}`).join(', ')})`;
    if (!options.allowPartial) throw new UsageError(`${message}: the merged totals would not be the run's. Give every shard, or pass --allow-partial`);
    out(`warning: ${message}; merging anyway (--allow-partial)`);
  }
  const merged = mergeSummaries(summaries);
  // SARIF locates failures in the migrations the shards ran on, when that folder is here.
  const migrations = options.report?.includes('sarif') && merged.migrations && existsSync(merged.migrations) ? loadMigrationFolder(merged.migrations) : undefined;
  // A run writing --out now (folder-lock.ts) keeps it: the merge refuses rather than overwrite its files.
  lockReportFolder(options.out, { pid: process.pid, startedAt: new Date().toISOString() }, '--out');
  let files;
  try {
    files = writeReports(options.out, merged, { formats: options.report, migrations });
  } finally {
    unlockReportFolder(options.out, process.pid);
  }
  out(
    summaryTable(
      merged.properties.map((p) => ({ ...p, note: p.note ?? undefined, planned: p.planned ?? undefined, failure: undefined })),
    ),
  );
  const branchLines = branchCoverageLines(merged.properties);
  if (branchLines.length) out(`\n${branchLines.join('\n')}`);
  const earlyLines = earlyStopLines(merged.properties);
  if (earlyLines.length) out(`\n${earlyLines.join('\n')}`);
  const cutLines = cutCaseLines(merged.properties);
  if (cutLines.length) out(`\n${cutLines.join('\n')}`);
  out(`\nmerged ${summaries.length} summaries (${merged.totals.cases} cases): ${reportFileList(files).join(', ')}`);
  const t = merged.totals;
  if (merged.interrupted) out(`\na shard was interrupted by ${merged.interrupted}: the totals cover what completed`);
  out(`\n${t.passed} passed, ${t.failed} failed${t.noVerdict ? `, ${t.noVerdict} no verdict (every case dropped)` : ''}${t.partial ? `, ${t.partial} partial` : ''}${t.notReached ? `, ${t.notReached} not reached` : ''}${t.notApplicable ? `, ${t.notApplicable} not applicable` : ''} (seed ${merged.seed})`);
  // As one machine interrupted: 130 (its reports cover what completed), whatever passed.
  if (merged.interrupted) return INTERRUPTED_EXIT_CODE;
  return merged.totals.failed || merged.totals.noVerdict ? 1 : 0;
}
