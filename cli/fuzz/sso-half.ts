/**
 * The SSO half of `fuzz`: the SSO properties against the bundled emulator. Saved failures are
 * replayed first; a property whose saved case still fails takes that as its verdict.
 */
import type { RunEvents } from '../../engine/report/run-events.ts';
import { notReached } from '../../engine/run/index.ts';
import type { PropertyResult } from '../../engine/run/index.ts';
import { runSsoAgainstEmulator, ssoPropertyTitles } from '../sso-integration.ts';
import type { RunControl } from '../../engine/run/index.ts';
import type { RunPlan } from './plan.ts';

export async function runSsoHalf(plan: RunPlan, events: RunEvents, control: RunControl): Promise<PropertyResult[]> {
  const { ssoIds, options } = plan;
  const results: PropertyResult[] = [];
  const finish = (result: PropertyResult, savedFile?: (typeof plan.savedSso)[number]) => {
    results.push(result);
    control.record(result);
    events.emit({ type: 'property-finished', result, ...(savedFile ? { savedFile } : {}) });
  };
  if (!ssoIds.length) return results;
  if (control.interrupted()) {
    const titles = await ssoPropertyTitles();
    for (const id of ssoIds) finish(notReached(titles.find((p) => p.id === id) ?? { id, title: id }, 'sso', plan.seed, 'interrupted'));
    return results;
  }
  if (control.maxFailuresReached()) {
    control.notRun.push(...ssoIds);
    return results;
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
  const ssoRuns = options.ssoRuns ?? plan.profile.ssoRuns;
  if (rest.length && !control.interrupted()) {
    events.emit({ type: 'note', text: `SSO: ${rest.length} properties against the bundled emulator, ${ssoRuns} runs each` });
    for (const r of await runSsoAgainstEmulator({ seed: plan.seed, numRuns: ssoRuns, only: rest, path: options.path, config: options.ssoConfig, signal: control.signal, ...(deadline !== undefined ? { deadline } : {}) })) finish(r);
  }
  // Those an interrupt kept from starting: NOT REACHED, as in the data half.
  const reported = new Set(results.map((r) => r.id));
  const titles = await ssoPropertyTitles();
  for (const id of ssoIds) if (!reported.has(id)) finish(notReached(titles.find((p) => p.id === id) ?? { id, title: id }, 'sso', plan.seed, 'interrupted', ssoRuns));
  return results;
}
