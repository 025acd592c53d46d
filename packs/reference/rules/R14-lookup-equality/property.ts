/**
 * R14 — rule 14: a lookup by id is a capability, so the comparison is equality (for
 * get_pr_ticket_by_id: case-insensitive and trimmed), never like, ilike or a pattern.
 * Cases: PR tickets whose ids hold %, _, *, \, quotes, commas, dots, parentheses, surrounding
 * whitespace and mixed case (some deleted); one to three lookups with keys that are an id as
 * stored, padded or case-flipped, a wildcard pattern, or unrelated — through the guest lookup
 * (anon mostly), GET pr_tickets?id=eq.<key>, and soft_delete_pr_ticket (a stored id's near miss
 * of every kind first: case-flipped, padded, a like pattern).
 * VS cases join through `fc.oneof` in `cases`: ids full of wildcards and their near misses,
 * through the guest lookup and the linked context (anon, server), and through every id-taking
 * handler function (find_similar, merge, transfer, publish, soft delete) by a handler in scope,
 * each call naming a ticket by a near miss of every kind.
 */
import fc from 'fast-check';
import type { Caller } from '../../../../engine/model/caller.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { callerAmong } from '../../generators/identities.ts';
import { cast, flipCase, lookupKey, PAD_ENDS, padded, prTickets, prWorld } from '../../generators/pr.ts';
import type { DataCase, DataStep } from '../../../../engine/runner/data-case.ts';
import { fromParts, type DataProperty } from '../../../../engine/runner/data-property.ts';
import { oneNearMissOfEachKind, VS_HANDLER_LOOKUPS, vsHandlerLookupCases, vsLookupCases } from '../../cases/vs-lookups.ts';
import { argsOf, isRpc, sidedClause } from '../clauses.ts';
import { rowsOf } from '../../../../engine/model/world.ts';

/** `aimed`: a guide's keys (PR_GUIDES), made from the stored ids and sent to the guest lookup. */
export function prLookupCases(settings: ModelSettings, aimed?: (ids: string[]) => fc.Arbitrary<string>): fc.Arbitrary<DataCase> {
  return cast(settings, settings.pr.handlerRoles).chain((list) =>
    prTickets(settings, list, 6).chain((tickets) => {
      const ids = tickets.map((t) => t.id as string);
      const key = aimed ? aimed(ids) : lookupKey(ids, settings.pr.trimmedCharacters);
      const caller = callerAmong(list);
      // Sometimes by GET (supabase-js `.rpc(fn, args, { get: true })`): the lookup answers the same;
      // the soft delete, a write, is refused by the read-only transaction.
      // A soft delete (an equality lookup that writes) names a stored id by a near miss of every
      // kind before the drawn key, so a like/lower/btrim there is met in the first cases.
      const named = fc.tuple(fc.constantFrom(...ids), fc.tuple(fc.nat(), fc.nat(), fc.nat()));
      const step = fc.tuple(key, fc.integer({ min: 0, max: aimed ? 2 : 5 }), caller, fc.constantFrom(false, false, true), named).map(([k, how, c, viaGet, [id, picks]]): DataStep[] => {
        const get = viaGet ? { get: true } : {};
        if (how <= 2) return [{ caller: how === 0 ? c : ({ kind: 'anon' } as Caller), request: { kind: 'rpc', fn: 'get_pr_ticket_by_id', args: { p_id: k }, ...get } }];
        if (how === 3) return [{ caller: c, request: { kind: 'select', table: 'pr_tickets', columns: '*', filters: [{ column: 'id', op: 'eq', value: k }] } }];
        const misses = oneNearMissOfEachKind(id, picks);
        return [...misses, k].map((p_id): DataStep => ({ caller: c, request: { kind: 'rpc', fn: 'soft_delete_pr_ticket', args: { p_id }, ...get } }));
      });
      return fc.array(step, { minLength: 1, maxLength: 3 }).map((steps): DataCase => ({ world: prWorld(settings, list, tickets), steps: steps.flat() }));
    }),
  );
}

/**
 * The guest lookup's rare matches (1–3 in 300 plain cases): a key equal to a stored id only
 * case-insensitively (a stored id with a letter, its case flipped), and one equal only once
 * spaces are trimmed (a stored id padded with spaces, on either end or both).
 */
const withLetter = (ids: string[]) => fc.constantFrom(...(ids.some((id) => /[a-z]/i.test(id)) ? ids.filter((id) => /[a-z]/i.test(id)) : ids));
const PR_GUIDES = [
  { branch: 'R14.pr.case-only', cases: (settings: ModelSettings) => prLookupCases(settings, (ids) => withLetter(ids).map(flipCase)) },
  { branch: 'R14.pr.trim-spaces', cases: (settings: ModelSettings) => prLookupCases(settings, (ids) => fc.tuple(fc.constantFrom(...ids), fc.constantFrom(' ', '  '), fc.constantFrom(...PAD_ENDS)).map(([id, pad, where]) => padded(id, pad, where))) },
];

export const R14: DataProperty = fromParts(
  {
    id: 'R14',
    rule: 14,
    title: 'lookups by id compare by equality (case-insensitive and trimmed where stated), never a pattern',
    clauses: [
      sidedClause('R14.pr-near-key', 'get_pr_ticket_by_id with a key that is not a stored id: found after trim/case (allowed) / not found (refused)', (s) => {
        if (!isRpc(s, 'get_pr_ticket_by_id') || s.outcome.kind !== 'allowed') return undefined;
        if (rowsOf(s.before, 'pr_tickets').some((t) => t.id === argsOf(s).p_id)) return undefined;
        return s.outcome.rows?.length ? 'allowed' : 'refused';
      }),
    ],
  },
  [
    { tables: ['pr_tickets'], functions: ['get_pr_ticket_by_id', 'soft_delete_pr_ticket'], cases: (settings) => prLookupCases(settings), guides: PR_GUIDES },
    { tables: ['vs_tickets'], functions: ['get_vs_ticket_by_id', 'get_vs_linked_context'], cases: vsLookupCases },
    { tables: ['vs_tickets'], functions: [...VS_HANDLER_LOOKUPS], cases: vsHandlerLookupCases },
  ],
);
