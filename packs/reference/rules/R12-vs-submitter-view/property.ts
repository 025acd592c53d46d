/**
 * R12 — submitter-facing reads use an explicit allow-list without duplicate_of and staff-only
 * columns (is_duplicate stands in); duplicate cross-references stay staff-internal: id-bearing
 * remarks are internal, and a merged (auto-closed) ticket gives the submitter a generic remark.
 * Cases: a VS world whose remarks mix internal, id-bearing and ticket-visible entries; sometimes
 * a handler merges two tickets first; then the submitter, anon or anyone reads the ticket by id
 * and its linked public context.
 */
import fc from 'fast-check';
import type { Caller } from '../../../../engine/model/caller.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { rpc, step } from '../../generators/vs-requests.ts';
import { handlerCaller, onBoard, userCaller, vsCaller, vsWorld, vsWorldOf } from '../../generators/vs-world.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { argsOf, clause, isRpc, sidedClause } from '../clauses.ts';
import { rowsOf } from '../../../../engine/model/world.ts';
import { isSubmitterVisibleRemark } from '../../model/tables/vs-tickets.ts';

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  return vsWorld(settings, undefined, 4, { categories: ['wifi', 'dorm', 'gone'] }).chain((w0) => {
    const ids = w0.tickets.map((t) => String(t.id));
    return fc
      .record({ handler: handlerCaller(settings, w0), reader: vsCaller(w0), d: fc.constantFrom(...ids), p: fc.constantFrom(...ids), merge: fc.integer({ min: 0, max: 2 }), publish: fc.boolean() })
      .map(({ handler, reader, d, p, merge, publish }): DataCase => {
        const w = publish ? onBoard(settings, w0, p) : w0;
        const submitter = w.people.find((x) => x.id === w.tickets.find((t) => t.id === d)!.submitter_id);
        const who: Caller = submitter && merge !== 1 ? userCaller(submitter) : reader;
        return {
          world: vsWorldOf(w),
          steps: [
            ...(merge > 0 ? [step(handler, rpc('merge_vs_tickets', { p_duplicate: d, p_primary: p }))] : []),
            step(who, rpc('get_vs_ticket_by_id', { p_id: d })),
            step({ kind: 'anon' }, rpc('get_vs_linked_context', { p_id: d })),
          ],
        };
      });
  });
}

const CLAUSES = [
  clause('R12.merge', 'merge_vs_tickets (the duplicate is auto-closed)', (s) => isRpc(s, 'merge_vs_tickets')),
  sidedClause('R12.tracking', 'get_vs_ticket_by_id of a merged ticket (generic remark shown) / of a ticket with internal remarks (hidden)', (s) => {
    if (!isRpc(s, 'get_vs_ticket_by_id') || s.outcome.kind !== 'allowed' || !s.outcome.rows?.length) return undefined;
    const t = rowsOf(s.before, 'vs_tickets').find((r) => r.id === argsOf(s).p_id);
    if (t?.duplicate_of) return 'allowed';
    return Array.isArray(t?.remarks) && t.remarks.some((e) => !isSubmitterVisibleRemark(e)) ? 'refused' : undefined;
  }),
];

export const R12: DataProperty = {
  id: 'R12',
  rule: 12,
  title: 'VS submitter reads: explicit allow-list, no duplicate ids, internal remarks hidden, generic auto-close remark',
  tables: ['vs_tickets'],
  functions: ['get_vs_ticket_by_id', 'get_vs_linked_context', 'merge_vs_tickets'],
  cases,
  clauses: CLAUSES,
};
