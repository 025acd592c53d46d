/**
 * The terminal: notes while the run goes, a progress bar while cases run, then the table, the
 * failures and findings, and the verdict line that CI reads. `--quiet` keeps the failures, the
 * `always` notes and the verdict; `--json` sends all of it to stderr (the caller's `out`).
 */
import { accessMatrix, matrixMarkdown } from '../matrix.ts';
import { branchCoverageLines, COUNTS_LEGEND, cutCaseLines, earlyStopLines, NO_PROGRESS, printFailures, progressBar, summaryTable, timingsText, type Progress } from '../console.ts';
import { printFindings } from '../../findings/report.ts';
import { reportFileList } from '../write.ts';
import type { Paint } from '../color.ts';
import type { RunEventOf, RunReporter } from '../run-events.ts';

type Out = (line: string) => void;

export interface ConsoleReporterOptions {
  out: Out;
  colors: Paint;
  quiet?: boolean;
  /** Also the access matrix (`--verbose`, or `--report matrix`). */
  matrix?: boolean;
  /** A progress bar while cases run (off for --quiet, --json and in-process callers that pass false). */
  progress?: boolean;
  /** Where the time went (`--timings`), from the summary's `timings`. */
  timings?: boolean;
}

export function consoleReporter(options: ConsoleReporterOptions): RunReporter {
  const { out, colors } = options;
  const chatter: Out = options.quiet ? () => {} : out;
  let bar: Progress = NO_PROGRESS;
  let finished: RunEventOf<'run-finished'> | undefined;
  return {
    on(event) {
      switch (event.type) {
        case 'note':
          return (event.always ? out : chatter)(event.text);
        case 'saved-failure-replayed':
          return chatter(`  ${event.file}: ${event.stillFails ? 'still fails' : 'now passes (policyfuzz replay it to confirm FIXED)'}${event.digestChange ?? ''}`);
        case 'generation-started':
          bar = options.progress === false || options.quiet ? NO_PROGRESS : progressBar(event.plannedCases);
          return;
        case 'case-finished':
          return bar.tick(event.property);
        case 'shrinking-started':
          return bar.shrinking(event.property, event.findings);
        case 'generation-finished':
          bar.stop();
          bar = NO_PROGRESS;
          return;
        case 'run-finished': {
          finished = event;
          chatter('');
          chatter(summaryTable(event.results));
          if (event.results.some((r) => r.area === 'data')) for (const line of COUNTS_LEGEND) chatter(line);
          const branchLines = branchCoverageLines(event.results);
          if (branchLines.length) chatter(`\n${branchLines.join('\n')}`);
          const earlyLines = earlyStopLines(event.results);
          if (earlyLines.length) chatter(`\n${earlyLines.join('\n')}`);
          const cutLines = cutCaseLines(event.results);
          if (cutLines.length) chatter(`\n${cutLines.join('\n')}`);
          printFailures(event.results, event.saved, out, colors);
          printFindings(event.results, event.saved, event.baselineChecks, out);
          const notRun = event.verdict.notRun;
          if (notRun.length) out(`\nstopped after ${event.maxFailures} failing propert${event.maxFailures === 1 ? 'y' : 'ies'} (--max-failures): not run ${notRun.join(', ')}`);
          if (event.baselineWritten) out(`\nbaseline ${event.baselineWritten.file} written: ${event.baselineWritten.findings} accepted finding(s)`);
          return;
        }
        case 'reports-written': {
          if (!finished) return;
          const { summary, results, interruptedBy, verdict } = finished;
          if (options.matrix) chatter(`\naccess matrix (who can do what, judged by the model):\n\n${matrixMarkdown(accessMatrix(summary.properties))}`);
          const budgetHit = results.filter((r) => r.stopped === 'time budget');
          if (budgetHit.length) chatter(`\ntime budget reached: ${summary.totals.cases} cases ran (${budgetHit.map((r) => `${r.id} ${r.cases}${r.planned !== undefined ? `/${r.planned}` : ''}`).join(', ')})`);
          if (interruptedBy) out(`\ninterrupted by ${interruptedBy}: the reports cover what completed before it`);
          if (event.error) out(`\nreports: not written (${event.error})`);
          else chatter(`\nreports: ${reportFileList(event.files).join(', ')}`);
          const halves = (['data', 'sso'] as const).flatMap((area) => {
            const own = results.filter((r) => r.area === area);
            const passed = own.filter((r) => r.status === 'passed').length;
            return own.length ? [`${area === 'data' ? 'data layer' : 'SSO'} ${passed}/${own.length} passed (${own.reduce((n, r) => n + r.cases, 0)} cases)`] : [];
          });
          if (halves.length > 1) chatter(`\n${halves.join(' · ')}`);
          if (options.timings && summary.timings) out(`\n${timingsText(summary.timings).join('\n')}`);
          out(`\n${verdict.failed ? colors.red(verdict.line) : colors.green(verdict.line)}`);
          return;
        }
        default:
          return;
      }
    },
  };
}
