/**
 * A behaviour diff between two migration states: the same generated cases (by seed) are sent to
 * both databases, and each case's answers are compared step by step up to the first step where
 * they differ (after it the two databases hold different rows, so later steps say nothing). Each
 * change is judged by the model: a regression (the head disagrees with the model where the base
 * agreed), a fix (the other way round), or a change outside the rules (both agree, or neither).
 */
import fc from 'fast-check';
import { compareOutcomes } from '../checker/compare.ts';
import { describeOutcome } from '../failures/describe.ts';
import type { Outcome } from '../model/outcome.ts';
import { describeCaller } from '../model/caller.ts';
import { describeRequest, targetName } from '../model/request.ts';
import type { Oracle } from '../pack.ts';
import { checkCase, type StepCheck } from '../runner/check-case.ts';
import type { DataCase } from '../runner/data-case.ts';
import type { DataProperty } from '../runner/data-property.ts';
import type { Worker } from '../runner/environment.ts';
import { plainCase } from '../findings/minimize.ts';
import { callerClass, signatureOf } from '../findings/signature.ts';
import { API_ROLES, type PrivilegeChanges } from './privilege-diff.ts';

/** The cases of a property, as plain data: the same seed gives the same cases on both sides. */
export function diffCases(property: DataProperty, oracle: Oracle, seed: number, runs: number): DataCase[] {
  return fc.sample(property.cases(oracle.settings, oracle), { seed, numRuns: runs }).map(plainCase);
}

/** What one side answered: each step checked until the first disagreement with the model (past side errors: check-case.ts), or the fixtures' refusal. */
export type SideRecord = { steps: StepCheck[] } | { refused: string };

/** Runs every case on one database (one worker), recording each step's answer. */
export async function observeCases(worker: Worker, cases: readonly DataCase[], oracle: Oracle): Promise<SideRecord[]> {
  const records: SideRecord[] = [];
  for (const testCase of cases) {
    const steps: StepCheck[] = [];
    try {
      await checkCase(worker.tx, testCase, oracle, (check) => steps.push(check));
      records.push({ steps });
    } catch (e) {
      records.push({ refused: (e as Error).message });
    }
  }
  await worker.tx.flush();
  return records;
}

export type ChangeKind = 'newly allowed' | 'newly refused' | 'rows or columns changed' | 'error changed' | 'error text changed' | 'judged differently' | 'fixtures refused';
export type Verdict = 'regression' | 'fix' | 'outside the rules';

export interface BehaviourChange {
  property: string;
  verdict: Verdict;
  kind: ChangeKind;
  /** The rule clause: the finding's signature on the side that disagrees with the model, else the request's target and caller class. */
  clause: string;
  /** Cases showing this change. */
  cases: number;
  example: { step: number; request: string; base: string; head: string; testCase: DataCase };
}

const success = (o: Outcome) => o.kind === 'allowed' || o.kind === 'filtered';

function kindOf(base: Outcome, head: Outcome): ChangeKind {
  if (success(base) && !success(head)) return 'newly refused';
  if (!success(base) && success(head)) return 'newly allowed';
  return success(base) ? 'rows or columns changed' : 'error changed';
}

/** The first step where the two sides' answers differ, judged; undefined when the case behaves the same. */
export function compareCase(property: string, testCase: DataCase, base: SideRecord, head: SideRecord): Omit<BehaviourChange, 'cases'> | undefined {
  if ('refused' in base || 'refused' in head) {
    if ('refused' in base && 'refused' in head) return undefined;
    const text = 'refused' in base ? base.refused : (head as { refused: string }).refused;
    return { property, verdict: 'outside the rules', kind: 'fixtures refused', clause: `${property} | fixtures refused on the ${'refused' in base ? 'base' : 'head'}`, example: { step: 0, request: '', base: 'refused' in base ? text : 'fixtures written', head: 'refused' in head ? text : 'fixtures written', testCase } };
  }
  const n = Math.min(base.steps.length, head.steps.length);
  for (let i = 0; i < n; i++) {
    const b = base.steps[i];
    const h = head.steps[i];
    const step = testCase.steps[i];
    // Compared as fuzz compares an answer with the model: server-assigned columns masked, a
    // function's comparedAs applied (both sides ran the same case, so the model's world is the same).
    // A multi-row write may stop at any of its failing rows (the model's orElse): which one each
    // database meets first is row order, not behaviour, when both answers are ones the model allows.
    const eitherFailure = !b.mismatch && !h.mismatch && 'orElse' in b.entry.predicted && Boolean(b.entry.predicted.orElse?.length) && !success(b.entry.observed) && !success(h.entry.observed);
    const sameAnswer = eitherFailure || !compareOutcomes(b.entry.observed, h.entry.observed, b.entry.masked, b.entry.comparedAs);
    // The same answer can still be judged differently (an error text the spec or a setting names).
    const sameVerdict = Boolean(b.mismatch) === Boolean(h.mismatch);
    if (sameAnswer && sameVerdict) {
      if (b.mismatch) return undefined; // the same answer, the same disagreement: no change here
      continue;
    }
    const verdict: Verdict = !b.mismatch && h.mismatch ? 'regression' : b.mismatch && !h.mismatch ? 'fix' : 'outside the rules';
    const judged = verdict === 'regression' ? h.mismatch : verdict === 'fix' ? b.mismatch : undefined;
    const clause = judged ? signatureOf(property, judged) : `${property} | ${step.request.kind} ${targetName(step.request)} | ${callerClass(step.caller)}`;
    const shown = (e: StepCheck) => describeOutcome(e.entry.observed, { short: true }) + (sameAnswer && e.mismatch ? ` (${e.mismatch.reason})` : '');
    return {
      property,
      verdict,
      kind: !sameAnswer ? kindOf(b.entry.observed, h.entry.observed) : success(b.entry.observed) ? 'judged differently' : 'error text changed',
      clause,
      example: { step: i, request: `${describeCaller(step.caller)} ${describeRequest(step.request)}`, base: shown(b), head: shown(h), testCase },
    };
  }
  return undefined;
}

