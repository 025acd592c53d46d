/**
 * The `fuzz` run: a pipeline of phases (plan → data half → SSO half → summary and verdict) that
 * only emit events, with the reporters subscribed (see fuzz-command.ts). Loaded when a run starts,
 * so `--help` and bad input never pay for the engine.
 */
import { colorEnabled, paint } from '../../engine/report/color.ts';
import { RunEvents } from '../../engine/report/run-events.ts';
import { consoleReporter } from '../../engine/report/reporters/console-reporter.ts';
import { failureStoreReporter } from '../../engine/report/reporters/failure-store-reporter.ts';
import { githubSummaryReporter } from '../../engine/report/reporters/github-summary-reporter.ts';
import { jsonStdoutReporter } from '../../engine/report/reporters/json-stdout-reporter.ts';
import { reportFilesReporter } from '../../engine/report/reporters/report-files-reporter.ts';
import { clearRunningMark, markReportsRunning } from '../../engine/report/write.ts';
import { lockReportFolder, unlockReportFolder } from '../../engine/report/folder-lock.ts';
import { onShutdown } from '../../engine/db/cleanup.ts';
import { RunControl, runDataProperties } from '../../engine/run/index.ts';
import { runSsoHalf, startSsoHalf } from './sso-half.ts';
import { runVerdict, summaryOf, writeBaseline } from './finish.ts';
import type { FuzzOptions } from './fuzz-options.ts';
import { planLine, planRun, replayLineOf } from './plan.ts';

type Out = (line: string) => void;

export async function runFuzz(options: FuzzOptions, out: Out = console.log): Promise<number> {
  const colors = paint(colorEnabled({ noColor: options.color === false, stream: options.json ? process.stderr : process.stdout }));
  const events = new RunEvents();
  events.subscribe(consoleReporter({ out, colors, quiet: options.quiet, matrix: options.report?.includes('matrix') || options.verbose, progress: !options.json, timings: options.timings }));
  const plan = await planRun(options, (text, always) => events.emit({ type: 'note', text, always }));
  const store = failureStoreReporter({ dir: plan.failuresDir, record: plan.record, oracle: plan.oracle, replayLine: (r) => replayLineOf(plan, r) });
  // The store first: the console and the reports show where each failure was saved.
  events.subscribe(store, reportFilesReporter(plan.reportDir, { formats: options.report, migrations: plan.migrations }), githubSummaryReporter());
  if (options.json) events.subscribe(jsonStdoutReporter());
  events.subscribe(...(options.reporters ?? []));
  const running = { pid: process.pid, startedAt: plan.startedAt.toISOString(), ...(plan.shard.count > 1 ? { shard: `${plan.shard.index}/${plan.shard.count}` } : {}) };
  // Another run writing this folder now: refused before anything of its is touched (folder-lock.ts).
  lockReportFolder(plan.reportDir, running, '--report-dir', plan.timeBudgetMs);
  // The earlier run's reports go before the plan line says the run is under way: a kill on seeing it
  // (a runner's time limit) must not leave last night's green beside tonight's shard.
  markReportsRunning(plan.reportDir, options.report, running);
  // However the process ends short of its reports (an error, a signal while starting), the mark and
  // the lock go; only SIGKILL leaves them (the next run takes such a lock over).
  const release = () => {
    clearRunningMark(plan.reportDir, process.pid);
    unlockReportFolder(plan.reportDir, process.pid);
  };
  const forgetMark = onShutdown(async () => release());
  events.emit({ type: 'note', text: planLine(plan) });

  // Called from code (tests, a library user), a run that throws ends here with no shutdown to clear
  // its mark: it goes as the run ends, however it ends (a finished run's summary carries no mark).
  try {
    const control = new RunControl(events, options.maxFailures);
    // The SSO half beside the data half, on a thread of its own, when it can (sso-half.ts).
    const ssoThread = startSsoHalf(plan, events, control);
    // Beside it, the data half keeps no time back for an SSO half to run afterwards.
    const { ssoNeedsMs: _needs, ssoNeedsNote: _note, ...alone } = plan;
    const dataPlan = ssoThread ? { ...alone, ssoReserveMs: 0 } : plan;
    let data;
    try {
      data = await runDataProperties(dataPlan, events, control, plan.startedAt.getTime());
    } catch (error) {
      await ssoThread?.stop();
      throw error;
    }
    const sso = await runSsoHalf(plan, events, control, ssoThread);
    const phases = { ...data.phases, ...(sso.results.length ? { ssoMs: sso.ms } : {}) };
    const results = [...data.results, ...sso.results];
    control.stopWatchingInterrupts();

    const verdict = runVerdict(plan, results, control.notRun, control.interruptedBy);
    const baselineWritten = writeBaseline(plan, results, data.baselineChecks);
    const summary = summaryOf(plan, results, store.saved, control.interruptedBy, phases, data.warnings);
    events.emit({
      type: 'run-finished',
      results,
      summary,
      saved: store.saved,
      baselineChecks: data.baselineChecks,
      ...(baselineWritten ? { baselineWritten } : {}),
      ...(options.maxFailures !== undefined ? { maxFailures: options.maxFailures } : {}),
      ...(control.interruptedBy ? { interruptedBy: control.interruptedBy } : {}),
      verdict,
    });
    return verdict.exitCode;
  } finally {
    forgetMark();
    release();
  }
}

