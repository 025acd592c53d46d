/**
 * The VS ticket lifecycle as fast-check commands: submit, submitter update, handler update,
 * transfer, publish, merge, soft delete (the function, or a PATCH of deleted_at) and "read again"
 * on every read path. A command holds abstract choices (who, which ticket by index, what kind of
 * change); `step(model)` turns them into the concrete request against the state reached so far,
 * and `run(model, real)` hands each step to the real system, which moves the model's world on:
 * - while generating (vs-lifecycle.ts), a recorder: predict, keep the step (fc.modelRun);
 * - on the database (checkCase), the case transaction: predict, send, compare, throw
 *   CaseMismatch on disagreement (fc.asyncModelRun).
 */
import fc from 'fast-check';
import type { Caller } from '../../../engine/model/caller.ts';
import type { Json, Row } from '../../../engine/model/json.ts';
import type { Returning } from '../../../engine/model/request.ts';
import type { ModelSettings } from '../model/settings.ts';
import { rowsOf, type World } from '../../../engine/model/world.ts';
import { patchTicket, readPaths, rpc, step } from '../generators/vs-requests.ts';
import { VS_DELETED_AT } from '../generators/vs-world.ts';
import type { DataStep } from '../../../engine/runner/data-case.ts';

/** Who is in a lifecycle world: a key per caller (see vs-lifecycle.ts `lifecycleCast`). */
export type CastKey = 'sub1' | 'sub2' | 'staff' | 'vpA' | 'vpB' | 'permA' | 'nullRole' | 'anon' | 'service';
export const SUBMITTERS: readonly CastKey[] = ['sub1', 'sub2'];
export const HANDLERS: readonly CastKey[] = ['staff', 'vpA', 'vpB', 'permA'];
export const EVERYONE: readonly CastKey[] = ['sub1', 'sub2', 'staff', 'vpA', 'vpB', 'permA', 'nullRole', 'anon', 'service'];

export interface LifecycleModel {
  world: World;
  settings: ModelSettings;
  callers: Record<CastKey, Caller>;
  /** Ticket ids, fixed up front: the world's tickets and the ones submissions will use, in order. */
  ids: readonly string[];
  /** The ticket the latest command named (index 0 of the next one names it again). */
  last?: string;
}

/**
 * The system the steps go to; `send` moves `model.world` on to the world after the step,
 * synchronously (the recorder) or once the database has answered (a promise).
 */
export interface LifecycleReal {
  send(step: DataStep, model: LifecycleModel): Promise<void> | void;
}

export type LifecycleCommand = fc.AsyncCommand<LifecycleModel, LifecycleReal>;

const tickets = (m: LifecycleModel) => rowsOf(m.world, 'vs_tickets');
/**
 * The ticket a command's index names, among the tickets the world has now (deleted ones too):
 * 0 is the one the latest command named (so "publish, delete it, read it again" is common),
 * k the k-th. It becomes the latest.
 */
function ticketAt(m: LifecycleModel, k: number): Row {
  const all = tickets(m);
  const t = (k === 0 && all.find((x) => x.id === m.last)) || all[k % all.length];
  m.last = String(t.id);
  return t;
}
const haveTickets = (m: Readonly<LifecycleModel>) => rowsOf(m.world, 'vs_tickets').length > 0;
const otherDept = (m: LifecycleModel, dept: Json | undefined) => m.settings.departments.find((d) => d !== dept) ?? m.settings.departments[0];
/** A caller whose users row is the ticket's submitter (when the cast has them). */
function submitterOf(m: LifecycleModel, t: Row): Caller {
  const found = (Object.keys(m.callers) as CastKey[]).find((k) => {
    const c = m.callers[k];
    return c.kind === 'user' && c.id === t.submitter_id;
  });
  return m.callers[found ?? 'sub1'];
}

abstract class Base implements LifecycleCommand {
  abstract steps(m: LifecycleModel): DataStep[];
  check(m: Readonly<LifecycleModel>): boolean {
    return haveTickets(m);
  }
  /**
   * Sends the command's steps in order. Not async: when the real system answers synchronously
   * (the recorder), every step is sent before run returns, as fc.modelRun needs.
   */
  run(m: LifecycleModel, r: LifecycleReal): Promise<void> {
    const steps = this.steps(m);
    const from = (i: number): Promise<void> | void => {
      for (; i < steps.length; i++) {
        const sent = r.send(steps[i], m);
        if (sent) return sent.then(() => from(i + 1));
      }
    };
    return from(0) ?? Promise.resolve();
  }
}

