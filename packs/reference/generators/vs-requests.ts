/**
 * VS requests as plain data: PATCH/POST/GET of vs_tickets, the VS functions, PATCH bodies of
 * a ticket (forbidden columns, remark appends of every kind) and "every read path" of a ticket.
 */
import fc from 'fast-check';
import type { Caller } from '../../../engine/model/caller.ts';
import type { Json, Row } from '../../../engine/model/json.ts';
import type { ApiRequest, Returning } from '../../../engine/model/request.ts';
import type { ModelSettings } from '../model/settings.ts';
import { vsPublicRef } from '../model/tables/vs-tickets.ts';
import type { DataStep } from '../../../engine/runner/data-case.ts';
import { fakerValue } from './faker.ts';
import { oneConditionBroken } from './boundary.ts';
import { jsonEqual } from '../../../engine/model/values.ts';
import { submitterRemark, VS_CATEGORY_IDS, VS_DELETED_AT, type VsWorld } from './vs-world.ts';

export const rpc = (fn: string, args: Record<string, Json>): ApiRequest => ({ kind: 'rpc', fn, args });
export const byId = (id: Json) => [{ column: 'id', op: 'eq' as const, value: id }];
export const patchTicket = (id: Json, patch: Row, returning: Returning): ApiRequest => ({ kind: 'update', table: 'vs_tickets', patch, filters: byId(id), returning });
export const selectTickets = (id?: Json): ApiRequest => ({ kind: 'select', table: 'vs_tickets', columns: '*', filters: id === undefined ? [] : byId(id) });
export const returning = fc.constantFrom<Returning>('representation', 'minimal');
export const step = (caller: Caller, request: ApiRequest): DataStep => ({ caller, request });

const headline = fakerValue((f) => f.lorem.sentence({ min: 3, max: 6 }), 'vsPatchHeadline');

/** Columns rule 3 forbids a submitter to change, then the rest a PATCH may name. */
export const VS_FORBIDDEN = ['is_public', 'public_title', 'category', 'status', 'target_dept', 'tags', 'duplicate_of'] as const;
export const VS_OTHER = ['remarks', 'report', 'submitter_label', 'submitter_id', 'public_comments', 'updated_at', 'is_duplicate'] as const;

/** New remarks for a ticket: appends (valid or not), rewrites, truncations, non-arrays. */
export function remarksValue(settings: ModelSettings, t: Row, ids: readonly string[]): fc.Arbitrary<Json> {
  const current = Array.isArray(t.remarks) ? t.remarks : [];
  const label = String(t.submitter_label);
  return fc.oneof(
    { weight: 6, arbitrary: fc.array(submitterRemark(label, ids), { minLength: 1, maxLength: 2 }).map((add): Json => [...current, ...add]) },
    { weight: 1, arbitrary: fc.constant<Json>(current) },
    // History rewritten: an entry replaced (same length) or one put in front (longer); removed.
    { weight: 2, arbitrary: submitterRemark(label, ids).map((e): Json => (current.length ? [e, ...current.slice(1)] : [e])) },
    { weight: 1, arbitrary: fc.constant<Json>(current.slice(0, -1)) },
    { weight: 2, arbitrary: submitterRemark(label, ids).map((e): Json => [e, ...current]) },
    { weight: 1, arbitrary: fc.constantFrom<Json>('appended', null, { vis: 'ticket', by: label }) },
    { weight: 1, arbitrary: fc.constant<Json>([...current, ...Array.from({ length: settings.vs.remarksCap }, () => ({ vis: 'ticket', by: label, text: 'again' }))]) },
    // The cap from the settings: filled exactly to it (allowed) and one past it (23514).
    { weight: 3, arbitrary: remarksAtCap(settings, t) },
    // A valid entry with each of its keys missing, null, or of another type.
    { weight: 2, arbitrary: malformedRemark(label).map((e): Json => [...current, e]) },
    // A key absent is what a `<>` (instead of IS DISTINCT FROM) lets through: each key of a valid entry left out.
    { weight: 3, arbitrary: remarkWithoutKey(label).map((e): Json => [...current, e]) },
  );
}

/** Valid appends filling the remarks exactly to the cap of the settings (allowed) or one past it (23514). */
export function remarksAtCap(settings: ModelSettings, t: Row): fc.Arbitrary<Json> {
  const current = Array.isArray(t.remarks) ? t.remarks : [];
  const entry = { vis: 'ticket', by: String(t.submitter_label), text: 'again' };
  return fc.constantFrom(0, 1).map((over): Json => [...current, ...Array.from({ length: Math.max(1, settings.vs.remarksCap - current.length + over) }, () => entry)]);
}

/** A submitter's valid entry with one of its keys (vis, by, internal, text) absent. */
export function remarkWithoutKey(label: string): fc.Arbitrary<Json> {
  const valid: Row = { vis: 'ticket', by: label, internal: false, text: 'more detail' };
  return fc.constantFrom(...Object.keys(valid)).map((key): Json => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key)));
}

