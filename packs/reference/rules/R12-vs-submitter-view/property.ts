/**
 * R12 — submitter-facing reads use an explicit allow-list without duplicate_of and staff-only
 * columns (is_duplicate stands in); duplicate cross-references stay staff-internal: id-bearing
 * remarks are internal, and a merged (auto-closed) ticket gives the submitter a generic remark.
 * No ticket-visible remark carries another ticket's id, whoever writes it: a handler's PATCH of
 * remarks, vs_transfer_dept's p_remarks, a merge (settings.vs.idBearingRemarks: refused or
 * stored internal).
 * Cases: a VS world whose remarks mix internal, id-bearing and ticket-visible entries; sometimes
 * a handler appends remarks (PATCH or transfer) with entries aimed at the rule, and/or merges two
 * tickets; then the submitter, anon or anyone reads the ticket by id and its linked public context.
 */
import fc from 'fast-check';
import type { Caller } from '../../../../engine/model/caller.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { rpc, step } from '../../generators/vs-requests.ts';
import { handlerCaller, onBoard, userCaller, vsCaller, vsWorld, vsWorldOf } from '../../generators/vs-world.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { argsOf, clause, isRpc, patchOf, sidedClause, targetRow, type Step } from '../clauses.ts';
import { rowsOf } from '../../../../engine/model/world.ts';
import { carriesOtherTicketId, isSubmitterVisibleRemark } from '../../model/tables/vs-tickets.ts';
import type { Json } from '../../../../engine/model/json.ts';

/**
 * Remark entries a writer appends to ticket `own`, aimed at rule 12 through the model: entries
 * the submitter would see carrying another ticket's id (in the text or another field, next to
 * punctuation, with `internal` false, null or missing), and entries that must pass: the ticket's
 * own id, an id-like string that is no ticket's id, internal or staff-only entries with an id,
 * plain text.
 */
function writtenRemarks(own: string, ids: readonly string[]): fc.Arbitrary<Json[]> {
  const others = ids.filter((x) => x !== own);
  const other = others.length ? fc.constantFrom(...others) : fc.constant(own);
  const entry: fc.Arbitrary<Json> = fc.oneof(
    { weight: 3, arbitrary: fc.tuple(other, fc.constantFrom('see %', '(%)', '%.', 'same as %, closing', '%')).map(([id, t]): Json => ({ vis: 'ticket', by: 'staff', text: t.replace('%', id) })) },
    { weight: 1, arbitrary: other.map((id): Json => ({ vis: 'ticket', by: 'staff', internal: false, text: `duplicate of ${id}` })) },
    { weight: 1, arbitrary: other.map((id): Json => ({ vis: 'ticket', by: 'staff', internal: null, text: `linked to ${id}` })) },
    { weight: 1, arbitrary: other.map((id): Json => ({ vis: 'ticket', by: id, text: 'merged' })) },
    { weight: 2, arbitrary: fc.constant<Json>({ vis: 'ticket', by: 'staff', text: `update on ${own}` }) },
    { weight: 1, arbitrary: other.map((id): Json => ({ vis: 'ticket', by: 'staff', text: `ref ${id}0` })) },
    { weight: 2, arbitrary: other.map((id): Json => ({ vis: 'ticket', by: 'staff', internal: true, text: `duplicate of ${id}` })) },
    { weight: 1, arbitrary: other.map((id): Json => ({ vis: 'staff', by: 'staff', text: `see ${id}` })) },
    { weight: 1, arbitrary: other.map((id): Json => ({ by: 'staff', text: `see ${id}` })) },
    { weight: 2, arbitrary: fc.constant<Json>({ vis: 'ticket', by: 'staff', text: 'We are looking into it.' }) },
  );
  return fc.array(entry, { minLength: 1, maxLength: 2 });
}

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  return vsWorld(settings, undefined, 4, { categories: ['wifi', 'dorm', 'gone'] }).chain((w0) => {
    const ids = w0.tickets.map((t) => String(t.id));
    return fc
      .record({
        handler: handlerCaller(settings, w0),
        reader: vsCaller(w0),
        d: fc.constantFrom(...ids),
        p: fc.constantFrom(...ids),
        merge: fc.integer({ min: 0, max: 2 }),
        publish: fc.boolean(),
        // Rule 12 for every writer: a handler's PATCH of remarks, or vs_transfer_dept's p_remarks.
        writer: fc.constantFrom('none', 'none', 'patch', 'patch', 'transfer', 'transfer'),
        dept: fc.constantFrom(...settings.departments),
        stay: fc.boolean(),
      })
      .chain((r) => writtenRemarks(r.d, ids).map((entries) => ({ ...r, entries })))
      .map(({ handler, reader, d, p, merge, publish, writer, dept, stay, entries }): DataCase => {
        const w = publish ? onBoard(settings, w0, p) : w0;
        const ticket = w.tickets.find((t) => t.id === d)!;
        const submitter = w.people.find((x) => x.id === ticket.submitter_id);
        const who: Caller = submitter && merge !== 1 ? userCaller(submitter) : reader;
        const remarks = Array.isArray(ticket.remarks) ? ticket.remarks : [];
        const write =
          writer === 'patch'
            ? [step(handler, { kind: 'update', table: 'vs_tickets', patch: { remarks: [...remarks, ...entries] }, filters: [{ column: 'id', op: 'eq', value: d }], returning: 'minimal' })]
            : writer === 'transfer'
              ? [step(handler, rpc('vs_transfer_dept', { p_id: d, p_dept: stay ? ticket.target_dept : dept, p_remarks: entries }))]
              : [];
        return {
          world: vsWorldOf(w),
          steps: [
            ...write,
            ...(merge > 0 ? [step(handler, rpc('merge_vs_tickets', { p_duplicate: d, p_primary: p }))] : []),
            step(who, rpc('get_vs_ticket_by_id', { p_id: d })),
            step({ kind: 'anon' }, rpc('get_vs_linked_context', { p_id: d })),
          ],
        };
      });
  });
}

