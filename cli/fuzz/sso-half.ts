/**
 * The SSO half of `fuzz`: the SSO properties against the bundled emulator. Saved failures are
 * replayed first; a property whose saved case still fails takes that as its verdict. Without saved
 * failures to replay it starts on a thread of its own beside the data half (startSsoHalf,
 * sso-thread.ts); its results are reported after the data half's all the same.
 */
import type { RunEvents } from '../../engine/report/run-events.ts';
import { notReached } from '../../engine/run/index.ts';
import type { PropertyResult } from '../../engine/run/index.ts';
import { runSsoAgainstEmulator, ssoPropertyTitles } from '../sso-integration.ts';
import type { RunControl } from '../../engine/run/index.ts';
import type { RunPlan } from './plan.ts';
import { ssoThreadAvailable, startSsoThread, type SsoThread, type SsoThreadAnswer } from './sso-thread.ts';

const ssoRunsOf = (plan: RunPlan) => plan.options.ssoRuns ?? plan.profile.ssoRuns;

function startNote(plan: RunPlan, properties: number): { type: 'note'; text: string } {
  return { type: 'note', text: `SSO: ${properties} properties against the bundled emulator, ${ssoRunsOf(plan)} runs each` };
}

/**
 * The SSO half started beside the data half, when it can be: properties to run, none of them a
 * saved failure to replay first, not one case replayed (`--path`). Its budget is counted from
 * here (the data half's own from its generation), so it never outlasts the data half's.
 */
export function startSsoHalf(plan: RunPlan, events: RunEvents, control: RunControl): SsoThread | undefined {
  const { ssoIds, options } = plan;
  if (!ssoIds.length || options.path || plan.savedSso.length || control.interrupted() || !ssoThreadAvailable()) return undefined;
  events.emit(startNote(plan, ssoIds.length));
  return startSsoThread(
    { seed: plan.seed, numRuns: ssoRunsOf(plan), only: ssoIds, ...(options.ssoConfig ? { config: options.ssoConfig } : {}), ...(plan.timeBudgetMs ? { deadline: Date.now() + plan.timeBudgetMs } : {}) },
    control.signal,
  );
}

/** The SSO half's results and its own time (a thread's from its start, beside the data half). */
export async function runSsoHalf(plan: RunPlan, events: RunEvents, control: RunControl, started?: SsoThread): Promise<SsoThreadAnswer> {
  const { ssoIds, options } = plan;
  const since = Date.now();
  const results: PropertyResult[] = [];
  const finish = (result: PropertyResult, savedFile?: (typeof plan.savedSso)[number]) => {
    results.push(result);
    control.record(result);
    events.emit({ type: 'property-finished', result, ...(savedFile ? { savedFile } : {}) });
  };
  if (!ssoIds.length) return { results, ms: 0 };
  // What a thread started beside the data half ran: cut short, like the main thread's, at an interrupt.
  if (started) {
    if (control.maxFailuresReached()) {
      await started.stop();
      control.notRun.push(...ssoIds);
      return { results, ms: 0 };
    }
    // An interrupt from here on aborts control.signal, which the thread was given: it stops.
    control.watchInterrupts();
    // A thread that fails (it crashed, or could not send its results) leaves its properties an
    // ERROR each, never the run: the data half's findings are reported all the same.
    const { results: ran, ms } = await started.answer.catch(async (error: unknown) => ({ results: threadFailed(plan, await ssoPropertyTitles(), error), ms: Date.now() - since }));
    for (const r of ran) finish(r);
    await notReachedRest(plan, results, finish);
    return { results, ms };
  }
  if (control.interrupted()) {
    const titles = await ssoPropertyTitles();
    for (const id of ssoIds) finish(notReached(titles.find((p) => p.id === id) ?? { id, title: id }, 'sso', plan.seed, 'interrupted'));
    return { results, ms: Date.now() - since };
  }
  if (control.maxFailuresReached()) {
    control.notRun.push(...ssoIds);
    return { results, ms: 0 };
  }
  control.watchInterrupts();
  // The budget both halves share (counted from the data half's generation, or from here).
  const deadline = control.budgetEndsAt(options.path ? undefined : plan.timeBudgetMs);
  const stillFailing = new Set<string>();
  for (const saved of plan.savedSso) {
    const { file, record } = saved;
    if (stillFailing.has(record.property) || control.interrupted()) continue;
    const [r] = await runSsoAgainstEmulator({ seed: record.seed, numRuns: 1, only: [record.property], path: record.path, config: options.ssoConfig, signal: control.signal });
    if (!r) continue;
    events.emit({ type: 'note', text: `  ${file}: ${r.status === 'failed' ? 'still fails' : 'now passes'}` });
    if (r.status === 'failed' && r.failure) {
      stillFailing.add(record.property);
      finish({ ...r, note: `saved failure ${file} still fails (replayed first; no new cases generated)` }, saved);
    }
  }
  const rest = ssoIds.filter((id) => !stillFailing.has(id));
  if (rest.length && !control.interrupted()) {
    events.emit(startNote(plan, rest.length));
    for (const r of await runSsoAgainstEmulator({ seed: plan.seed, numRuns: ssoRunsOf(plan), only: rest, path: options.path, config: options.ssoConfig, signal: control.signal, ...(deadline !== undefined ? { deadline } : {}) })) finish(r);
  }
  await notReachedRest(plan, results, finish);
  return { results, ms: Date.now() - since };
}

/** Those an interrupt kept from starting: NOT REACHED, as in the data half. */
async function notReachedRest(plan: RunPlan, results: PropertyResult[], finish: (r: PropertyResult) => void): Promise<void> {
  const reported = new Set(results.map((r) => r.id));
  const titles = await ssoPropertyTitles();
  for (const id of plan.ssoIds) if (!reported.has(id)) finish(notReached(titles.find((p) => p.id === id) ?? { id, title: id }, 'sso', plan.seed, 'interrupted', ssoRunsOf(plan)));
}

/** The SSO half's properties when its thread failed before answering: a harness error each, no verdict. */
export function threadFailed(plan: Pick<RunPlan, 'ssoIds' | 'seed'>, titles: { id: string; title: string }[], error: unknown): PropertyResult[] {
  const why = error instanceof Error ? error.message : String(error);
  return plan.ssoIds.map((id) => ({
    id,
    title: titles.find((p) => p.id === id)?.title ?? id,
    area: 'sso',
    status: 'error',
    cases: 0,
    counts: {},
    durationMs: 0,
    seed: plan.seed,
    note: `harness error: the SSO half's thread failed before its results (${why}); POLICYFUZZ_SSO_THREAD=off runs the SSO half after the data half, in the main thread`,
  }));
}
