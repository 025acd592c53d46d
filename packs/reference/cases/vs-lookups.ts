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

type NearMissKind = 'case' | 'padding' | 'pattern';

/** Each probe of an id with its kind, in probesOf's order (the first, of no kind, is the id itself). */
function kindedProbesOf(id: string): readonly (readonly [NearMissKind | undefined, string])[] {
  const flip = [...id].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  return [
    [undefined, id],
    ['case', flip],
    ['padding', `${id} `],
    ['padding', ` ${id}`],
    ['pattern', `${id.slice(0, -1)}_`],
    ['pattern', `${id.slice(0, 2)}%`],
    ['pattern', `%${id.slice(1)}`],
    ['pattern', `${id.slice(0, -1)}*`],
    ['pattern', '%'],
    ['pattern', '_%'],
    ['case', id.toLowerCase()],
    ['case', id.toUpperCase()],
  ];
}

/** Near misses of an id: each would match under like/ilike/lower/trim but not under equality. */
export function probesOf(id: string): string[] {
  return kindedProbesOf(id).map(([, p]) => p);
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
          // An app reading a ticket by its id as one object: `.rpc('get_vs_ticket_by_id', { p_id }).single()`,
          // 406 PGRST116 where no ticket (or two) matches, the row itself where one does.
          single: fc.boolean(),
        })
        .map(({ t, which, pick, reader, linked, single }): DataCase => {
          const probes = [...which, probesOf(String(t.id))[pick]];
          const caller = { kind: reader } as const;
          // The first ticket is sometimes a duplicate of a published one, so the linked context answers.
          const [first, second] = w.tickets.map((x) => String(x.id));
          const live = { ...w, tickets: w.tickets.map((x) => ({ ...x, deleted_at: null, duplicate_of: linked && x.id === first ? second : x.duplicate_of })) };
          return {
            world: vsWorldOf(linked ? onBoard(settings, live, second) : live),
            steps: [
              ...probes.map((p) => step(caller, { ...rpc('get_vs_ticket_by_id', { p_id: p }), ...(single ? { single } : {}) })),
              step(caller, rpc('get_vs_linked_context', { p_id: probes[0] })),
              step({ kind: 'service' }, selectTickets(probes[probes.length - 1])),
            ],
          };
        }),
    ),
  );
}

/**
 * The near misses of an id by kind, each kind a comparison that would wrongly find the ticket:
 * `case` (lower/ilike: the id case-flipped, lowered, uppered), `padding` (btrim: a space at either
 * end) and `pattern` (like: wildcards in place of characters). Only keys that differ from the id:
 * an id with no letter has no case variant.
 */
export function nearMissesOf(id: string): Record<NearMissKind, string[]> {
  const probes = kindedProbesOf(id);
  const of = (kind: NearMissKind) => [...new Set(probes.filter(([k, p]) => k === kind && p !== id).map(([, p]) => p))];
  return { case: of('case'), padding: of('padding'), pattern: of('pattern') };
}

/** One near miss of each kind the id has (nearMissesOf), the i-th kind's chosen by picks[i]. */
export function oneNearMissOfEachKind(id: string, picks: readonly [number, number, number]): string[] {
  return Object.values(nearMissesOf(id)).flatMap((kind, i) => (kind.length ? [kind[picks[i] % kind.length]] : []));
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
      // One function, a ticket and another (the merge partner), and the ticket named by a near
      // miss of every kind at once (and sometimes by its id): a fault in one comparison of one
      // function is met in the first cases, not once the one kind it misreads is drawn for it.
      const call = fc
        .record({
          fn: fc.constantFrom(...VS_HANDLER_LOOKUPS),
          pair: fc.constantFrom(...w.tickets.flatMap((a) => w.tickets.filter((b) => b !== a).map((b) => [String(a.id), String(b.id)] as const))),
          picks: fc.tuple(fc.nat(), fc.nat(), fc.nat()),
          exact: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
          // merge_vs_tickets: the near miss as the duplicate or as the primary.
          asDuplicate: fc.boolean(),
          publish: fc.oneof({ weight: 2, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
          dept: fc.constantFrom(...settings.departments),
        })
        .map(({ fn, pair: [t, other], picks, exact, asDuplicate, publish, dept }): ApiRequest[] => {
          const misses = oneNearMissOfEachKind(t, picks);
          // The id itself last: a soft delete or merge through it leaves no live ticket for the misses.
          return [...misses, ...(exact ? [t] : [])].map((p) => {
            if (fn === 'merge_vs_tickets') return rpc(fn, asDuplicate ? { p_duplicate: p, p_primary: other } : { p_duplicate: other, p_primary: p });
            if (fn === 'vs_transfer_dept') return rpc(fn, { p_id: p, p_dept: dept, p_remarks: [] });
            if (fn === 'vs_set_public') return rpc(fn, { p_id: p, p_public: publish, p_title: 'Wifi drops in the evening' });
            return rpc(fn, { p_id: p });
          });
        });
      return fc
        .record({ caller: handlerCaller(settings, w), oneDept: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }), calls: fc.array(call, { minLength: 1, maxLength: 2 }).map((c) => c.flat()) })
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
