/**
 * VS worlds: people biased towards VS handlers (vp_admin, vs_staff, the `vs` permission) in a
 * few overlapping departments, categories (some confidential, some with unknown flags, some
 * ids referenced by tickets but missing), and tickets with remarks of every visibility, public
 * flags, headlines (blank ones too), duplicates and soft-deleted rows.
 */
import fc from 'fast-check';
import type { Caller } from '../../../engine/model/caller.ts';
import type { Json, Row } from '../../../engine/model/json.ts';
import { holdsNotNull, type ModelSettings } from '../model/settings.ts';
import type { World } from '../../../engine/model/world.ts';
import { fakerValue } from './faker.ts';
import { callerAmong, callerOf, peopleWorld, type Person } from './identities.ts';
import { cast } from './pr.ts';
import { firstOf, rolesByMeaning } from './roles.ts';
import { callerUid } from '../../../engine/model/caller.ts';
import { isVsHandler, vsInScope } from '../model/tables/vs-access.ts';
import { unrecorded } from '../../../engine/model/branches.ts';
import { vsOnBoard } from '../model/functions/vs.ts';

export const VS_TICKET_IDS = ['VS-1001', 'VS-1002', 'VS-1003', 'VS-1004', 'VS-1005'];
/** Category ids: the last one is never written, so tickets naming it have an unresolvable category. */
export const VS_CATEGORY_IDS = ['wifi', 'dorm', 'exam', 'harassment', 'gone'];
export const VS_DELETED_AT = '2024-03-01T09:00:00+00:00';

const headline = fakerValue((f) => f.lorem.sentence({ min: 3, max: 7 }), 'vsHeadline');
const reportText = fakerValue((f) => f.lorem.sentences({ min: 1, max: 3 }), 'vsReport');
const remarkText = fakerValue((f) => f.lorem.sentence(), 'vsRemark');
const labels = fakerValue((f) => `Student ${f.number.int({ min: 100, max: 999 })}`, 'vsLabel');

export interface VsWorld {
  people: Person[];
  categories: Row[];
  tickets: Row[];
}

export function vsDepartments(settings: ModelSettings): fc.Arbitrary<string | null> {
  const [a, b] = settings.departments;
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(a, b) }, { weight: 1, arbitrary: fc.constantFrom(...settings.departments) }, { weight: 1, arbitrary: fc.constant(null) });
}

/** People with a users row mostly; handler roles and the `vs` permission are common. */
export function vsPeople(settings: ModelSettings, max = 4): fc.Arbitrary<Person[]> {
  const roles = rolesByMeaning(settings);
  const favoured = [...settings.vs.handlerRoles, ...settings.vs.deptScopedRoles, ...settings.vs.deptScopedRoles, ...firstOf(roles.plain, roles.staff)];
  return fc
    .tuple(cast(settings, favoured, max), fc.array(vsDepartments(settings), { minLength: max, maxLength: max }))
    .map(([list, depts]) => list.map((p, i) => (p.profile ? { ...p, profile: { ...p.profile, department: depts[i] } } : p)));
}

/** A null branch (weight 1), left out where the target holds the column NOT NULL (settings.notNullColumns). */
function orNull<T>(drawn: boolean, ...branches: fc.WeightedArbitrary<T>[]): fc.Arbitrary<T | null> {
  const all: fc.WeightedArbitrary<T | null>[] = [...branches, ...(drawn ? [{ weight: 1, arbitrary: fc.constant(null) }] : [])];
  return fc.oneof(...all);
}

export function vsCategory(id: string, settings: ModelSettings): fc.Arbitrary<Row> {
  return fc.record({
    id: fc.constant(id),
    name: fc.constant(id),
    is_confidential: orNull(!holdsNotNull(settings, 'vs_categories', 'is_confidential'), { weight: 4, arbitrary: fc.constant(false) }, { weight: 2, arbitrary: fc.constant(true) }),
    public_eligible: orNull(!holdsNotNull(settings, 'vs_categories', 'public_eligible'), { weight: 4, arbitrary: fc.constant(true) }, { weight: 2, arbitrary: fc.constant(false) }),
  });
}

export function vsCategories(settings: ModelSettings): fc.Arbitrary<Row[]> {
  return fc.tuple(...VS_CATEGORY_IDS.slice(0, -1).map((id) => fc.option(vsCategory(id, settings), { nil: undefined, freq: 5 }))).map((cs) => cs.filter((c): c is Row => c !== undefined));
}