/** POST vs_tickets: a new ticket under the next unused id, as the caller's own (or forged as another's). */
/** Staff-owned values a submitter may try to set already when filing (rule 3 at insert time). */
const INSERT_PRESETS: readonly Row[] = [
  { is_public: true },
  { public_title: 'Library wifi down' },
  { status: 'closed' },
  { tags: ['urgent'] },
  { duplicate_of: 'VS-9999' },
  { remarks: [{ vis: 'ticket', by: 'Student sub1', text: 'filed with a remark' }] },
  { public_comments: [{ by: 'anon', text: 'me too' }] },
  { deleted_at: '2026-01-01T00:00:00+00:00' },
];

export class Submit extends Base {
  constructor(
    readonly who: CastKey,
    readonly dept: number,
    readonly category: string | null,
    readonly returning: Returning,
    readonly forged: boolean,
    /** Index into INSERT_PRESETS, or null for a plain submission. */
    readonly preset: number | null = null,
  ) {
    super();
  }
  private nextId(m: Readonly<LifecycleModel>): string | undefined {
    const used = new Set(rowsOf(m.world, 'vs_tickets').map((t) => t.id));
    return m.ids.find((id) => !used.has(id));
  }
  check(m: Readonly<LifecycleModel>): boolean {
    return this.nextId(m) !== undefined;
  }
  steps(m: LifecycleModel): DataStep[] {
    const caller = m.callers[this.who];
    const other = m.callers[this.who === 'sub1' ? 'sub2' : 'sub1'];
    const owner = this.forged ? other : caller;
    const id = this.nextId(m)!;
    m.last = id;
    const row: Row = {
      id,
      submitter_id: owner.kind === 'user' ? owner.id : null,
      submitter_label: `Student ${this.who}`,
      target_dept: m.settings.departments[this.dept % m.settings.departments.length],
      category: this.category,
      report: 'The wifi in the library drops every evening.',
      ...(this.preset === null ? {} : INSERT_PRESETS[this.preset % INSERT_PRESETS.length]),
    };
    return [step(caller, { kind: 'insert', table: 'vs_tickets', rows: [row], returning: this.returning })];
  }
  toString(): string {
    const preset = this.preset === null ? '' : `, with ${Object.keys(INSERT_PRESETS[this.preset % INSERT_PRESETS.length])[0]}`;
    return `submit(${this.who}${this.forged ? ' as other' : ''}, dept ${this.dept}, ${this.category}, ${this.returning}${preset})`;
  }
}

export type SubmitterChange = 'remark' | 'bad-remark' | 'staff-field' | 'deleted_at';
const STAFF_FIELDS = ['is_public', 'public_title', 'category', 'status', 'target_dept', 'tags', 'duplicate_of'] as const;

/** PATCH by the ticket's submitter (or, sometimes, by another person): append a remark or touch a staff field. */
export class SubmitterUpdate extends Base {
  constructor(readonly target: number, readonly change: SubmitterChange, readonly field: number, readonly returning: Returning, readonly stranger: boolean) {
    super();
  }
  steps(m: LifecycleModel): DataStep[] {
    const t = ticketAt(m, this.target);
    const caller = this.stranger ? m.callers[submitterOf(m, t) === m.callers.sub1 ? 'sub2' : 'sub1'] : submitterOf(m, t);
    const remarks = Array.isArray(t.remarks) ? t.remarks : [];
    let patch: Row;
    if (this.change === 'remark') patch = { remarks: [...remarks, { vis: 'ticket', by: t.submitter_label ?? null, text: 'Still broken today.' }] };
    else if (this.change === 'bad-remark') patch = { remarks: [...remarks, { vis: 'staff', by: 'staff', internal: true, text: `duplicate of ${m.ids[0]}` }] };
    else if (this.change === 'deleted_at') patch = { deleted_at: VS_DELETED_AT };
    else patch = { [STAFF_FIELDS[this.field % STAFF_FIELDS.length]]: staffValue(m, t, STAFF_FIELDS[this.field % STAFF_FIELDS.length]) };
    return [step(caller, patchTicket(t.id, patch, this.returning))];
  }
  toString(): string {
    return `submitterUpdate(#${this.target}, ${this.change}${this.change === 'staff-field' ? ` ${STAFF_FIELDS[this.field % STAFF_FIELDS.length]}` : ''}${this.stranger ? ', stranger' : ''})`;
  }
}

