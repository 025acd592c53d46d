/**
 * A baseline of accepted findings (`--baseline <file>`): each entry a finding's signature, the
 * reason it is accepted and the shrunk case it was found with. A run fails only on findings
 * whose signature is not in it; an entry whose case no longer disagrees that way is reported
 * FIXED; `--update-baseline` writes the file anew (current findings in, fixed ones out). A
 * baselined signature never stops the search for others: it is matched after the run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import type { Oracle } from '../pack.ts';
import type { PropertyFailure, PropertyResult } from '../runner/result.ts';
import { checkCase } from '../runner/check-case.ts';
import type { Worker } from '../runner/environment.ts';
import { DataCaseSchema } from '../failures/schema.ts';
import type { DataCase } from '../runner/data-case.ts';
import { signatureOf } from './signature.ts';
import { PROPERTY_ID_PATTERN } from '../property-id.ts';

export const BASELINE_FORMAT = 'policyfuzz-baseline';

const EntrySchema = z.strictObject({
  signature: z.string().min(1),
  property: z.string().regex(new RegExp(`^${PROPERTY_ID_PATTERN}$`)),
  reason: z.string().trim().min(1, 'say why this finding is accepted'),
  /** The shrunk case it was accepted with: replayed to tell whether it is FIXED. */
  case: DataCaseSchema.optional(),
  acceptedAt: z.string().optional(),
});

const BaselineSchema = z.strictObject({
  format: z.literal(BASELINE_FORMAT),
  formatVersion: z.literal(1),
  findings: z.array(EntrySchema),
});

export type BaselineEntry = z.infer<typeof EntrySchema>;
export type Baseline = z.infer<typeof BaselineSchema>;

export const UPDATE_REASON = 'accepted by --update-baseline: replace with why this is acceptable';

export function emptyBaseline(): Baseline {
  return { format: BASELINE_FORMAT, formatVersion: 1, findings: [] };
}

/** Reads a baseline; a missing file is an empty one only when it is about to be written. */
export function loadBaseline(file: string, options: { mayBeMissing?: boolean } = {}): Baseline {
  if (!existsSync(file)) {
    if (options.mayBeMissing) return emptyBaseline();
    throw new UsageError(`baseline file not found: ${file} (create it with --update-baseline)`);
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`${file} is not a policyfuzz baseline: invalid JSON (${(e as Error).message})`);
  }
  const parsed = BaselineSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${file} is not a valid policyfuzz baseline: ${issue.path.join('.') || '(top level)'}: ${issue.message} (expected {"format": "${BASELINE_FORMAT}", "formatVersion": 1, "findings": [{"signature", "property", "reason"}]})`);
  }
  return parsed.data;
}

export function saveBaseline(file: string, baseline: Baseline): void {
  const findings = [...baseline.findings].sort((a, b) => a.signature.localeCompare(b.signature));
  writeFileSync(file, `${JSON.stringify({ ...baseline, findings }, null, 2)}\n`);
}

/**
 * The results with the baseline applied: a baselined finding carries its reason; a property
 * whose findings are all baselined passes (its note names them); otherwise its `failure` is the
 * first finding not in the baseline.
 */
export function applyBaseline(results: PropertyResult[], baseline: Pick<Baseline, 'findings'>): PropertyResult[] {
  const reasons = new Map(baseline.findings.map((e) => [e.signature, e.reason]));
  return results.map((r) => {
    if (r.area !== 'data' || r.status !== 'failed' || !r.findings?.length) return r;
    const findings = r.findings.map((f): PropertyFailure => (f.signature && reasons.has(f.signature) ? { ...f, baselined: reasons.get(f.signature)! } : f));
    const open = findings.filter((f) => f.baselined === undefined);
    const accepted = findings.length - open.length;
    if (!accepted) return r;
    const note = `${accepted} finding(s) accepted by the baseline`;
    if (!open.length) {
      const { failure: _first, ...rest } = r;
      return { ...rest, status: 'passed', findings, note };
    }
    return { ...r, findings, failure: open[0], note: r.note ? `${r.note}; ${note}` : note };
  });
}

export interface BaselineCheck {
  entry: BaselineEntry;
  verdict: 'FOUND' | 'REPRODUCES' | 'FIXED' | 'NOT SEEN';
}

/**
 * What became of each entry of the properties that ran: found again by this run, or its case
 * replayed once: still disagreeing with the same signature (REPRODUCES) or not (FIXED). An entry
 * without a case that this run did not find is NOT SEEN.
 */
export async function checkBaseline(worker: Worker, oracle: Oracle, baseline: Baseline, results: PropertyResult[]): Promise<BaselineCheck[]> {
  const ran = new Map(results.filter((r) => r.area === 'data' && (r.status === 'passed' || r.status === 'failed')).map((r) => [r.id, r]));
  const checks: BaselineCheck[] = [];
  for (const entry of baseline.findings) {
    const result = ran.get(entry.property);
    if (!result) continue;
    if (result.findings?.some((f) => f.signature === entry.signature)) {
      checks.push({ entry, verdict: 'FOUND' });
      continue;
    }
    if (!entry.case) {
      checks.push({ entry, verdict: 'NOT SEEN' });
      continue;
    }
    let same = false;
    try {
      const verdict = await checkCase(worker.tx, entry.case as DataCase, oracle);
      same = verdict.mismatch !== undefined && signatureOf(entry.property, verdict.mismatch) === entry.signature;
    } catch {
      same = false;
    }
    checks.push({ entry, verdict: same ? 'REPRODUCES' : 'FIXED' });
  }
  await worker.tx.flush();
  return checks;
}

/** The baseline rewritten from this run: entries of properties that did not run kept, FIXED ones dropped, new findings added. */
export function updatedBaseline(baseline: Baseline, results: PropertyResult[], checks: BaselineCheck[], now = new Date()): Baseline {
  const fixed = new Set(checks.filter((c) => c.verdict === 'FIXED').map((c) => c.entry.signature));
  const kept = baseline.findings.filter((e) => !fixed.has(e.signature));
  const known = new Set(kept.map((e) => e.signature));
  for (const r of results) {
    for (const f of r.area === 'data' ? (r.findings ?? []) : []) {
      if (!f.signature || known.has(f.signature)) continue;
      known.add(f.signature);
      const testCase = DataCaseSchema.safeParse(JSON.parse(JSON.stringify(f.counterexample)));
      kept.push({ signature: f.signature, property: r.id, reason: UPDATE_REASON, ...(testCase.success ? { case: testCase.data } : {}), acceptedAt: now.toISOString() });
    }
  }
  return { ...baseline, findings: kept };
}
