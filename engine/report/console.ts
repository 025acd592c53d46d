/** What a person watching the terminal sees: a progress bar while cases run, then one row per property. */
import cliProgress from 'cli-progress';
import type { BranchCount, PropertyResult } from '../runner/result.ts';
import { earlyStopNote } from '../runner/budget.ts';
import { untakenBranches } from '../runner/coverage.ts';
import type { RunTimings } from './summary.ts';
import type { Outcome } from '../model/outcome.ts';
import { actualOutcomeOf, describeOutcome } from '../failures/describe.ts';
import type { SavedFailure } from '../failures/store.ts';
import { apiRoleOf, describeCaller } from '../model/caller.ts';
import { requestLine, differingStep, failureDiff, formatDiff } from './diff.ts';
import { NO_PAINT, type Paint } from './color.ts';
import { STATUS_LABEL } from './summary.ts';

export interface Progress {
  tick(label: string): void;
  /** A property's findings are being shrunk: said on the bar (a log gets a line), so a quiet stretch does not look like a hang. */
  shrinking(property: string, findings: number): void;
  stop(): void;
}

/** No progress shown (--quiet, --json). */
export const NO_PROGRESS: Progress = { tick() {}, shrinking() {}, stop() {} };

export function progressBar(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  const bar = new cliProgress.SingleBar(
    {
      format: 'fuzzing [{bar}] {percentage}% | {value}/{total} cases | {property} | {duration_formatted}',
      stream,
      noTTYOutput: !stream.isTTY,
      notTTYSchedule: 5000,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { property: '' });
  // Cases finish hundreds a second; the bar redraws at most ten times a second (a log every few
  // seconds). Each increment costs the bar an ETA update and an event: finished cases are handed
  // to it at most every TICK_EVERY_MS, or at once when the property changes, and before any other call.
  let unsent = 0;
  let label = '';
  let sentAt = 0;
  const send = () => {
    if (unsent === 0) return;
    bar.increment(unsent, { property: label });
    unsent = 0;
    sentAt = Date.now();
  };
  return {
    tick(property) {
      if (property !== label) send();
      label = property;
      unsent++;
      if (Date.now() - sentAt >= TICK_EVERY_MS) send();
    },
    shrinking(property, findings) {
      send();
      const shrinking = `${property}: shrinking ${findings} finding${findings === 1 ? '' : 's'}`;
      // Not a terminal (a CI log): the bar prints every few seconds only; the line says it now.
      if (stream.isTTY) bar.update({ property: shrinking });
      else stream.write(`${shrinking}\n`);
    },
    stop() {
      send();
      bar.stop();
    },
  };
}

/** How often finished cases reach the progress bar: its own redraw interval (cli-progress's default 10 fps). */
export const TICK_EVERY_MS = 100;

type Out = (line: string) => void;


function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

/** The table fits a terminal of this many columns: the rule's title comes last and is shortened to fit. */
export const TABLE_WIDTH = 100;

export { COUNTS_LEGEND } from './counts-legend.ts';

export function summaryTable(results: PropertyResult[], width: number = TABLE_WIDTH): string {
  // Cases the target could not hold get a column of their own, only when some were dropped.
  const withDropped = results.some((r) => r.dropped);
  const header = ['id', 'status', 'cases', ...(withDropped ? ['dropped'] : []), 'allowed', 'filtered', 'rejected', 'errored', 'time', 'rule'];
  const rows = results.map((r) => [
    r.id,
    STATUS_LABEL[r.status],
    r.planned !== undefined && r.cases < r.planned && (r.stopped || r.stoppedEarly) ? `${r.cases}/${r.planned}` : String(r.cases),
    ...(withDropped ? [String(Object.values(r.dropped ?? {}).reduce((n, k) => n + k, 0))] : []),
    String(r.counts.allowed ?? '-'),
    String(r.counts.filtered ?? '-'),
    String(r.counts.rejected ?? '-'),
    String(r.counts.errored ?? '-'),
    `${(r.durationMs / 1000).toFixed(1)}s`,
    r.title,
  ]);
  const widths = header.slice(0, -1).map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const titleWidth = Math.max(12, width - widths.reduce((n, w) => n + w + 2, 0));
  const fit = (title: string) => (title.length <= titleWidth ? title : `${title.slice(0, titleWidth - 1)}…`);
  const line = (cells: string[]) => [...cells.slice(0, -1).map((c, i) => pad(c, widths[i])), fit(cells.at(-1)!)].join('  ').trimEnd();
  return [line(header), [...widths, Math.min(titleWidth, Math.max(4, ...rows.map((r) => r.at(-1)!.length)))].map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The properties that stopped early (`--early-stop`), one line each: at how many cases, and why. */
export function earlyStopLines(results: readonly { id: string; planned?: number | null; stoppedEarly?: { cases: number; reason: string } }[]): string[] {
  const stopped = results.filter((r) => r.stoppedEarly);
  if (!stopped.length) return [];
  return ['early stop (saturated at or past the minimum; --no-early-stop runs every case):', ...stopped.map((r) => `  ${r.id}  ${earlyStopNote(r.stoppedEarly!, r.planned)}`)];
}

/**
 * The properties whose role-swept cases were cut (engine/runner/check-case.ts CaseCut), one line
 * each: how many, and the main reason. A cut case was checked up to the cut, not dropped.
 */
export function cutCaseLines(results: readonly { id: string; cut?: Record<string, number> | undefined }[]): string[] {
  const withCuts = results.filter((r) => r.cut && Object.keys(r.cut).length);
  if (!withCuts.length) return [];
  const line = (cut: Record<string, number>) => {
    const byCount = Object.entries(cut).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const total = byCount.reduce((n, [, k]) => n + k, 0);
    return `${total} case${total === 1 ? '' : 's'} cut, mostly: ${byCount[0][0]}`;
  };
  return ['cut cases (a step the role sweep appended, as anon or the server, that this target cannot hold: the case was judged up to it; by reason in summary.json):', ...withCuts.map((r) => `  ${r.id}  ${line(r.cut!)}`)];
}

/**
 * Model-branch coverage (engine/model/branches.ts), one line per property that has branches:
 * taken / known, and the branches the run never reached, named.
 */
export function branchCoverageLines(results: readonly { id: string; branches?: readonly BranchCount[] | undefined }[]): string[] {
  const withBranches = results.filter((r) => r.branches?.length);
  if (!withBranches.length) return [];
  const lines = withBranches.map((r) => {
    const untaken = untakenBranches(r.branches);
    return `  ${r.id}  ${r.branches!.length - untaken.length}/${r.branches!.length}${untaken.length ? `  never reached: ${untaken.join(', ')}` : ''}`;
  });
  return ['model branches taken (of those the model knows):', ...lines];
}

/** How a failure can be replayed and where it was saved. */
export interface SavedFor {
  saved?: SavedFailure;
  replay: string;
  /** Why it could not be saved (a warning: the run's verdict stands). */
  unsaved?: string;
}

/** Characters of a saved failure's case shown on the console. */
const CASE_FOLD = 300;

/** A case on one console line, folded past CASE_FOLD characters (the saved file, when there is one, holds it in full). */
export function foldedCase(testCase: unknown, savedFile?: string): string {
  const text = JSON.stringify(testCase) ?? 'null';
  return text.length > CASE_FOLD ? `${text.slice(0, CASE_FOLD)}…${savedFile ? ` (in full: ${savedFile})` : ''}` : text;
}

/**
 * Each failure: who asked what (the caller, the request as a curl line) and the replay command
 * first, then only the fields where model and database differ, then the full values.
 */
export function printFailures(results: PropertyResult[], saved: ReadonlyMap<string, SavedFor>, out: Out, colors: Paint = NO_PAINT): void {
  for (const r of results) {
    if (r.status === 'failed' && r.failure) {
      const s = saved.get(r.id) ?? { replay: '' };
      const f = r.failure;
      out(`\n${colors.red(colors.bold(`${r.id} FAILED`))}: ${f.message}`);
      const step = r.area === 'data' ? differingStep(f.counterexample, f.step) : undefined;
      if (step) {
        out(`  caller:   ${describeCaller(step.caller)} (role ${apiRoleOf(step.caller)})`);
        out(`  request:  ${requestLine(step.caller, step.request, f.sentAs)}`);
      }
      if (s.replay) out(`  replay:   ${s.replay}`);
      if (f.expected === undefined && f.actual === undefined) continue; // a catalog finding: the message says it all
      const diff = formatDiff(failureDiff(f.expected, f.actual, f.masked));
      if (diff.length) {
        out(`  differs (model → database):`);
        for (const line of diff) out(`    ${colors.yellow(line)}`);
      }
      out('  full values:');
      if (r.area === 'data') {
        const actual = actualOutcomeOf(f.actual);
        out(`    model:    ${describeOutcome(f.expected as Outcome)}`);
        out(`    database: ${actual ? describeOutcome(actual) : JSON.stringify(f.actual)}`);
      } else {
        out(`    expected: ${JSON.stringify(f.expected)}`);
        out(`    target:   ${JSON.stringify(f.actual)}`);
      }
      // The case in full is in the saved file: on the console it is folded to a line.
      const caseText = JSON.stringify(f.counterexample) ?? 'null';
      out(`    case:     ${s.saved && caseText.length > CASE_FOLD ? `${caseText.slice(0, CASE_FOLD)}… (in full: ${s.saved.json})` : caseText}`);
      // The case as first found, next to the shrunk one: shrinking keeps the signature, so it is the same finding.
      if (f.unshrunk !== undefined) out(`    unshrunk: ${foldedCase(f.unshrunk, s.saved?.json)}`);
      if (s.saved) {
        out(`  saved:    ${s.saved.json}  (policyfuzz replay ${s.saved.json})`);
        if (s.saved.sql) out(`  repro:    psql "$DATABASE_URL" -v ON_ERROR_STOP=0 -f ${s.saved.sql}`);
        if (s.saved.pgtap) out(`  pgTAP:    ${s.saved.pgtap}  (supabase test db / pg_prove)`);
        if (s.saved.regression) out(`  test:     ${s.saved.regression} (a vitest test; its header says where it goes)`);
      }
      if (s.unsaved) out(`  ${colors.yellow(`warning: ${s.unsaved}`)}`);
      // What else the property met (a harness error after its findings, shrinking cut short, cases dropped): never silent.
      if (r.note) out(`  note:     ${r.note}`);
    } else if (r.note && ((r.status !== 'passed' && r.status !== 'not-reached' && r.status !== 'partial') || (r.status === 'passed' && r.dropped))) {
      // A pass with many cases dropped says which constraint dropped them (the health note).
      // PARTIAL and NOT REACHED: the table and the budget or interrupt line say it once.
      out(`\n${r.id} ${STATUS_LABEL[r.status]}: ${r.note}`);
    }
  }
}

/**
 * `--timings`: where the run's time went, from the summary's `timings`. The start-up and its
 * parts, the phases after it, then one line per property (a data property's parts are summed over
 * the workers' lanes and overlap: the next case is made ready while one is in the database).
 */
export function timingsText(t: RunTimings): string[] {
  const ms = (n: number) => `${Math.round(n)} ms`;
  const phases = [
    `replay ${ms(t.replayMs)}`,
    `data properties ${ms(t.propertiesMs)}`,
    `catalog ${ms(t.catalogMs)}`,
    ...(t.ssoMs ? [`SSO ${ms(t.ssoMs)}`] : []),
  ];
  const width = Math.max(0, ...Object.keys(t.properties).map((id) => id.length));
  const lines = Object.entries(t.properties).map(([id, p]) => {
    const parts = p.generationMs !== undefined ? `: generation ${ms(p.generationMs)}, model ${ms(p.modelMs ?? 0)}, database ${ms(p.databaseMs ?? 0)}, shrinking ${ms(p.shrinkingMs ?? 0)}` : '';
    return `  ${id.padEnd(width)}  ${ms(p.totalMs).padStart(9)}${parts}`;
  });
  return [
    `timings: total ${ms(t.totalMs)}`,
    `  start-up ${ms(t.startupMs)} (server ${ms(t.serverMs)}, migrations ${ms(t.migrationsMs)}, template ${ms(t.templateMs)}, workers ${ms(t.workersMs)}) · ${phases.join(' · ')}`,
    ...(lines.length ? [`  per property (generation, model and database are summed over the workers and overlap):`, ...lines] : []),
  ];
}