/** A remark of any visibility (staff-internal, id-bearing, ticket-visible, malformed). */
export function vsRemark(label: string, ids: readonly string[]): fc.Arbitrary<Json> {
  return fc.oneof(
    { weight: 3, arbitrary: remarkText.map((text): Json => ({ vis: 'ticket', by: label, text })) },
    { weight: 2, arbitrary: remarkText.map((text): Json => ({ vis: 'ticket', by: 'staff', internal: false, text })) },
    { weight: 2, arbitrary: fc.constantFrom(...ids).map((id): Json => ({ vis: 'staff', by: 'staff', internal: true, text: `see ${id}` })) },
    { weight: 1, arbitrary: fc.constantFrom(...ids).map((id): Json => ({ vis: 'ticket', by: 'staff', internal: true, text: `duplicate of ${id}` })) },
    { weight: 1, arbitrary: fc.constantFrom<Json>('plain text', 7, null, ['nested'], { vis: 'ticket' }) },
  );
}

/** Remarks: usually few; sometimes at or just below the cap. */
export function vsRemarks(settings: ModelSettings, label: string, ids: readonly string[]): fc.Arbitrary<Json[]> {
  const cap = settings.vs.remarksCap;
  return fc.oneof({ weight: 5, arbitrary: fc.array(vsRemark(label, ids), { maxLength: 3 }) }, { weight: 1, arbitrary: fc.array(vsRemark(label, ids), { minLength: cap - 2, maxLength: cap }) });
}

export interface TicketOptions {
  deleted?: boolean;
  /** Categories tickets draw from (default: all, the missing one included). */
  categories?: readonly string[];
}

/** A ticket's columns that depend neither on its people nor on its label, per settings and ticket: made once, not for every ticket drawn. */
const ticketColumnsKept = new WeakMap<ModelSettings, Map<string, TicketColumns>>();

type TicketColumns = Record<'target_dept' | 'status' | 'category' | 'is_public' | 'public_title' | 'duplicate_of' | 'tags' | 'public_comments' | 'report' | 'deleted_at', fc.Arbitrary<unknown>>;

function ticketColumns(settings: ModelSettings, id: string, ids: readonly string[], options: TicketOptions): TicketColumns {
  let bySettings = ticketColumnsKept.get(settings);
  if (!bySettings) ticketColumnsKept.set(settings, (bySettings = new Map()));
  const key = JSON.stringify([id, ids, options.categories ?? null, options.deleted ?? null]);
  let kept = bySettings.get(key);
  if (kept) return kept;
  const depts = settings.departments;
  kept = {
    target_dept: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(depts[0], depts[1]) }, { weight: 1, arbitrary: fc.constantFrom(...depts) }),
    status: fc.constantFrom(...settings.vs.statuses),
    category: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...(options.categories ?? VS_CATEGORY_IDS)) }, { weight: 1, arbitrary: fc.constant(null) }),
    is_public: fc.boolean(),
    public_title: fc.oneof({ weight: 4, arbitrary: headline }, { weight: 1, arbitrary: fc.constantFrom<string | null>(null, '', '   ') }),
    duplicate_of: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...ids.filter((x) => x !== id)) }),
    tags: fc.subarray(['urgent', 'wifi', 'follow-up']),
    public_comments: fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.constant([{ by: 'member', body: 'same here' }]) }),
    report: reportText,
    deleted_at: options.deleted === undefined ? fc.oneof({ weight: 6, arbitrary: fc.constant<string | null>(null) }, { weight: 1, arbitrary: fc.constant(VS_DELETED_AT) }) : fc.constant(options.deleted ? VS_DELETED_AT : null),
  };
  bySettings.set(key, kept);
  return kept;
}

export function vsTicket(settings: ModelSettings, id: string, people: Person[], ids: readonly string[], options: TicketOptions = {}): fc.Arbitrary<Row> {
  const kept = ticketColumns(settings, id, ids, options);
  return (settings.vs.submitterLabel === null ? labels : fc.constant(settings.vs.submitterLabel)).chain((label) =>
    fc.record({
      id: fc.constant(id),
      submitter_id: orNull(!holdsNotNull(settings, 'vs_tickets', 'submitter_id'), { weight: 6, arbitrary: fc.constantFrom(...people.map((p) => p.id)) }),
      submitter_label: fc.constant(label),
      target_dept: kept.target_dept,
      status: kept.status,
      category: kept.category,
      is_public: kept.is_public,
      public_title: kept.public_title,
      duplicate_of: kept.duplicate_of,
      tags: kept.tags,
      remarks: vsRemarks(settings, label, ids),
      public_comments: kept.public_comments,
      report: kept.report,
      deleted_at: kept.deleted_at,
    }).map((r) => storedTitle(settings, r as unknown as Row)),
  );
}