function staffValue(m: LifecycleModel, t: Row, column: (typeof STAFF_FIELDS)[number]): Json {
  switch (column) {
    case 'is_public':
      return !t.is_public;
    case 'public_title':
      return 'Wifi drops in the evening';
    case 'category':
      return t.category === 'wifi' ? 'gone' : 'wifi';
    case 'status':
      return t.status === 'resolved' ? 'in_progress' : 'resolved';
    case 'target_dept':
      return otherDept(m, t.target_dept);
    case 'tags':
      return ['urgent'];
    case 'duplicate_of':
      return m.ids.find((id) => id !== t.id) ?? null;
  }
}

/** PATCH by a handler (or whoever): change a staff field, append a staff remark, or move the ticket out of scope (rule 6). */
export class HandlerUpdate extends Base {
  constructor(readonly who: CastKey, readonly target: number, readonly field: number, readonly returning: Returning) {
    super();
  }
  steps(m: LifecycleModel): DataStep[] {
    const t = ticketAt(m, this.target);
    const column = HANDLER_FIELDS[this.field % HANDLER_FIELDS.length];
    const patch: Row =
      column === 'remarks'
        ? { remarks: [...(Array.isArray(t.remarks) ? t.remarks : []), { vis: 'staff', by: 'staff', internal: true, text: 'Checked the access point.' }] }
        : { [column]: staffValue(m, t, column) };
    return [step(m.callers[this.who], patchTicket(t.id, patch, this.returning))];
  }
  toString(): string {
    return `handlerUpdate(${this.who}, #${this.target}, ${HANDLER_FIELDS[this.field % HANDLER_FIELDS.length]})`;
  }
}
const HANDLER_FIELDS = ['status', 'tags', 'remarks', 'target_dept', 'category', 'public_title'] as const;

const DESTINATIONS: readonly (string | null)[] = ['', '  ', null];

/** vs_transfer_dept: to the other of the two main departments, any department, or a blank/null destination. */
export class Transfer extends Base {
  constructor(readonly who: CastKey, readonly target: number, readonly dest: number, readonly timeline: boolean) {
    super();
  }
  steps(m: LifecycleModel): DataStep[] {
    const t = ticketAt(m, this.target);
    const all = [otherDept(m, t.target_dept), ...m.settings.departments];
    const p_dept = this.dest < all.length ? all[this.dest] : DESTINATIONS[(this.dest - all.length) % DESTINATIONS.length];
    const p_remarks: Json = this.timeline ? [{ vis: 'staff', by: 'staff', internal: true, text: `moved from ${String(t.target_dept)}` }] : [];
    return [step(m.callers[this.who], rpc('vs_transfer_dept', { p_id: t.id, p_dept, p_remarks }))];
  }
  toString(): string {
    return `transfer(${this.who}, #${this.target}, dest ${this.dest})`;
  }
}

/** vs_set_public: publish with a staff headline (or a blank one), or unpublish. */
export class Publish extends Base {
  constructor(readonly who: CastKey, readonly target: number, readonly publish: boolean, readonly title: string | null) {
    super();
  }
  steps(m: LifecycleModel): DataStep[] {
    const t = ticketAt(m, this.target);
    return [step(m.callers[this.who], rpc('vs_set_public', { p_id: t.id, p_public: this.publish, p_title: this.title }))];
  }
  toString(): string {
    return `publish(${this.who}, #${this.target}, ${this.publish}, ${JSON.stringify(this.title)})`;
  }
}

/** merge_vs_tickets: ticket #duplicate into ticket #primary. */
export class Merge extends Base {
  constructor(readonly who: CastKey, readonly duplicate: number, readonly primary: number) {
    super();
  }
  steps(m: LifecycleModel): DataStep[] {
    // The primary is another ticket than the duplicate whenever the world has two; the duplicate stays the latest.
    const d = ticketAt(m, this.duplicate);
    // Mostly one of the same department (a merge that can succeed), else any other ticket.
    const others = tickets(m).filter((t) => t.id !== d.id);
    const same = others.filter((t) => t.target_dept === d.target_dept);
    const pool = this.primary % 3 !== 0 && same.length ? same : others;
    const p = pool.length ? pool[this.primary % pool.length] : d;
    return [step(m.callers[this.who], rpc('merge_vs_tickets', { p_duplicate: d.id, p_primary: p.id }))];
  }
  toString(): string {
    return `merge(${this.who}, #${this.duplicate} into #${this.primary})`;
  }
}

