/** Writes the report folder: summary.json, junit.xml, report.html. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { htmlReport } from './html.ts';
import { junitXml } from './junit.ts';
import type { RunSummary } from './summary.ts';

export const DEFAULT_REPORT_DIR = path.join('.policyfuzz', 'reports');

export interface ReportFiles {
  summary: string;
  junit: string;
  html: string;
}

export function writeReports(dir: string, summary: RunSummary): ReportFiles {
  mkdirSync(dir, { recursive: true });
  const files = { summary: path.join(dir, 'summary.json'), junit: path.join(dir, 'junit.xml'), html: path.join(dir, 'report.html') };
  writeFileSync(files.summary, `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(files.junit, junitXml(summary));
  writeFileSync(files.html, htmlReport(summary));
  return files;
}
