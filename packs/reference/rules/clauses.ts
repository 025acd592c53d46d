/**
 * Building blocks for the rules' labelled clauses (DataProperty.clauses): which step exercises a
 * clause, read from the request, the caller and the world before it. The side (allowed or
 * refused) is the model's answer, so a clause is counted the same way it is checked.
 */
import type { Row } from '../../../engine/model/json.ts';
import { rowsOf } from '../../../engine/model/world.ts';
import { targetName } from '../../../engine/model/request.ts';
import { sideOf } from '../../../engine/runner/coverage.ts';
import type { Clause, ClauseStep } from '../../../engine/runner/data-property.ts';
import type { ModelSettings } from '../model/settings.ts';

export type Step = ClauseStep<ModelSettings>;

/** A clause whose side is the model's answer (allowed, or filtered/rejected/raised). */
export function clause(id: string, label: string, applies: (s: Step) => boolean): Clause<ModelSettings> {
  return { id, label, side: (s) => (applies(s) ? sideOf(s.outcome) : undefined) };
}

/** A clause with its own notion of the two sides. */
export function sidedClause(id: string, label: string, side: (s: Step) => 'allowed' | 'refused' | undefined): Clause<ModelSettings> {
  return { id, label, side };
}

export const callerId = (s: Step): string | null => (s.step.caller.kind === 'user' ? s.step.caller.id : null);

/** The row an update or delete filtered by `id = …` names, before the step. */
export function targetRow(s: Step, table: string): Row | undefined {
  const r = s.step.request;
  if ((r.kind !== 'update' && r.kind !== 'delete') || targetName(r) !== table) return undefined;
  const id = r.filters.find((f) => f.column === 'id' && f.op === 'eq')?.value;
  return rowsOf(s.before, table).find((row) => row.id === id);
}

export const patchOf = (s: Step): Row => (s.step.request.kind === 'update' ? s.step.request.patch : {});
export const isRpc = (s: Step, fn: string) => s.step.request.kind === 'rpc' && targetName(s.step.request) === fn;
export const argsOf = (s: Step) => (s.step.request.kind === 'rpc' ? s.step.request.args : {});
export const insertsInto = (s: Step, table: string) => s.step.request.kind === 'insert' && targetName(s.step.request) === table;

/**
 * A whole-table read (the read-back of generators/read-back.ts): refused when the world held
 * rows the caller was not shown, allowed when it was shown every row there was.
 */
export function readClause(id: string, table: string): Clause<ModelSettings> {
  return sidedClause(id, `GET ${table}: other people's rows hidden / all rows shown`, (s) => {
    const r = s.step.request;
    if (r.kind !== 'select' || targetName(r) !== table || r.filters.length) return undefined;
    if (s.outcome.kind !== 'allowed' && s.outcome.kind !== 'filtered') return s.outcome.kind === 'rejected' ? 'refused' : undefined;
    const there = rowsOf(s.before, table).length;
    if (there === 0) return undefined;
    return (s.outcome.rows?.length ?? 0) < there ? 'refused' : 'allowed';
  });
}
