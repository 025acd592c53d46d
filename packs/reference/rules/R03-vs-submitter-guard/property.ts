/**
 * R03 — vs_tickets: a submitter may not change is_public, public_title, category, status,
 * target_dept, tags or duplicate_of on their own ticket (nor any other column outside the
 * allow-list); remarks are append-only and capped, and a submitter's entry has vis 'ticket',
 * is attributed to the submitter label and is not internal. A submission cannot set them either.
 * Cases: a VS world; mostly a ticket's submitter (of any role, handler or not, in scope or not)
 * PATCHes it by id — a forbidden column, a remark append (valid, wrong vis/label/internal, a
 * key absent, rewritten history, over the cap, not an array) — or submits a ticket with staff fields set;
 * then reads it back through get_vs_ticket_by_id.
 */
import fc from 'fast-check';
import { callerUid, type Caller } from '../../../../engine/model/caller.ts';
import type { Json, Row } from '../../../../engine/model/json.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { patchTicket, remarksAtCap, remarkWithoutKey, returning, rpc, staffFieldAlone, step, ticketPatch, VS_FORBIDDEN, VS_OTHER } from '../../generators/vs-requests.ts';
import { inScopeOf, userCaller, vsCaller, vsWorld, vsWorldOf, type VsWorld } from '../../generators/vs-world.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { withReadBack } from '../../generators/read-back.ts';
import { callerId, clause, patchOf, readClause, sidedClause, targetRow } from '../clauses.ts';

function ownerOr(w: VsWorld, t: Row): fc.Arbitrary<Caller> {
  const submitter = w.people.find((p) => p.id === t.submitter_id);
  return submitter ? fc.oneof({ weight: 6, arbitrary: fc.constant(userCaller(submitter)) }, { weight: 1, arbitrary: vsCaller(w) }) : vsCaller(w);
}

/** What a new ticket may not carry from its submitter: staff fields, history, comments, deletion. */
const FILED_BY_STAFF = [...VS_FORBIDDEN, 'remarks', 'public_comments', 'deleted_at'] as const;

function submission(settings: ModelSettings, w: VsWorld, caller: Caller): fc.Arbitrary<Row> {
  const own = caller.kind === 'user' ? caller.id : null;
  return fc
    .record({
      // Mostly one field the submitter may not set, alone: the insert check must refuse each by itself.
      extra: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...FILED_BY_STAFF).map((c) => [c]) },
        { weight: 1, arbitrary: fc.subarray([...FILED_BY_STAFF], { maxLength: 2 }) },
      ),
      submitter: fc.oneof({ weight: 5, arbitrary: fc.constant<Json>(own) }, { weight: 1, arbitrary: fc.constantFrom<Json>(...w.people.map((p) => p.id)) }),
      dept: fc.constantFrom(...settings.departments),
    })
    .map(({ extra, submitter, dept }) => {
      const row: Row = { id: 'VS-2001', submitter_id: submitter, submitter_label: 'Student 42', target_dept: dept, category: 'wifi', report: 'The wifi in block C drops every evening.' };
      const staffValues: Row = { is_public: true, public_title: 'Wifi outage', category: 'exam', status: 'closed', target_dept: 'SE', tags: ['urgent'], duplicate_of: 'VS-1001', remarks: [{ vis: 'ticket', by: 'Student 42', text: 'hi' }], public_comments: [{ by: 'member', body: 'me too' }], deleted_at: '2024-01-01T00:00:00+00:00' };
      for (const c of extra) row[c] = staffValues[c];
      return row;
    });
}

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  return vsWorld(settings).chain((w) =>
    fc.constantFrom(...w.tickets).chain((t) =>
      ownerOr(w, t).chain((caller) => {
        // The guard checks a submitter out of scope on a live ticket: there, a staff field alone is its boundary.
        const submitter = w.people.find((p) => p.id === t.submitter_id);
        const guarded = submitter !== undefined && callerUid(caller) === submitter.id && t.deleted_at === null && !inScopeOf(settings, submitter, t.target_dept);
        return fc
          .record({
            choice: fc.integer({ min: 0, max: 9 }),
            patch: fc.oneof(
              { weight: 2, arbitrary: ticketPatch(settings, t, w, VS_OTHER, ['remarks']) },
              // A staff field: where the guard looks, mostly alone (its boundary), else beside other columns.
              ...(guarded
                ? [{ weight: 3, arbitrary: staffFieldAlone(settings, t, w) }, { weight: 1, arbitrary: ticketPatch(settings, t, w, VS_OTHER, VS_FORBIDDEN) }]
                : [{ weight: 3, arbitrary: ticketPatch(settings, t, w, VS_OTHER, VS_FORBIDDEN) }]),
              { weight: 1, arbitrary: remarksAtCap(settings, t).map((remarks): Row => ({ remarks })) },
              // An otherwise valid entry with a key absent: a guard comparing with <> lets it through.
              { weight: 2, arbitrary: remarkWithoutKey(String(t.submitter_label)).map((e): Row => ({ remarks: [...(Array.isArray(t.remarks) ? t.remarks : []), e] })) },
            ),
            body: submission(settings, w, caller),
            ret: returning,
          })
          .map(({ choice, patch, body, ret }): DataCase => {
            const write = choice < 8 ? patchTicket(t.id, patch, ret) : { kind: 'insert' as const, table: 'vs_tickets', rows: [body], returning: ret };
            const readId = choice < 8 ? t.id : body.id;
            return { world: vsWorldOf(w), steps: [step(caller, write), step(caller, rpc('get_vs_ticket_by_id', { p_id: readId }))] };
          });
      }),
    ),
  );
}

