/**
 * Rule 8, VS side: an unresolvable value is denied. Callers whose role is null (no users row,
 * a users row with a null role, anon, the server context) — with or without the `vs`
 * permission — call every handler function and submit; categories that no longer resolve
 * (never written, deleted by the server mid-case, or with unknown flags) are treated as
 * confidential and not public-eligible by publish, board, problem, comment and linked context;
 * a null, empty or blank destination department is refused by vs_transfer_dept.
 */
import fc from 'fast-check';
import type { Caller } from '../../../engine/model/caller.ts';
import type { Json } from '../../../engine/model/json.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import { holdsNotNull, type ModelSettings } from '../model/settings.ts';
import { vsPublicCommentKey, vsPublicRef } from '../model/tables/vs-tickets.ts';
import { rpc, step } from '../generators/vs-requests.ts';
import { handlerCaller, onBoard, userCaller, VS_CATEGORY_IDS, vsWorld, vsWorldOf, type VsWorld } from '../generators/vs-world.ts';
import { drawsNullRole, type Person } from '../generators/identities.ts';
import type { DataCase } from '../../../engine/runner/data-case.ts';

/** A caller with no resolvable role: no users row, a null role (even holding `vs`), an anonymous sign-in with no users row, anon, server. */
function nullRoleCaller(w: VsWorld, settings: ModelSettings): fc.Arbitrary<{ world: VsWorld; caller: Caller }> {
  // A target holding users.role NOT NULL stores no users row with a null role: the other ways only.
  const ways = ['null-role', 'null-role', 'no-row', 'anonymous', 'anon', 'service'].filter((way) => way !== 'null-role' || drawsNullRole(settings));
  return fc.record({ i: fc.nat({ max: w.people.length - 1 }), how: fc.constantFrom(...ways) }).map(({ i, how }) => {
    const p = w.people[i];
    if (how === 'anon') return { world: w, caller: { kind: 'anon' } as Caller };
    if (how === 'service') return { world: w, caller: { kind: 'service' } as Caller };
    if (how === 'anonymous') {
      const signedIn: Person = { id: p.id, email: '', isAnonymous: true };
      return { world: { ...w, people: w.people.map((x) => (x.id === p.id ? signedIn : x)) }, caller: userCaller(signedIn) };
    }
    const people =
      how === 'no-row'
        ? w.people.map((x) => (x.id === p.id ? { id: x.id, email: x.email } : x))
        : w.people.map((x) =>
            x.id === p.id ? { ...x, profile: { id: x.id, email: x.email, role: null, department: 'ENG', permissions: ['vs'], managed_permissions: ['vs'] } } : x,
          );
    return { world: { ...w, people }, caller: userCaller(p) };
  });
}

// A tab or \r\n: whitespace a btrim() of spaces keeps (blank only to a project trimming all whitespace).
const BLANK_DEPTS: Json[] = [null, '', ' ', '   ', '\t', '\r\n'];

export function vsUnresolvableCases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  return vsWorld(settings, undefined, 3, { categories: ['wifi', 'gone', 'exam'] }).chain((w0) => {
    const ids = w0.tickets.map((t) => String(t.id));
    return fc.oneof(
      // A null role, on every handler function and on submitting.
      nullRoleCaller(w0, settings).chain(({ world, caller }) =>
        fc.record({ a: fc.constantFrom(...ids), b: fc.constantFrom(...ids), dept: fc.constantFrom(...settings.departments) }).map(({ a, b, dept }): DataCase => ({
          world: vsWorldOf(onBoard(settings, world, b)),
          steps: [
            rpc('soft_delete_vs_ticket', { p_id: a }),
            rpc('find_similar_vs_tickets', { p_id: a }),
            rpc('merge_vs_tickets', { p_duplicate: a, p_primary: b }),
            rpc('vs_transfer_dept', { p_id: a, p_dept: dept }),
            rpc('vs_set_public', { p_id: a, p_public: true, p_title: 'Headline' }),
            rpc('vs_post_public_comment', { p_ref: vsPublicCommentKey(b, settings), p_body: 'me too' }),
            { kind: 'insert', table: 'vs_tickets', rows: [{ id: 'VS-3001', submitter_id: caller.kind === 'user' ? caller.id : null, target_dept: dept, report: 'x' }], returning: 'minimal' } as ApiRequest,
          ].map((r) => step(caller, r)),
        })),
      ),
      // A category that does not resolve: never written, deleted mid-case, or with unknown flags.
      fc
        .record({
          handler: handlerCaller(settings, w0),
          t: fc.constantFrom(...ids),
          category: fc.constantFrom(...VS_CATEGORY_IDS),
          // Null flags only where the target can store them (settings.notNullColumns.vs_categories).
          how: fc.constantFrom(...(['missing', 'deleted', 'null-flags'] as const).filter((way) => way !== 'null-flags' || !(holdsNotNull(settings, 'vs_categories', 'is_confidential') || holdsNotNull(settings, 'vs_categories', 'public_eligible')))),
          commenter: handlerCaller(settings, w0),
        })
        .map(({ handler, t, category, how, commenter }): DataCase => {
          let w = onBoard(settings, w0, t);
          const cat = how === 'missing' ? 'gone' : category === 'gone' ? 'wifi' : category;
          w = { ...w, tickets: w.tickets.map((x) => (x.id === t ? { ...x, category: cat } : x)) };
          if (how === 'null-flags') w = { ...w, categories: [...w.categories.filter((c) => c.id !== cat), { id: cat, name: cat, is_confidential: null, public_eligible: null }] };
          const other = ids.find((x) => x !== t)!;
          w = { ...w, tickets: w.tickets.map((x) => (x.id === other ? { ...x, duplicate_of: t, deleted_at: null } : x)) };
          const ref = vsPublicRef(t, settings);
          const server: Caller = { kind: 'service' };
          return {
            world: vsWorldOf(w),
            steps: [
              ...(how === 'deleted' ? [step(server, { kind: 'delete', table: 'vs_categories', filters: [{ column: 'id', op: 'eq', value: cat }], returning: 'minimal' })] : []),
              step({ kind: 'anon' }, rpc('get_public_vs_board', {})),
              step({ kind: 'anon' }, rpc('get_public_vs_problem', { p_ref: ref })),
              step(commenter, rpc('vs_post_public_comment', { p_ref: vsPublicCommentKey(t, settings), p_body: 'me too' })),
              step({ kind: 'anon' }, rpc('get_vs_linked_context', { p_id: other })),
              step(handler, rpc('vs_set_public', { p_id: t, p_public: true, p_title: 'Headline' })),
              step({ kind: 'anon' }, rpc('get_public_vs_board', {})),
            ],
          };
        }),
      // A null or blank destination.
      fc
        .record({
          handler: handlerCaller(settings, w0),
          t: fc.constantFrom(...ids),
          dept: fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...BLANK_DEPTS) }, { weight: 1, arbitrary: fc.constantFrom(...settings.departments) }),
          // A timeline that is not an array (refused) or none (null: nothing appended).
          remarks: fc.constantFrom<Json>([], [], [], {}, 'moved', null),
        })
        .map(({ handler, t, dept, remarks }): DataCase => ({
          world: vsWorldOf(w0),
          steps: [step(handler, rpc('vs_transfer_dept', { p_id: t, p_dept: dept, p_remarks: remarks })), step(handler, { kind: 'select', table: 'vs_tickets', columns: ['id', 'target_dept'], filters: [] })],
        })),
    );
  });
}
