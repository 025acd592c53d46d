/** The report folder (summary.json, junit.xml, report.html, SARIF, matrix.md), written when the run ends. */
import type { MigrationFile } from '../../db/migrations.ts';
import { writeReports, type ReportFormat } from '../write.ts';
import type { RunReporter } from '../run-events.ts';

export function reportFilesReporter(dir: string, options: { formats?: readonly ReportFormat[]; migrations?: readonly MigrationFile[] }): RunReporter {
  return {
    on(event, bus) {
      if (event.type !== 'run-finished') return;
      bus.emit({ type: 'reports-written', files: writeReports(dir, event.summary, options) });
    },
  };
}
