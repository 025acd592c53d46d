/**
 * R07 — rule 7: soft delete runs through the functions, not through PATCH of deleted_at; reads
 * filter deleted_at is null; the guest lookups exclude deleted tickets; a null role is rejected.
 * Cases (sequences, the model carrying the world): PR tickets (some already deleted), a
 * deletion attempt — soft_delete_pr_ticket by staff, handlers, plain users, null roles, users
 * with no users row, anon or the server, or a direct (filtered) PATCH of deleted_at — then reads of the
 * same ticket by anyone on any path (GET by id, GET all, the guest lookup, a second delete).
 * VS cases join through `fc.oneof` in `cases` (properties/cases/vs-*.ts), and so do VS ticket
 * lifecycles generated with fc.commands (properties/lifecycle/vs-lifecycle.ts).
 */
import fc from 'fast-check';
import type { Caller } from '../../../../engine/model/caller.ts';
import type { ModelSettings } from '../../model/settings.ts';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import { callerAmong, type Person } from '../../generators/identities.ts';
import { cast, prTickets, prWorld } from '../../generators/pr.ts';
import type { DataCase, DataStep } from '../../../../engine/runner/data-case.ts';
import { fromParts, type DataProperty } from '../../../../engine/runner/data-property.ts';
import { vsSoftDeleteCases } from '../../cases/vs-soft-delete.ts';
import { vsLifecycleCases } from '../../lifecycle/vs-lifecycle.ts';
import { clause, isRpc, patchOf } from '../clauses.ts';
import { rolesByMeaning } from '../../generators/roles.ts';

const anon: Caller = { kind: 'anon' };

function readStep(list: Person[], id: fc.Arbitrary<string>): fc.Arbitrary<DataStep> {
  const anyone = fc.oneof({ weight: 3, arbitrary: callerAmong(list) }, { weight: 1, arbitrary: fc.constant(anon) });
  return fc.tuple(anyone, id, fc.integer({ min: 0, max: 3 })).map(([caller, key, how]): DataStep => {
    const request: ApiRequest =
      how === 0
        ? { kind: 'select', table: 'pr_tickets', columns: '*', filters: [{ column: 'id', op: 'eq', value: key }] }
        : how === 1
          ? { kind: 'select', table: 'pr_tickets', columns: '*', filters: [] }
          : how === 2
            ? { kind: 'rpc', fn: 'get_pr_ticket_by_id', args: { p_id: key } }
            : { kind: 'rpc', fn: 'soft_delete_pr_ticket', args: { p_id: key } };
    return { caller, request };
  });
}

export function prSoftDeleteCases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  return cast(settings, [...settings.pr.handlerRoles, ...settings.staffRoles.filter((r) => !settings.pr.handlerRoles.includes(r)), ...rolesByMeaning(settings).plain]).chain((list) =>
    prTickets(settings, list).chain((tickets) => {
      const ids = tickets.map((t) => t.id as string);
      const id = fc.constantFrom(...ids);
      // Through the function (mostly), or a PATCH of deleted_at by id or by a list of ids. Every
      // PATCH carries a filter, as Supabase's pg-safeupdate requires.
      const deletion = fc.tuple(callerAmong(list), id, fc.integer({ min: 0, max: 4 }), fc.constantFrom('representation' as const, 'minimal' as const)).map(
        ([caller, key, how, returning]): DataStep =>
          how < 3
            ? { caller, request: { kind: 'rpc', fn: 'soft_delete_pr_ticket', args: { p_id: key } } }
            : {
                caller,
                request: {
                  kind: 'update',
                  table: 'pr_tickets',
                  patch: { deleted_at: '2025-01-01T00:00:00+00:00' },
                  filters: how === 3 ? [{ column: 'id', op: 'eq', value: key }] : [{ column: 'id', op: 'in', value: [key, ...ids.filter((x) => x !== key).slice(0, 1)] }],
                  returning,
                },
              },
      );
      return fc
        .tuple(deletion, fc.array(readStep(list, id), { minLength: 1, maxLength: 3 }))
        .map(([first, reads]): DataCase => ({ world: prWorld(settings, list, tickets), steps: [first, ...reads] }));
    }),
  );
}

export const R07: DataProperty = fromParts(
  {
    id: 'R07',
    rule: 7,
    title: 'soft delete only through the functions; deleted rows hidden from every read; null role rejected',
    clauses: [
      clause('R07.soft-delete', 'soft_delete_pr_ticket / soft_delete_vs_ticket (staff: allowed)', (s) => isRpc(s, 'soft_delete_pr_ticket') || isRpc(s, 'soft_delete_vs_ticket')),
      clause('R07.patch-deleted-at', 'PATCH naming deleted_at', (s) => s.step.request.kind === 'update' && 'deleted_at' in patchOf(s)),
    ],
  },
  [
    { tables: ['pr_tickets'], functions: ['soft_delete_pr_ticket', 'get_pr_ticket_by_id'], cases: prSoftDeleteCases },
    { tables: ['vs_tickets', 'vs_categories'], functions: ['soft_delete_vs_ticket', 'get_vs_ticket_by_id', 'find_similar_vs_tickets', 'merge_vs_tickets', 'vs_transfer_dept', 'vs_set_public', 'get_vs_linked_context', 'get_public_vs_board'], cases: vsSoftDeleteCases },
    // Lifecycles (fc.commands): submit, update, transfer, publish, merge, soft delete, read again.
    { tables: ['vs_tickets', 'vs_categories'], functions: ['soft_delete_vs_ticket', 'get_vs_ticket_by_id', 'find_similar_vs_tickets', 'merge_vs_tickets', 'vs_transfer_dept', 'vs_set_public', 'get_vs_linked_context', 'get_public_vs_board', 'get_public_vs_problem'], cases: (settings, oracle) => vsLifecycleCases(settings, undefined, oracle) },
  ],
);