/** soft_delete_vs_ticket, or a direct PATCH of deleted_at (set, or cleared: only the server context may). */
export class SoftDelete extends Base {
  constructor(readonly who: CastKey, readonly target: number, readonly how: 'function' | 'patch' | 'undelete', readonly returning: Returning) {
    super();
  }
  steps(m: LifecycleModel): DataStep[] {
    const t = ticketAt(m, this.target);
    const caller = m.callers[this.who];
    if (this.how === 'function') return [step(caller, rpc('soft_delete_vs_ticket', { p_id: t.id }))];
    return [step(caller, patchTicket(t.id, { deleted_at: this.how === 'patch' ? VS_DELETED_AT : null }, this.returning))];
  }
  toString(): string {
    return `softDelete(${this.who}, #${this.target}, ${this.how})`;
  }
}

/** Read ticket #target again as `who`: on one read path, or on every one of them. */
export class Read extends Base {
  constructor(readonly who: CastKey, readonly target: number, readonly path: number | 'all') {
    super();
  }
  steps(m: LifecycleModel): DataStep[] {
    const paths = readPaths(m.settings, ticketAt(m, this.target));
    const chosen = this.path === 'all' ? paths : [paths[this.path % paths.length]];
    return chosen.map((q) => step(m.callers[this.who], q));
  }
  toString(): string {
    return `read(${this.who}, #${this.target}, ${this.path})`;
  }
}

const pick = (keys: readonly CastKey[]) => fc.constantFrom(...keys);
/** Mostly a handler; sometimes anyone (a submitter, the null role, anon, the server). */
const handler = fc.oneof({ weight: 3, arbitrary: fc.constant<CastKey>('staff') }, { weight: 3, arbitrary: pick(HANDLERS) }, { weight: 1, arbitrary: pick(EVERYONE) });
const anyone = pick(EVERYONE);
/** Which ticket: often the latest one named (0), else an index into the world's tickets. */
const index = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.nat({ max: 3 }) });
const returning = fc.constantFrom<Returning>('representation', 'minimal');
const sometimes = fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });

/** The command arbitraries, weighted by repetition (fc.commands draws one of them uniformly). */
export function lifecycleCommandArbs(): fc.Arbitrary<LifecycleCommand>[] {
  const submit = fc
    .tuple(
      fc.oneof({ weight: 4, arbitrary: pick(SUBMITTERS) }, { weight: 1, arbitrary: anyone }),
      fc.nat({ max: 2 }),
      fc.oneof({ weight: 4, arbitrary: fc.constant<string | null>('wifi') }, { weight: 1, arbitrary: fc.constantFrom<string | null>('dorm', 'gone', null) }),
      returning,
      sometimes,
      fc.option(fc.nat({ max: INSERT_PRESETS.length - 1 }), { nil: null, freq: 2 }),
    )
    .map(([who, dept, category, ret, forged, preset]) => new Submit(who, dept, category, ret, forged, preset));
  const submitterUpdate = fc
    .tuple(index, fc.constantFrom<SubmitterChange>('remark', 'remark', 'bad-remark', 'staff-field', 'staff-field', 'deleted_at'), fc.nat({ max: 6 }), returning, sometimes)
    .map(([t, change, field, ret, stranger]) => new SubmitterUpdate(t, change, field, ret, stranger));
  const handlerUpdate = fc.tuple(handler, index, fc.nat({ max: 5 }), returning).map(([who, t, field, ret]) => new HandlerUpdate(who, t, field, ret));
  const transfer = fc.tuple(handler, index, fc.nat({ max: 8 }), fc.boolean()).map(([who, t, dest, timeline]) => new Transfer(who, t, dest, timeline));
  const publish = fc
    .tuple(handler, index, fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }), fc.oneof({ weight: 5, arbitrary: fc.constant('Wifi drops in the evening') }, { weight: 1, arbitrary: fc.constantFrom<string | null>('', '  ', null) }))
    .map(([who, t, p, title]) => new Publish(who, t, p, title));
  const merge = fc.tuple(handler, index, fc.nat({ max: 5 })).map(([who, d, p]) => new Merge(who, d, p));
  const softDelete = fc
    .tuple(fc.oneof({ weight: 3, arbitrary: handler }, { weight: 1, arbitrary: anyone }), index, fc.constantFrom<SoftDelete['how']>('function', 'function', 'function', 'patch', 'undelete'), returning)
    .map(([who, t, how, ret]) => new SoftDelete(who, t, how, ret));
  // Mostly one read path: a read of all seven is seven requests, and one path per read command still takes every path often.
  const read = fc.tuple(anyone, index, fc.oneof({ weight: 1, arbitrary: fc.constant<'all'>('all') }, { weight: 3, arbitrary: fc.nat({ max: 6 }) })).map(([who, t, path]) => new Read(who, t, path));
  return [submit, submitterUpdate, handlerUpdate, transfer, publish, publish, publish, merge, merge, softDelete, softDelete, read, read, read, read];
}
