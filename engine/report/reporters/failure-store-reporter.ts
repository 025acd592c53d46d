/**
 * The failure folder: every open finding of a failed property is saved with its repros (a psql
 * script, a pgTAP test, a vitest regression test) and its replay line. A verdict that is a saved
 * failure replayed as it was points at the files already there. `saved` is what the console and
 * the summary show for each property or finding.
 */
import { existsSync } from 'node:fs';
import type { Oracle } from '../../pack.ts';
import { failureRecordOf, saveFailure, type RecordContext, type SavedFailure } from '../../failures/store.ts';
import type { FailureRecord } from '../../failures/schema.ts';
import { reproSql } from '../../failures/repro-sql.ts';
import { pgtapTest } from '../../failures/pgtap.ts';
import { regressionTest } from '../../failures/regression-test.ts';
import { findingKey } from '../../findings/report.ts';
import type { Environment } from '../../runner/environment.ts';
import type { PropertyResult } from '../../runner/result.ts';
import type { SavedFor } from '../console.ts';
import type { RunReporter } from '../run-events.ts';

export interface FailureStoreReporter extends RunReporter {
  /** Per property id (its first finding) and per finding key: the replay line and the files. */
  readonly saved: Map<string, SavedFor>;
}

export interface FailureStoreOptions {
  dir: string;
  record: RecordContext;
  oracle: Oracle;
  /** The command line that replays this result's failure. */
  replayLine(result: PropertyResult): string;
}

/** The files of a failure saved by an earlier run. */
export function savedFiles({ record, file }: { record: FailureRecord; file: string }): SavedFailure {
  const sibling = (suffix: string) => file.replace(/\.json$/, suffix);
  const [sql, pgtap, regression] = [sibling('.sql'), sibling('.pgtap.sql'), sibling('.regression.ts')];
  return { record, json: file, ...(existsSync(sql) ? { sql } : {}), ...(existsSync(pgtap) ? { pgtap } : {}), ...(existsSync(regression) ? { regression } : {}) };
}

export function failureStoreReporter(options: FailureStoreOptions): FailureStoreReporter {
  const saved = new Map<string, SavedFor>();
  /** A data failure's repros; they need the database the case ran on. */
  const reprosOf = (record: FailureRecord, env?: Environment) =>
    record.area === 'data' && env
      ? { sql: reproSql(record, env.cache, options.oracle, env.workers[0].tx.fixturePlan), pgtap: pgtapTest(record, env.cache, options.oracle, env.workers[0].tx.fixturePlan), regression: regressionTest(record) }
      : {};
  const save = (r: PropertyResult, env?: Environment): SavedFor => {
    const record = failureRecordOf(r, options.record);
    const entry: SavedFor = { replay: options.replayLine(r) };
    if (!record) return entry;
    try {
      entry.saved = saveFailure(options.dir, record, reprosOf(record, env));
    } catch (e) {
      // The verdict and the failure's text matter more than its file: they are still printed.
      entry.unsaved = `could not save this failure in ${options.dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): the failure is printed here; free space or fix the folder (--failures-dir) to save the next run's`;
    }
    return entry;
  };
  return {
    saved,
    on(event) {
      if (event.type !== 'property-finished' || event.result.status !== 'failed') return;
      const r = event.result;
      // A catalog finding has no case to save: its replay line is all there is.
      if (r.id.endsWith(':catalog')) return void saved.set(r.id, { replay: options.replayLine(r) });
      if (!r.failure) return;
      if (event.savedFile) return void saved.set(r.id, { replay: options.replayLine(r), saved: savedFiles(event.savedFile) });
      const open = (r.findings ?? []).filter((f) => f.baselined === undefined);
      if (!r.findings?.length) return void saved.set(r.id, save(r, event.environment));
      // Every open finding is saved with its own replay line; the property's entry is its first.
      for (const f of open) {
        const entry = save({ ...r, failure: f }, event.environment);
        saved.set(findingKey(r, f), entry);
        if (f === r.failure) saved.set(r.id, entry);
      }
    },
  };
}