/**
 * Guides (engine/runner/guided.ts): a ticket's submitter appends one near-miss entry, aimed at a
 * branch of the rule 3 guard that plain generation reaches rarely; read back as the other cases are.
 */
function nearMissRemarks(settings: ModelSettings, remarks: (current: Json[], label: string) => fc.Arbitrary<Json>): fc.Arbitrary<DataCase> {
  const patched = vsWorld(settings).chain((w) => {
    const owned = w.tickets.filter((t) => w.people.some((p) => p.id === t.submitter_id));
    return fc.constantFrom(...(owned.length ? owned : w.tickets)).chain((t) =>
      fc.tuple(ownerOr(w, t), remarks(Array.isArray(t.remarks) ? t.remarks : [], String(t.submitter_label)), returning).map(([caller, value, ret]): DataCase => ({
        world: vsWorldOf(w),
        steps: [step(caller, patchTicket(t.id, { remarks: value }, ret)), step(caller, rpc('get_vs_ticket_by_id', { p_id: t.id }))],
      })),
    );
  });
  return withReadBack(patched, ['vs_tickets']);
}

/** The ticket's remarks with one entry appended. */
const nearMissAppend = (settings: ModelSettings, entry: (label: string) => fc.Arbitrary<Json>) => nearMissRemarks(settings, (current, label) => entry(label).map((e): Json => [...current, e]));

/** The submitter label with its case changed (never equal to it): "Student 42" → "STUDENT 42", "student 42". */
const caseFlipped = (label: string) => fc.constantFrom(label.toUpperCase(), label.toLowerCase(), label.charAt(0) === label.charAt(0).toUpperCase() ? label.charAt(0).toLowerCase() + label.slice(1) : label.charAt(0).toUpperCase() + label.slice(1)).filter((l) => l !== label);

const GUIDES = [
  { branch: 'R03.remark.by-case-only', cases: (settings: ModelSettings) => nearMissAppend(settings, (label) => (/[a-z]/i.test(label) ? caseFlipped(label) : fc.constant(`${label}X`)).map((by): Json => ({ vis: 'ticket', by, text: 'more detail' }))) },
  // Another author altogether (staff's name, another student's, none): refused, and without it R03 never saturated (run to its full count in pr).
  { branch: 'R03.remark.by-other', cases: (settings: ModelSettings) => nearMissAppend(settings, (label) => fc.constantFrom('VS staff', 'Student 1', 'Student 2', '').filter((by) => by.toLowerCase() !== label.toLowerCase()).map((by): Json => ({ vis: 'ticket', by, text: 'more detail' }))) },
  { branch: 'R03.remark.vis-other', cases: (settings: ModelSettings) => nearMissAppend(settings, (label) => fc.constantFrom('Ticket', 'TICKET', 'ticket ', 'internal', 'staff').map((vis): Json => ({ vis, by: label, text: 'more detail' }))) },
  { branch: 'R03.remark.not-object', cases: (settings: ModelSettings) => nearMissAppend(settings, (label) => fc.constantFrom<Json>(label, `${label}: more detail`, [label], 42, null)) },
  { branch: 'R03.remark.internal-other', cases: (settings: ModelSettings) => nearMissAppend(settings, (label) => fc.constantFrom<Json>(true, null, 'false', 0).map((internal): Json => ({ vis: 'ticket', by: label, internal, text: 'more detail' }))) },
  // History cut short: the last entry (or, on a ticket without remarks, a made-up one) left out.
  { branch: 'R03.remarks.shortened', cases: (settings: ModelSettings) => nearMissRemarks(settings, (current) => fc.constant<Json>(current.slice(0, -1))) },
  { branch: 'R03.remarks.not-array', cases: (settings: ModelSettings) => nearMissRemarks(settings, (current, label) => fc.constantFrom<Json>('appended', { vis: 'ticket', by: label, text: 'more detail' }, current.length ? current[0] : 1)) },
];

const CLAUSES = [
  clause('R03.staff-field', "a submitter's PATCH of a staff field on their own ticket", (s) => {
    const t = targetRow(s, 'vs_tickets');
    return t !== undefined && t.submitter_id === callerId(s) && VS_FORBIDDEN.some((c) => c in patchOf(s));
  }),
  clause('R03.remark', "a submitter's PATCH of remarks on their own ticket", (s) => {
    const t = targetRow(s, 'vs_tickets');
    return t !== undefined && t.submitter_id === callerId(s) && Object.keys(patchOf(s)).join() === 'remarks';
  }),
  sidedClause('R03.remarks-cap', 'remarks at the cap (allowed) and beyond it (refused)', (s) => {
    const remarks = patchOf(s).remarks;
    if (!targetRow(s, 'vs_tickets') || !Array.isArray(remarks) || remarks.length < s.settings.vs.remarksCap) return undefined;
    if (remarks.length === s.settings.vs.remarksCap) return s.outcome.kind === 'allowed' && (s.outcome.affected ?? 0) > 0 ? 'allowed' : undefined;
    return s.outcome.kind === 'error' && s.outcome.code === '23514' ? 'refused' : undefined;
  }),
  readClause('R03.read', 'vs_tickets'),
];

export const R03: DataProperty = {
  id: 'R03',
  rule: 3,
  title: 'vs_tickets: a submitter cannot change staff fields; remarks append-only, capped, by the submitter label',
  tables: ['vs_tickets'],
  functions: ['get_vs_ticket_by_id'],
  cases: (settings) => withReadBack(cases(settings), ['vs_tickets']),
  clauses: CLAUSES,
  guides: GUIDES,
};
