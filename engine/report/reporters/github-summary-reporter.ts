/**
 * On GitHub Actions (`GITHUB_STEP_SUMMARY` set), the run's verdict, one row per property and each
 * failure's replay line are appended to the job's summary page, where a reviewer looks first.
 */
import { appendFileSync } from 'node:fs';
import { STATUS_LABEL, type RunSummary } from '../summary.ts';
import type { RunReporter } from '../run-events.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The summary page's Markdown for a run. */
export function githubSummaryMarkdown(summary: RunSummary, verdictLine: string): string {
  const rows = summary.properties.map((p) => `| ${p.id} | ${STATUS_LABEL[p.status]} | ${p.cases} | ${cell(p.failures[0]?.message ?? p.note ?? '')} |`);
  const replays = summary.properties.flatMap((p) => p.failures.filter((f) => f.replay).map((f) => `- **${p.id}**: \`${cell(f.replay.split('\n')[0])}\``));
  return [`### policyfuzz: ${verdictLine}`, '', '| property | status | cases | note |', '|---|---|---|---|', ...rows, ...(replays.length ? ['', 'Replay:', ...replays] : []), ''].join('\n');
}

export function githubSummaryReporter(file: string | undefined = process.env.GITHUB_STEP_SUMMARY): RunReporter {
  return {
    on(event) {
      if (event.type === 'run-finished' && file) appendFileSync(file, `${githubSummaryMarkdown(event.summary, event.verdict.line)}\n`);
    },
  };
}
