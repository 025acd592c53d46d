/**
 * Writes the report folder. Formats (`--report json,junit,html,sarif,matrix`): summary.json,
 * junit.xml, report.html, policyfuzz.sarif (SARIF 2.1.0) and matrix.md (the access matrix in
 * Markdown). Default: json, junit and html.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MigrationFile } from '../db/migrations.ts';
import { htmlReport } from './html.ts';
import { junitXml } from './junit.ts';
import { accessMatrix, matrixMarkdown } from './matrix.ts';
import { sarifLog } from './sarif.ts';
import { SUMMARY_FORMAT, type RunningMark, type RunSummary } from './summary.ts';

import { DEFAULT_REPORT_FORMATS, type ReportFormat } from './formats.ts';

export { DEFAULT_REPORT_DIR, DEFAULT_REPORT_FORMATS, REPORT_FORMATS, type ReportFormat } from './formats.ts';

const FILE_OF: Record<ReportFormat, string> = { json: 'summary.json', junit: 'junit.xml', html: 'report.html', sarif: 'policyfuzz.sarif', matrix: 'matrix.md' };

export interface ReportFiles {
  summary?: string;
  junit?: string;
  html?: string;
  sarif?: string;
  matrix?: string;
}

export interface WriteOptions {
  formats?: readonly ReportFormat[];
  /** The migrations the run applied: SARIF locates each failure in them. */
  migrations?: readonly MigrationFile[];
}

export function writeReports(dir: string, summary: RunSummary, options: WriteOptions = {}): ReportFiles {
  const formats = options.formats ?? DEFAULT_REPORT_FORMATS;
  mkdirSync(dir, { recursive: true });
  const files: ReportFiles = {};
  const file = (f: ReportFormat) => path.join(dir, FILE_OF[f]);
  if (formats.includes('json')) writeFileSync((files.summary = file('json')), `${JSON.stringify(summary, null, 2)}\n`);
  if (formats.includes('junit')) writeFileSync((files.junit = file('junit')), junitXml(summary));
  if (formats.includes('html')) writeFileSync((files.html = file('html')), htmlReport(summary));
  if (formats.includes('sarif')) writeFileSync((files.sarif = file('sarif')), `${JSON.stringify(sarifLog(summary, { migrations: options.migrations }), null, 2)}\n`);
  if (formats.includes('matrix')) writeFileSync((files.matrix = file('matrix')), matrixMarkdown(accessMatrix(summary.properties)));
  return files;
}

/**
 * At a run's start: the report files an earlier run left in `dir` are removed, and summary.json
 * says a run is under way, so a run killed or dead before its reports (SIGKILL, out of memory, a CI
 * runner's timeout) leaves no earlier run's green reports to be read, or merged, as its own.
 */
export function markReportsRunning(dir: string, formats: readonly ReportFormat[] | undefined, running: RunningMark): void {
  // A report path the run cannot write (a folder in its place, no permission) is not this mark's to
  // judge: the run goes on, and writing its reports at the end says what is wrong, in one line.
  const attempt = (write: () => void) => {
    try {
      write();
    } catch {
      // left to the reports' own write
    }
  };
  attempt(() => mkdirSync(dir, { recursive: true }));
  for (const f of formats ?? DEFAULT_REPORT_FORMATS) attempt(() => rmSync(path.join(dir, FILE_OF[f]), { force: true }));
  if ((formats ?? DEFAULT_REPORT_FORMATS).includes('json')) attempt(() => writeFileSync(path.join(dir, FILE_OF.json), `${JSON.stringify({ format: SUMMARY_FORMAT, running }, null, 2)}\n`));
}

/**
 * At a run's end without reports (an error or an interrupt before any case): its under-way mark
 * goes, so it does not claim a run still going; a run's own summary.json, or another run's, stays.
 */
export function clearRunningMark(dir: string, pid: number): void {
  const file = path.join(dir, FILE_OF.json);
  try {
    if ((JSON.parse(readFileSync(file, 'utf8')) as { running?: RunningMark }).running?.pid === pid) rmSync(file, { force: true });
  } catch {
    // gone, or not a mark: nothing of ours to clear
  }
}

/** The files written, in the order of REPORT_FORMATS. */
export function reportFileList(files: ReportFiles): string[] {
  return [files.html, files.junit, files.summary, files.sarif, files.matrix].filter((f): f is string => f !== undefined);
}
