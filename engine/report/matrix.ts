/**
 * The access matrix, judged by the model: for each table or function × command × caller class,
 * the outcomes the run saw (allowed, filtered, refused by grant or by policy, raised, error) with
 * how many steps reached each, and every disagreement between model and database. It is built
 * from the per-property cell counts in summary.json, goes into summary.json (`matrix`), the HTML
 * report and `--report matrix` (Markdown), so a reviewer sees at once who can do what.
 */
import { ACCESS_OUTCOMES, accessCell, parseAccessKey, type AccessOutcome } from '../model/access.ts';
import type { Caller } from '../model/caller.ts';
import { actualOutcomeOf } from '../failures/describe.ts';
import { differingStep, isOutcome } from './diff.ts';

/** What the matrix reads of a property's summary (summary.ts's PropertySummary has it). */
export interface MatrixSource {
  id: string;
  access?: Record<string, number>;
  failures: ReadonlyArray<{ id: string | null; case: unknown; step: number | null; expected: unknown; actual: unknown }>;
}

export interface MatrixDisagreement {
  property: string;
  model: AccessOutcome;
  database: AccessOutcome;
  /** The saved failure, when it was saved. */
  failure: string | null;
}

export interface MatrixRow {
  target: string;
  command: string;
  caller: string;
  /** Steps per outcome (only outcomes seen). */
  outcomes: Partial<Record<AccessOutcome, number>>;
  steps: number;
  /** The properties whose cases reached this row. */
  properties: string[];
  disagreements: MatrixDisagreement[];
}

const CALLER_ORDER = ['anon', 'authenticated', 'service_role'];
const COMMAND_ORDER = ['select', 'insert', 'update', 'delete', 'execute'];

function rowKey(target: string, command: string, caller: string): string {
  return `${target}|${command}|${caller}`;
}

/** The matrix of a run (or of merged shards): rows sorted by target, command, caller. */
export function accessMatrix(properties: readonly MatrixSource[]): MatrixRow[] {
  const rows = new Map<string, MatrixRow>();
  const rowOf = (target: string, command: string, caller: string) => {
    const key = rowKey(target, command, caller);
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { target, command, caller, outcomes: {}, steps: 0, properties: [], disagreements: [] }));
    return row;
  };
  for (const p of properties) {
    for (const [key, n] of Object.entries(p.access ?? {})) {
      const cell = parseAccessKey(key);
      const row = rowOf(cell.target, cell.command, cell.caller);
      row.outcomes[cell.outcome] = (row.outcomes[cell.outcome] ?? 0) + n;
      row.steps += n;
      if (!row.properties.includes(p.id)) row.properties.push(p.id);
    }
    for (const f of p.failures) {
      const step = differingStep(f.case, f.step);
      const actual = actualOutcomeOf(f.actual);
      if (!step || !isOutcome(f.expected) || !actual) continue;
      const model = accessCell(step.caller as Caller, step.request, f.expected);
      const database = accessCell(step.caller as Caller, step.request, actual).outcome;
      const row = rowOf(model.target, model.command, model.caller);
      if (!row.properties.includes(p.id)) row.properties.push(p.id);
      row.disagreements.push({ property: p.id, model: model.outcome, database, failure: f.id });
    }
  }
  const rank = (list: string[], v: string) => (list.includes(v) ? list.indexOf(v) : list.length);
  return [...rows.values()]
    .map((r) => ({ ...r, properties: r.properties.sort() }))
    .sort((a, b) => a.target.localeCompare(b.target) || rank(COMMAND_ORDER, a.command) - rank(COMMAND_ORDER, b.command) || rank(CALLER_ORDER, a.caller) - rank(CALLER_ORDER, b.caller) || a.caller.localeCompare(b.caller));
}

/** Steps in the matrix: equals the data-layer steps the run counted (summary counts). */
export function matrixSteps(matrix: readonly MatrixRow[]): number {
  return matrix.reduce((n, r) => n + r.steps, 0);
}

/** `allowed 12 · filtered 3`, outcomes in a fixed order. */
export function outcomeList(outcomes: MatrixRow['outcomes']): string {
  return ACCESS_OUTCOMES.filter((o) => outcomes[o]).map((o) => `${o} ${outcomes[o]}`).join(' · ');
}

const mdCell = (text: string) => text.replace(/\|/g, '\\|');

/**
 * Markdown: one line per table or function × command, a column per caller class, each cell
 * the outcomes seen with their step counts; a disagreement is marked ⚠ with model → database.
 */
export function matrixMarkdown(matrix: readonly MatrixRow[]): string {
  if (!matrix.length) return '_No data-layer steps ran: the access matrix is empty._\n';
  const callers = [...new Set(matrix.map((r) => r.caller))].sort((a, b) => (CALLER_ORDER.indexOf(a) + 1 || 99) - (CALLER_ORDER.indexOf(b) + 1 || 99));
  const lines = [`| table / function | command | ${callers.join(' | ')} |`, `|---|---|${callers.map(() => '---').join('|')}|`];
  const groups = new Map<string, MatrixRow[]>();
  for (const r of matrix) groups.set(`${r.target}|${r.command}`, [...(groups.get(`${r.target}|${r.command}`) ?? []), r]);
  for (const rows of groups.values()) {
    const cells = callers.map((c) => {
      const r = rows.find((x) => x.caller === c);
      if (!r) return '–';
      const seen = outcomeList(r.outcomes);
      const bad = r.disagreements.map((d) => `⚠ ${d.property}: model ${d.model} → database ${d.database}`);
      return mdCell([seen, ...bad].filter(Boolean).join('<br>'));
    });
    lines.push(`| \`${mdCell(rows[0].target)}\` | ${rows[0].command} | ${cells.join(' | ')} |`);
  }
  const disagreements = matrix.reduce((n, r) => n + r.disagreements.length, 0);
  lines.push('', `${matrixSteps(matrix)} steps judged by the model; ${disagreements ? `⚠ ${disagreements} disagreement(s)` : 'no disagreement'}.`);
  return `${lines.join('\n')}\n`;
}
