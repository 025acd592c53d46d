/**
 * Rule 14, VS side: get_vs_ticket_by_id (and get_vs_linked_context, soft_delete_vs_ticket)
 * match the id by exact equality only. Ticket ids contain % _ * \ , . " ' ( ) and spaces; the
 * probes are the ids themselves and near misses: wildcards in place of characters, case flips,
 * padding, prefixes, a lone % or _.
 */
import fc from 'fast-check';
import type { ModelSettings } from '../../model/settings.ts';
import { rpc, selectTickets, step } from '../../harness/generators/vs-requests.ts';
import { onBoard, vsWorld, vsWorldOf } from '../../harness/generators/vs-world.ts';
import type { DataCase } from '../../harness/runner/data-case.ts';

const ID_CHARS = ['V', 'S', 'v', 's', '-', '1', '2', '%', '_', '*', '\\', "'", '"', ',', '.', '(', ')', ' ', 'é'];

export const vsLookupId: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('VS-1001', 'vs-1001', 'VS-1%', 'VS_1001', 'VS-100_', 'VS-1001 ', ' VS-1001', 'a,b', 'a.b', '(x)', "it's", 'back\\slash', '"q"', '*', '%', '_') },
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...ID_CHARS), { minLength: 1, maxLength: 7 }).map((cs) => cs.join('')) },
);

/** Near misses of an id: each would match under like/ilike/lower/trim but not under equality. */
export function probesOf(id: string): string[] {
  const flip = [...id].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  return [id, flip, `${id} `, ` ${id}`, `${id.slice(0, -1)}_`, `${id.slice(0, 2)}%`, `%${id.slice(1)}`, `${id.slice(0, -1)}*`, '%', '_%', id.toLowerCase(), id.toUpperCase()];
}

export function vsLookupCases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  return fc.uniqueArray(vsLookupId, { minLength: 2, maxLength: 4 }).chain((ids) =>
    vsWorld(settings, ids, ids.length).chain((w) =>
      fc
        .record({
          t: fc.constantFrom(...w.tickets),
          which: fc.subarray(probesOf(String(w.tickets[0].id)), { minLength: 1, maxLength: 3 }),
          pick: fc.nat({ max: 11 }),
          reader: fc.constantFrom<'anon' | 'service'>('anon', 'service'),
          linked: fc.boolean(),
        })
        .map(({ t, which, pick, reader, linked }): DataCase => {
          const probes = [...which, probesOf(String(t.id))[pick]];
          const caller = { kind: reader } as const;
          // The first ticket is sometimes a duplicate of a published one, so the linked context answers.
          const [first, second] = w.tickets.map((x) => String(x.id));
          const live = { ...w, tickets: w.tickets.map((x) => ({ ...x, deleted_at: null, duplicate_of: linked && x.id === first ? second : x.duplicate_of })) };
          return {
            world: vsWorldOf(linked ? onBoard(live, second) : live),
            steps: [
              ...probes.map((p) => step(caller, rpc('get_vs_ticket_by_id', { p_id: p }))),
              step(caller, rpc('get_vs_linked_context', { p_id: probes[0] })),
              step({ kind: 'service' }, selectTickets(probes[probes.length - 1])),
            ],
          };
        }),
    ),
  );
}
