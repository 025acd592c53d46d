/**
 * The report formats and default folder: what `--report`, `--report-dir` and their help need,
 * without the writers (write.ts), so the CLI's option definitions load in a blink.
 */
import path from 'node:path';

export const DEFAULT_REPORT_DIR = path.join('.policyfuzz', 'reports');

export const REPORT_FORMATS = ['json', 'junit', 'html', 'sarif', 'matrix'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const DEFAULT_REPORT_FORMATS: readonly ReportFormat[] = ['json', 'junit', 'html'];
