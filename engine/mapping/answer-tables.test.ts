/**
 * A json answer built from a table's rows is read as that table's (stranger-app-9): the org chart's
 * nodes in the mapping's vocabulary (`team_nodes.kind`: committee → org), get_vs_ticket_by_id's
 * object through the ticket table's column mapping (`category_id` → `category`). Without the
 * model's answer tables both were "returned rows differ" / "returned columns differ".
 */
import { describe, expect, it } from 'vitest';
import { compareOutcomes } from '../checker/compare.ts';
import { observedOutcome } from '../checker/observe.ts';
import type { Json } from '../model/json.ts';
import type { Outcome } from '../model/outcome.ts';
import type { ApiRequest } from '../model/request.ts';
import { functionModels } from '../../packs/reference/model/functions/index.ts';
import { withAnswerTables } from './answer-tables.ts';
import { expectedOnTarget, outcomeToModel, type TargetMapping } from './mapping.ts';
import { MappingSchema } from './schema.ts';

const service = { kind: 'service' } as const;
const rpc = (fn: string, args = {}): ApiRequest => ({ kind: 'rpc', fn, args });
const answered = (body: Json) => observedOutcome(rpc('x'), { status: 200, body, affected: 1 });
/** Whether the database's answer agrees with the model's under `m`, as check-case compares them. */
const agrees = (m: TargetMapping, request: ApiRequest, model: Outcome, body: Json) => compareOutcomes(expectedOnTarget(m, service, request, model), outcomeToModel(m, request, answered(body))) === undefined;

const stranger9: TargetMapping = {
  tables: {
    team_nodes: { name: 'api.team_nodes', values: { kind: { committee: 'org' } } },
    vs_tickets: { name: 'api.vs_tickets', columns: { category: 'category_id', report: null }, values: { status: { waiting: 'on_hold' } } },
  },
  functions: { get_public_org_chart: { name: 'api.get_public_org_chart' } },
};

describe('withAnswerTables', () => {
  it("fills the model's answer tables where the project's mapping names none, and keeps the project's own", () => {
    const filled = withAnswerTables({ functions: { get_pr_ticket_by_id: { rowsOf: 'press_requests' } } }, functionModels);
    expect(filled.functions?.get_public_org_chart?.tableRows).toEqual({ nodes: 'team_nodes', members: 'team_members' });
    expect(filled.functions?.get_vs_ticket_by_id?.rowsOf).toBe('vs_tickets');
    expect(filled.functions?.get_pr_ticket_by_id?.rowsOf).toBe('press_requests');
    expect(MappingSchema.safeParse(filled).success).toBe(true);
  });
});

describe('a json answer of a table’s rows, read as the table’s', () => {
  const m = withAnswerTables(stranger9, functionModels);

  it("the org chart's nodes in the table's vocabulary: the target's `org` is the model's committee", () => {
    const node = { id: 'n1', parent_id: null, name: 'Council', position: 1 };
    const model: Outcome = { kind: 'allowed', rows: [{ nodes: [{ ...node, kind: 'committee' }], members: [] }], affected: 1 };
    const body = { nodes: [{ ...node, kind: 'org' }], members: [] };
    expect(agrees(m, rpc('get_public_org_chart'), model, body)).toBe(true);
    // Without the model's answer tables, the same answer was a finding.
    expect(agrees(stranger9, rpc('get_public_org_chart'), model, body)).toBe(false);
    // Another kind is still another kind.
    expect(agrees(m, rpc('get_public_org_chart'), model, { ...body, nodes: [{ ...node, kind: 'team' }] })).toBe(false);
  });

  it("a ticket object's keys through the ticket table's column mapping, its words in the table's vocabulary", () => {
    const model: Outcome = { kind: 'allowed', rows: [{ id: 'T1', category: 'wifi', status: 'waiting' }], affected: 1 };
    const body = { id: 'T1', category_id: 'wifi', status: 'on_hold' };
    expect(agrees(m, rpc('get_vs_ticket_by_id', { p_id: 'T1' }), model, body)).toBe(true);
    expect(agrees(stranger9, rpc('get_vs_ticket_by_id', { p_id: 'T1' }), model, body)).toBe(false);
    // A value that differs still differs.
    expect(agrees(m, rpc('get_vs_ticket_by_id', { p_id: 'T1' }), model, { ...body, category_id: 'exam' })).toBe(false);
  });
});