/** A submitter's valid entry with one key missing, null or mistyped (vis, by, internal, text). */
export function malformedRemark(label: string): fc.Arbitrary<Json> {
  const valid: Row = { vis: 'ticket', by: label, internal: false, text: 'more detail' };
  return fc.tuple(fc.constantFrom(...Object.keys(valid)), fc.constantFrom<'missing' | Json>('missing', null, 1, 'staff', true)).map(([key, value]): Json => {
    const e: Row = { ...valid };
    if (value === 'missing') delete e[key];
    else e[key] = value;
    return e;
  });
}

export function ticketColumnValue(settings: ModelSettings, column: string, t: Row, ids: readonly string[], people: readonly string[]): fc.Arbitrary<Json> {
  const same = fc.constant<Json>(t[column] ?? null);
  const fresh: Record<string, fc.Arbitrary<Json>> = {
    is_public: fc.boolean(),
    public_title: fc.oneof(headline, fc.constantFrom<Json>(null, '')),
    category: fc.constantFrom<Json>(...VS_CATEGORY_IDS, null),
    status: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...settings.vs.statuses) }, { weight: 1, arbitrary: fc.constantFrom('Closed', 'archived') }),
    target_dept: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...settings.departments) }, { weight: 1, arbitrary: fc.constantFrom('eng', '', 'XYZ') }),
    tags: fc.subarray(['urgent', 'wifi', 'follow-up', 'dup']),
    duplicate_of: fc.constantFrom<Json>(...ids, null),
    remarks: remarksValue(settings, t, ids),
    report: fc.constantFrom('edited report', ''),
    submitter_label: fc.constantFrom('Anonymous', 'Student 1'),
    submitter_id: fc.constantFrom<Json>(...people, null),
    public_comments: fc.constantFrom<Json>([], [{ by: 'staff', body: 'fixed' }]),
    updated_at: fc.constant('2020-01-01T00:00:00+00:00'),
    deleted_at: fc.constantFrom<Json>(VS_DELETED_AT, null),
    is_duplicate: fc.boolean(),
  };
  return fc.oneof({ weight: 1, arbitrary: same }, { weight: 4, arbitrary: fresh[column] });
}

/** A PATCH of ticket t naming `focus` (if any) plus a few other columns. */
export function ticketPatch(settings: ModelSettings, t: Row, w: VsWorld, columns: readonly string[], focus?: readonly string[]): fc.Arbitrary<Row> {
  const ids = w.tickets.map((x) => String(x.id));
  const people = w.people.map((p) => p.id);
  return fc
    .tuple(focus?.length ? fc.constantFrom(...focus) : fc.constant(undefined), fc.subarray([...columns], { maxLength: 2 }))
    .map(([f, cols]) => [...new Set([...(f ? [f] : []), ...cols])])
    .filter((cols) => cols.length > 0)
    .chain((cols) => fc.tuple(...cols.map((c) => ticketColumnValue(settings, c, t, ids, people))).map((vals) => Object.fromEntries(cols.map((c, i) => [c, vals[i]]))));
}

/**
 * A PATCH at the boundary of the submitter guard: every staff field unchanged but one, which gets
 * another value than the ticket's, alone. Beside a column outside the allow-list (report,
 * submitter_id...) the guard refuses whatever it thinks of the staff field, and an unchanged value
 * passes it: an allow-list that grew status or tags showed only on the rare draw avoiding both.
 */
export function staffFieldAlone(settings: ModelSettings, t: Row, w: VsWorld): fc.Arbitrary<Row> {
  const ids = w.tickets.map((x) => String(x.id));
  const people = w.people.map((p) => p.id);
  const conditions = Object.fromEntries(
    VS_FORBIDDEN.map((c) => [c, { met: fc.constant(UNCHANGED), broken: ticketColumnValue(settings, c, t, ids, people).filter((v) => !jsonEqual(v, t[c] ?? null)) }]),
  );
  return oneConditionBroken<Record<string, Json | typeof UNCHANGED>>(conditions).map((patch): Row =>
    Object.fromEntries(Object.entries(patch).filter((e): e is [string, Json] => e[1] !== UNCHANGED)),
  );
}

/** A column a PATCH leaves out (so unchanged). */
const UNCHANGED = Symbol('unchanged');

/** Every read path a ticket can be seen on, as `caller` (rule 7: none shows a deleted ticket). */
export function readPaths(settings: ModelSettings, t: Row): ApiRequest[] {
  return [
    selectTickets(t.id),
    selectTickets(),
    rpc('get_vs_ticket_by_id', { p_id: t.id }),
    rpc('find_similar_vs_tickets', { p_id: t.id }),
    rpc('get_public_vs_board', {}),
    rpc('get_public_vs_problem', { p_ref: vsPublicRef(t.id, settings) }),
    rpc('get_vs_linked_context', { p_id: t.id }),
  ];
}
