/**
 * Rule 7, VS side: a ticket is soft-deleted through soft_delete_vs_ticket (staff handlers in
 * scope only; a null role is rejected) or through a direct PATCH of deleted_at (refused for
 * every API caller; the server context may), or was deleted already; then anyone reads it again
 * on every read path (table GET by id and in bulk, get_vs_ticket_by_id, find_similar_vs_tickets,
 * the board, the problem, the linked context) and tries to act on it (merge, transfer, publish,
 * soft delete again): none of them shows or touches a deleted ticket.
 */
import fc from 'fast-check';
import type { Caller } from '../../../engine/model/caller.ts';
import type { ModelSettings } from '../model/settings.ts';
import { patchTicket, readPaths, returning, rpc, step } from '../generators/vs-requests.ts';
import { handlerCaller, onBoard, VS_DELETED_AT, vsCaller, vsWorld, vsWorldOf } from '../generators/vs-world.ts';
import type { DataCase, DataStep } from '../../../engine/runner/data-case.ts';

export function vsSoftDeleteCases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  return vsWorld(settings, undefined, 3, { categories: ['wifi'] }).chain((w0) => {
    const ids = w0.tickets.map((t) => String(t.id));
    return fc
      .record({
        target: fc.constantFrom(...ids),
        published: fc.boolean(),
        how: fc.constantFrom('function', 'function', 'patch', 'server-patch'),
        deleter: handlerCaller(settings, w0),
        // One reader per case: every read path is already taken once, and readers vary from case
        // to case (a second reader doubled the reads, 7 of a case's 17 requests, with no clause,
        // branch or mutant kill of its own).
        reader: vsCaller(w0),
        handler: handlerCaller(settings, w0),
        ret: returning,
        other: fc.constantFrom(...ids),
      })
      .map(({ target, published, how, deleter, reader, handler, ret, other }): DataCase => {
        // The deleted ticket is a duplicate of a published one, so the linked context would show it.
        let w = published ? onBoard(settings, w0, target) : w0;
        if (other !== target) w = { ...w, tickets: w.tickets.map((t) => (t.id === other ? { ...t, duplicate_of: target } : t)) };
        const t = w.tickets.find((x) => x.id === target)!;
        const server: Caller = { kind: 'service' };
        const remove: DataStep =
          how === 'function'
            ? step(deleter, rpc('soft_delete_vs_ticket', { p_id: target }))
            : step(how === 'patch' ? deleter : server, patchTicket(target, { deleted_at: VS_DELETED_AT }, ret));
        const reads = readPaths(settings, t).map((q) => step(reader, q));
        const acts = [
          step(handler, rpc('merge_vs_tickets', { p_duplicate: other, p_primary: target })),
          step(handler, rpc('vs_transfer_dept', { p_id: target, p_dept: settings.departments[0] })),
          step(handler, rpc('vs_set_public', { p_id: target, p_public: true, p_title: 'Headline' })),
          step(handler, rpc('find_similar_vs_tickets', { p_id: other })),
          step({ kind: 'anon' }, rpc('get_vs_linked_context', { p_id: other })),
          step(deleter, rpc('soft_delete_vs_ticket', { p_id: target })),
        ];
        return { world: vsWorldOf(w), steps: [remove, ...reads, ...acts] };
      });
  });
}
