/**
 * Rule 14, VS side: get_vs_ticket_by_id, get_vs_linked_context and the handler functions
 * (find_similar_vs_tickets, merge_vs_tickets, vs_transfer_dept, vs_set_public,
 * soft_delete_vs_ticket) match the id by exact equality only. Ticket ids contain % _ * \ , . " ' ( ) and spaces; the
 * probes are the ids themselves and near misses: wildcards in place of characters, case flips,
 * padding, prefixes, a lone % or _.
 */
import fc from 'fast-check';
import type { ApiRequest } from '../../../engine/model/request.ts';
import type { ModelSettings } from '../model/settings.ts';
import { rpc, selectTickets, step } from '../generators/vs-requests.ts';
import { handlerCaller, onBoard, vsWorld, vsWorldOf } from '../generators/vs-world.ts';
import type { DataCase } from '../../../engine/runner/data-case.ts';

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
            world: vsWorldOf(linked ? onBoard(settings, live, second) : live),
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

/** The handler-side functions that take a ticket id: each compares it by equality (rule 14). */
export const VS_HANDLER_LOOKUPS = ['find_similar_vs_tickets', 'merge_vs_tickets', 'vs_transfer_dept', 'vs_set_public', 'soft_delete_vs_ticket'] as const;

/**
 * Rule 14, handler side: a handler (mostly one whose scope covers every ticket of the case, all
 * in one category) sends the ids and their near misses through every id-taking VS function;
 * an ilike/like/lower lookup would find, move, publish, merge or delete a ticket the id does
 * not name. The server context then reads every ticket, so a write that touched a second
 * ticket shows.
 */
export function vsHandlerLookupCases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  return fc.uniqueArray(vsLookupId, { minLength: 2, maxLength: 4 }).chain((ids) =>
    vsWorld(settings, ids, ids.length, { deleted: false, categories: ['wifi'] }).chain((w0) => {
      // The one category is public, so publishing a found ticket succeeds.
      const w = { ...w0, categories: [...w0.categories.filter((c) => c.id !== 'wifi'), { id: 'wifi', name: 'wifi', is_confidential: false, public_eligible: true }] };
      const call = fc
        .record({
          fn: fc.constantFrom(...VS_HANDLER_LOOKUPS),
          // A ticket and another one (the merge partner).
          pair: fc.constantFrom(...w.tickets.flatMap((a) => w.tickets.filter((b) => b !== a).map((b) => [String(a.id), String(b.id)] as const))),
          // Mostly a near miss (probesOf(t)[0] is t itself).
          pick: fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 5, arbitrary: fc.integer({ min: 1, max: 11 }) }),
          publish: fc.oneof({ weight: 2, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
          dept: fc.constantFrom(...settings.departments),
        })
        .map(({ fn, pair: [t, other], pick, publish, dept }): ApiRequest => {
          const p = probesOf(t)[pick];
          if (fn === 'merge_vs_tickets') return rpc(fn, pick % 2 ? { p_duplicate: p, p_primary: other } : { p_duplicate: other, p_primary: p });
          if (fn === 'vs_transfer_dept') return rpc(fn, { p_id: p, p_dept: dept, p_remarks: [] });
          if (fn === 'vs_set_public') return rpc(fn, { p_id: p, p_public: publish, p_title: 'Wifi drops in the evening' });
          return rpc(fn, { p_id: p });
        });
      return fc
        .record({ caller: handlerCaller(settings, w), oneDept: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }), calls: fc.array(call, { minLength: 1, maxLength: 4 }) })
        .map(({ caller, oneDept, calls }): DataCase => {
          // A department-scoped handler's scope covers the case when every ticket is in its department.
          const dept = caller.kind === 'user' ? w.people.find((p) => p.id === caller.id)?.profile?.department : undefined;
          const tickets = oneDept && typeof dept === 'string' ? w.tickets.map((x) => ({ ...x, target_dept: dept })) : w.tickets;
          return {
            world: vsWorldOf({ ...w, tickets }),
            steps: [...calls.map((request) => step(caller, request)), step({ kind: 'service' }, selectTickets())],
          };
        });
    }),
  );
}