/** The changes of many cases, one entry per (verdict, kind, clause), counting the cases; regressions first. */
export function groupChanges(changes: Array<Omit<BehaviourChange, 'cases'>>): BehaviourChange[] {
  const groups = new Map<string, BehaviourChange>();
  for (const c of changes) {
    const key = `${c.verdict}\0${c.kind}\0${c.clause}`;
    const g = groups.get(key);
    if (g) g.cases++;
    else groups.set(key, { ...c, cases: 1 });
  }
  const rank: Record<Verdict, number> = { regression: 0, fix: 1, 'outside the rules': 2 };
  return [...groups.values()].sort((a, b) => rank[a.verdict] - rank[b.verdict] || a.property.localeCompare(b.property) || a.clause.localeCompare(b.clause) || a.kind.localeCompare(b.kind));
}

export interface DiffReport {
  base: string;
  head: string;
  seed: number;
  runs: number;
  properties: string[];
  /** Properties not compared, with why (a table missing on one side). */
  skipped: Array<{ id: string; reason: string }>;
  changes: BehaviourChange[];
  /** Privileges of the API roles gained or lost (privilege-diff.ts): a grant may change no answer yet. */
  privileges?: PrivilegeChanges;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The privilege lines, `+` gained and `-` lost. */
function privilegeLines(report: DiffReport): string[] {
  const p = report.privileges;
  return p ? [...p.gained.map((l) => `+ ${l}`), ...p.lost.map((l) => `- ${l}`)] : [];
}

export function diffTable(report: DiffReport): string {
  const privileges = privilegeLines(report);
  const grants = privileges.length ? `\n\nprivileges of ${API_ROLES.join(' and ')} that changed (a grant may change no answer yet):\n${privileges.map((l) => `  ${l}`).join('\n')}` : '';
  return behaviourTable(report) + grants;
}

function behaviourTable(report: DiffReport): string {
  if (!report.changes.length) return `no behaviour change in ${report.properties.length} rule(s) (${report.properties.join(', ') || 'none'}), ${report.runs} cases each, seed ${report.seed}`;
  const header = ['verdict', 'rule', 'change', 'cases', 'clause'];
  const rows = report.changes.map((c) => [c.verdict.toUpperCase(), c.property, c.kind, String(c.cases), c.clause]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  const examples = report.changes.map((c) => `  ${c.verdict} ${c.property}, step ${c.example.step + 1}: ${c.example.request}\n    base: ${c.example.base}\n    head: ${c.example.head}`);
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line), '', 'one example of each:', ...examples].join('\n');
}

/** Markdown for a pull-request comment. */
export function diffMarkdown(report: DiffReport): string {
  const count = (v: Verdict) => report.changes.filter((c) => c.verdict === v).length;
  const lines = [
    '### policyfuzz behaviour diff',
    '',
    `\`${cell(report.base)}\` → \`${cell(report.head)}\`: ${report.properties.length} rule(s), ${report.runs} cases each, seed ${report.seed}.`,
    '',
  ];
  if (!report.changes.length) lines.push('No behaviour change.');
  else {
    lines.push(`**${count('regression')} regression(s)**, ${count('fix')} fix(es), ${count('outside the rules')} change(s) outside the rules.`, '', '| verdict | rule | change | cases | clause |', '|---|---|---|---|---|');
    for (const c of report.changes) lines.push(`| ${c.verdict === 'regression' ? '**regression**' : c.verdict} | ${c.property} | ${c.kind} | ${c.cases} | ${cell(c.clause)} |`);
    lines.push('', '<details><summary>one example of each</summary>', '');
    for (const c of report.changes) lines.push(`- **${c.verdict}** ${c.property}, step ${c.example.step + 1}: \`${cell(c.example.request)}\`  `, `  base: ${cell(c.example.base)}  `, `  head: ${cell(c.example.head)}`);
    lines.push('', '</details>');
  }
  const privileges = privilegeLines(report);
  if (privileges.length) lines.push('', `Privileges of ${API_ROLES.map((r) => `\`${r}\``).join(' and ')} that changed (a grant may change no answer yet):`, '', '```diff', ...privileges, '```');
  if (report.skipped.length) lines.push('', `Not compared: ${report.skipped.map((s) => `${s.id} (${s.reason})`).join(', ')}.`);
  return `${lines.join('\n')}\n`;
}
