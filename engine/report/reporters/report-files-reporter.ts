/** The report folder (summary.json, junit.xml, report.html, SARIF, matrix.md), written when the run ends. */
import type { MigrationFile } from '../../db/migrations.ts';
import { writeReports, type ReportFormat } from '../write.ts';
import type { RunReporter } from '../run-events.ts';
import { EnvironmentError } from '../../errors.ts';

export function reportFilesReporter(dir: string, options: { formats?: readonly ReportFormat[]; migrations?: readonly MigrationFile[] }): RunReporter {
  return {
    on(event, bus) {
      if (event.type !== 'run-finished') return;
      let files;
      try {
        files = writeReports(dir, event.summary, options);
      } catch (e) {
        // The run's verdict is still printed; then the run ends with exit 2 and what to change.
        const message = e instanceof Error ? e.message : String(e);
        bus.emit({ type: 'reports-written', files: {}, error: message });
        throw new EnvironmentError(`the reports could not be written to ${dir}: ${message}. Free that path or choose another folder with --report-dir`);
      }
      bus.emit({ type: 'reports-written', files });
    },
  };
}