/** A ticket as a CHECK on its headline lets the target hold it (settings.vs.storedTitles); under `any`, the row itself. */
function storedTitle(settings: ModelSettings, ticket: Row): Row {
  const blank = typeof ticket.public_title === 'string' && ticket.public_title.trim() === '';
  if (settings.vs.storedTitles === 'no-blank' && blank) return { ...ticket, public_title: null };
  if (settings.vs.storedTitles === 'public-needs-title' && ticket.is_public === true && (blank || ticket.public_title === null)) return { ...ticket, is_public: false };
  return ticket;
}

export function vsWorldOf(w: VsWorld): World {
  return { ...peopleWorld(w.people), vs_categories: w.categories, vs_tickets: w.tickets };
}

/** A VS world with 2–4 tickets (ids from `ids`). */
export function vsWorld(settings: ModelSettings, ids: readonly string[] = VS_TICKET_IDS, maxTickets = 4, options: TicketOptions = {}): fc.Arbitrary<VsWorld> {
  return fc
    .tuple(vsPeople(settings), vsCategories(settings), fc.integer({ min: 2, max: Math.min(maxTickets, ids.length) }))
    .chain(([people, categories, n]) =>
      fc.tuple(...ids.slice(0, n).map((id) => vsTicket(settings, id, people, ids.slice(0, n), options))).map((tickets) => ({ people, categories, tickets })),
    );
}

/**
 * The world with ticket `id` on the public board: published with a staff headline, not deleted,
 * in the category `wifi` made public. The model's vsOnBoard has the last word, so the generator
 * cannot drift from the rule unnoticed.
 */
export function onBoard(settings: ModelSettings, w: VsWorld, id: string): VsWorld {
  const categories = [...w.categories.filter((c) => c.id !== 'wifi'), { id: 'wifi', name: 'wifi', is_confidential: false, public_eligible: true }];
  const tickets = w.tickets.map((t) => (t.id === id ? { ...t, is_public: true, public_title: 'Wifi drops in the evening', category: 'wifi', deleted_at: null } : t));
  const next = { ...w, categories, tickets };
  const boarded = next.tickets.find((x) => x.id === id);
  if (boarded && !vsOnBoard(vsWorldOf(next), boarded, settings)) throw new Error(`onBoard: the model does not count ticket ${id} as on the board; the generator no longer matches vsOnBoard`);
  return next;
}

/** Is this person a VS handler by their users row? The model's isVsHandler, asked about them as the caller. */
export function isHandlerPerson(settings: ModelSettings, p: Person): boolean {
  const caller = callerOf(p);
  return isVsHandler({ world: peopleWorld([p]), caller, uid: callerUid(caller), settings });
}

/** Is a ticket of department `dept` in this person's handler scope? The model's vsInScope, asked about them as the caller (no branch recorded). */
export function inScopeOf(settings: ModelSettings, p: Person, dept: Json | undefined): boolean {
  const caller = callerOf(p);
  return unrecorded(() => vsInScope({ world: peopleWorld([p]), caller, uid: callerUid(caller), settings }, dept));
}

/** Mostly a VS handler of the case (vp_admin of one department acting on another's tickets included). */
export function handlerCaller(settings: ModelSettings, w: VsWorld): fc.Arbitrary<Caller> {
  const handlers = w.people.filter((p) => isHandlerPerson(settings, p));
  return handlers.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...handlers).map(userCaller) }, { weight: 1, arbitrary: vsCaller(w) }) : vsCaller(w);
}

export function userCaller(p: Person): Caller {
  return callerOf(p);
}

/** Callers: the case's people (handlers and submitters), anon and the server context. */
export function vsCaller(w: VsWorld): fc.Arbitrary<Caller> {
  return callerAmong(w.people);
}

/** A valid entry for a submitter to append; or one of the ways it can be wrong. */
export function submitterRemark(label: string, ids: readonly string[]): fc.Arbitrary<Json> {
  return fc.oneof(
    { weight: 4, arbitrary: remarkText.map((text): Json => ({ vis: 'ticket', by: label, text })) },
    { weight: 1, arbitrary: remarkText.map((text): Json => ({ vis: 'ticket', by: label, internal: false, text })) },
    { weight: 3, arbitrary: vsRemark(label, ids) },
    { weight: 1, arbitrary: remarkText.map((text): Json => ({ vis: 'ticket', by: `${label} `, text })) },
    { weight: 1, arbitrary: remarkText.map((text): Json => ({ vis: 'ticket', by: label, internal: null, text })) },
  );
}
