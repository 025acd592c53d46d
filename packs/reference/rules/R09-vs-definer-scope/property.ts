/**
 * R09 — definer functions re-apply the table's scope: a vp_admin (or a permission-only
 * handler) never sees or merges another department's tickets through find_similar_vs_tickets
 * or merge_vs_tickets; a cross-department merge is rejected for everyone.
 * Cases: a VS world; a caller finds tickets similar to one, or merges one into another (any
 * pair, same or different departments, duplicates, deleted), then finds again.
 */
import fc from 'fast-check';
import type { ModelSettings } from '../../model/settings.ts';
import { rpc, step } from '../../generators/vs-requests.ts';
import { handlerCaller, vsWorld, vsWorldOf } from '../../generators/vs-world.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { clause, isRpc } from '../clauses.ts';

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  return vsWorld(settings, undefined, 4, { categories: ['wifi', 'dorm'] }).chain((w) => {
    const ids = w.tickets.map((t) => t.id);
    return fc
      .record({ caller: handlerCaller(settings, w), a: fc.constantFrom(...ids), b: fc.constantFrom(...ids), merge: fc.boolean() })
      .map(({ caller, a, b, merge }): DataCase => ({
        world: vsWorldOf(w),
        steps: [
          step(caller, merge ? rpc('merge_vs_tickets', { p_duplicate: a, p_primary: b }) : rpc('find_similar_vs_tickets', { p_id: a })),
          step(caller, rpc('find_similar_vs_tickets', { p_id: b })),
        ],
      }));
  });
}

export const R09: DataProperty = {
  id: 'R09',
  rule: 9,
  title: 'VS definer functions re-apply the department scope (vp_admin sees and merges only its own department)',
  tables: ['vs_tickets'],
  functions: ['find_similar_vs_tickets', 'merge_vs_tickets'],
  cases,
  clauses: [clause('R09.merge', 'merge_vs_tickets (cross-department or out of scope: refused)', (s) => isRpc(s, 'merge_vs_tickets'))],
};