/** The entries a step appends to a ticket's remarks: a PATCH's new tail, or the transfer's p_remarks. */
function appended(s: Step): { own: Json | undefined; entries: Json[] } | undefined {
  const r = s.step.request;
  if (isRpc(s, 'vs_transfer_dept')) {
    const a = argsOf(s);
    return { own: a.p_id, entries: Array.isArray(a.p_remarks) ? a.p_remarks : [] };
  }
  const t = targetRow(s, 'vs_tickets');
  const after = patchOf(s).remarks;
  if (r.kind !== 'update' || !t || !Array.isArray(after)) return undefined;
  return { own: t.id, entries: after.slice(Array.isArray(t.remarks) ? t.remarks.length : 0) };
}

/**
 * Rule 12 on a writer: refused when an appended entry the submitter would see carries another
 * ticket's id and the model kept it from the submitter (refused, or stored internal under
 * vs.idBearingRemarks 'marked-internal'); allowed when no such entry was written and it went in.
 */
function writerSide(s: Step): 'allowed' | 'refused' | undefined {
  const a = appended(s);
  if (!a) return undefined;
  const leaks = a.entries.some((e) => isSubmitterVisibleRemark(e) && carriesOtherTicketId(e, a.own, s.before));
  const wrote = s.outcome.kind === 'allowed' && s.outcome.affected > 0;
  if (leaks) return s.outcome.kind === 'raised' && s.outcome.refusal?.reason === 'id-bearing-remark' ? 'refused' : wrote && s.settings.vs.idBearingRemarks === 'marked-internal' ? 'refused' : undefined;
  return wrote ? 'allowed' : undefined;
}

const CLAUSES = [
  sidedClause('R12.patch-remark', "a handler's PATCH appending remarks: no other ticket's id the submitter sees (written) / one (refused)", (s) =>
    s.step.request.kind === 'update' ? writerSide(s) : undefined,
  ),
  sidedClause('R12.transfer-remark', "vs_transfer_dept's p_remarks: no other ticket's id the submitter sees (written) / one (refused)", (s) =>
    isRpc(s, 'vs_transfer_dept') ? writerSide(s) : undefined,
  ),
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
  functions: ['get_vs_ticket_by_id', 'get_vs_linked_context', 'merge_vs_tickets', 'vs_transfer_dept'],
  cases,
  clauses: CLAUSES,
};
