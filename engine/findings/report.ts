/** The findings of a run on the console: every distinct finding of a property after its first, sizes, baseline verdicts. */
import type { Outcome } from '../model/outcome.ts';
import type { PropertyFailure, PropertyResult } from '../runner/result.ts';
import { actualOutcomeOf, describeOutcome } from '../failures/describe.ts';
import { foldedCase, type SavedFor } from '../report/console.ts';
import type { BaselineCheck } from './baseline.ts';
import { describeSize } from './minimize.ts';

type Out = (line: string) => void;

export const findingKey = (r: Pick<PropertyResult, 'id'>, f: PropertyFailure) => `${r.id} ${f.signature ?? f.path}`;

/** `printFailures` shows each property's first open finding; this adds its signature and size, then the others. */
export function printFindings(results: PropertyResult[], saved: ReadonlyMap<string, SavedFor>, checks: BaselineCheck[], out: Out): void {
  for (const r of results) {
    if (r.area !== 'data' || !r.findings?.length) continue;
    const open = r.findings.filter((f) => f.baselined === undefined);
    const accepted = r.findings.filter((f) => f.baselined !== undefined);
    out(`\n${r.id}: ${r.findings.length} distinct finding(s)${accepted.length ? `, ${accepted.length} accepted by the baseline` : ''}`);
    for (const [i, f] of open.entries()) {
      out(`  ${i + 1}. ${f.signature ?? f.message}`);
      if (f.sizes) out(`     shrunk from ${describeSize(f.sizes.before)} to ${describeSize(f.sizes.after)}`);
      if (f === r.failure) {
        out('     (shown above)');
        continue;
      }
      const actual = actualOutcomeOf(f.actual);
      out(`     ${f.message.split('\n').join('\n     ')}`);
      out(`     model:    ${describeOutcome(f.expected as Outcome)}`);
      out(`     database: ${actual ? describeOutcome(actual) : JSON.stringify(f.actual)}`);
      out(`     case:     ${JSON.stringify(f.counterexample)}`);
      if (f.unshrunk !== undefined) out(`     unshrunk: ${foldedCase(f.unshrunk, saved.get(findingKey(r, f))?.saved?.json)}`);
      const s = saved.get(findingKey(r, f));
      if (s?.replay) out(`     replay:   ${s.replay}`);
      if (s?.saved) out(`     saved:    ${s.saved.json}  (policyfuzz replay ${s.saved.json})`);
      if (s?.unsaved) out(`     warning:  ${s.unsaved}`);
    }
    for (const f of accepted) out(`  accepted: ${f.signature} (${f.baselined})`);
  }
  const byVerdict = (v: BaselineCheck['verdict']) => checks.filter((c) => c.verdict === v);
  if (checks.length) {
    out(`\nbaseline: ${byVerdict('FOUND').length} found again, ${byVerdict('REPRODUCES').length} still reproduce, ${byVerdict('FIXED').length} FIXED, ${byVerdict('NOT SEEN').length} not seen`);
    for (const c of byVerdict('FIXED')) out(`  FIXED: ${c.entry.signature} (no longer disagrees this way; --update-baseline removes it)`);
    for (const c of byVerdict('NOT SEEN')) out(`  not seen: ${c.entry.signature} (the entry has no case to replay)`);
  }
}

/**
 * A property's summary with its other open findings after the first (summary.json, JUnit and HTML
 * list them all); each failure entry also carries its signature and its size before and after shrinking.
 */
export function withOtherFindings<S extends { failures: object[] }>(summary: S, r: PropertyResult, failuresOf: (f: PropertyFailure) => S['failures']): S {
  if (r.status !== 'failed' || !r.findings || !r.failure) return summary;
  const tag = (f: PropertyFailure) => ({ ...(f.signature ? { signature: f.signature } : {}), ...(f.side ? { side: f.side } : {}), ...(f.sizes ? { sizes: f.sizes } : {}) });
  const others = r.findings.filter((f) => f.baselined === undefined && f !== r.failure);
  const first = summary.failures.map((entry) => ({ ...entry, ...tag(r.failure!) }));
  return { ...summary, failures: [...first, ...others.flatMap((f) => failuresOf(f).map((entry) => ({ ...entry, ...tag(f) })))] };
}
