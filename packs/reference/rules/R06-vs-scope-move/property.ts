/**
 * R06 — an UPDATE that moves a ticket out of the writer's own SELECT scope (target_dept away
 * from a dept-scoped handler's department) fails with 42501; vs_transfer_dept is the way.
 * Cases: a VS world with many handlers (vp_admin, permission-only handlers, unrestricted ones)
 * in overlapping departments; a caller PATCHes target_dept (with status, tags or a remark), or
 * transfers with vs_transfer_dept, then reads tickets again.
 * Every PATCH carries a filter, as every PATCH Supabase accepts does (pg-safeupdate refuses the
 * rest with 21000): by id, by id and the ticket's current department, by a list of ids, or by a
 * department (several tickets moved at once). Postgres then checks the new row against the
 * SELECT policy as well as the UPDATE policy's WITH CHECK, so the bugs this catches are the ones
 * that fool both: a scope read from the stored row instead of the new one, or a scope too wide.
 * Half the PATCHes carry `Prefer: handling=strict, max-affected=n` (maxAffectedFor).
 */
import fc from 'fast-check';
import type { Filter } from '../../../../engine/model/request.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { returning, rpc, selectTickets, step, ticketPatch } from '../../generators/vs-requests.ts';
import { handlerCaller, vsWorld, vsWorldOf } from '../../generators/vs-world.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import type { Row } from '../../../../engine/model/json.ts';
import { callerUid } from '../../../../engine/model/caller.ts';
import { targetName } from '../../../../engine/model/request.ts';
import { isUnrestrictedVsHandler, isVsHandler } from '../../model/tables/vs-access.ts';
import { clause, isRpc, patchOf, readClause, sidedClause, type Step } from '../clauses.ts';

/** The filters a client would put on a scope-moving PATCH of ticket t. */
function moveFilters(t: Row, tickets: Row[]): fc.Arbitrary<Filter[]> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<Filter[]>([{ column: 'id', op: 'eq', value: t.id }]) },
    { weight: 1, arbitrary: fc.constant<Filter[]>([{ column: 'id', op: 'eq', value: t.id }, { column: 'target_dept', op: 'eq', value: t.target_dept }]) },
    { weight: 2, arbitrary: fc.subarray(tickets.map((x) => x.id), { minLength: 1 }).map((ids): Filter[] => [{ column: 'id', op: 'in', value: ids }]) },
    { weight: 2, arbitrary: fc.constant<Filter[]>([{ column: 'target_dept', op: 'eq', value: t.target_dept }]) },
  );
}

/**
 * Sometimes `Prefer: handling=strict, max-affected=n` (supabase-js `.maxAffected(n)`): n = 1, or
 * the number of tickets the filters match. A move of several tickets then lands over the limit
 * (400 PGRST124, rolled back) or within it, as the row rules let it, so the model's count of the
 * rows a PATCH really changes is compared too.
 */
const maxAffectedKind = fc.constantFrom(undefined, undefined, 'one' as const, 'all-matching' as const);

function maxAffectedFor(kind: 'one' | 'all-matching' | undefined, filters: Filter[], tickets: Row[]): number | undefined {
  if (kind !== 'all-matching') return kind && 1;
  const matching = tickets.filter((t) => filters.every((f) => (f.op === 'in' ? (f.value as unknown[]).includes(t[f.column]) : t[f.column] === f.value))).length;
  return Math.max(1, matching);
}

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  return vsWorld(settings).chain((w) =>
    fc
      .record({
        caller: handlerCaller(settings, w),
        t: fc.constantFrom(...w.tickets),
        transfer: fc.integer({ min: 0, max: 4 }),
        dept: fc.constantFrom(...settings.departments),
        ret: returning,
      })
      .chain(({ caller, t, transfer, dept, ret }) =>
        fc.tuple(ticketPatch(settings, t, w, ['status', 'tags', 'remarks'], ['target_dept']), moveFilters(t, w.tickets), maxAffectedKind).map(([patch, filters, maxKind]): DataCase => {
          const max = maxAffectedFor(maxKind, filters, w.tickets);
          const move =
            transfer === 0
              ? rpc('vs_transfer_dept', { p_id: t.id, p_dept: dept, p_remarks: [{ vis: 'staff', by: 'staff', internal: true, text: `moved to ${dept}` }] })
              : { kind: 'update' as const, table: 'vs_tickets', patch, filters, returning: ret, ...(max !== undefined ? { maxAffected: max } : {}) };
          return { world: vsWorldOf(w), steps: [step(caller, move), step(caller, selectTickets())] };
        }),
      ),
  );
}

/** A filtered PATCH of vs_tickets that sets target_dept. */
function movePatch(s: Step): boolean {
  const r = s.step.request;
  return r.kind === 'update' && targetName(r) === 'vs_tickets' && 'target_dept' in patchOf(s);
}

/** One id (filter id = …), or several tickets at once (a list of ids or a whole department). */
const byOneId = (s: Step) => s.step.request.kind === 'update' && s.step.request.filters.some((f) => f.column === 'id' && f.op === 'eq');

/** The rule's two sides of a move: rows moved, or the 42501 of a move out of the writer's scope. */
function moveSide(s: Step): 'allowed' | 'refused' | undefined {
  if (s.outcome.kind === 'allowed') return s.outcome.affected > 0 ? 'allowed' : undefined;
  return s.outcome.kind === 'rejected' ? 'refused' : undefined;
}

const deptScoped = (s: Step) => {
  const ctx = { world: s.before, caller: s.step.caller, uid: callerUid(s.step.caller), settings: s.settings };
  return isVsHandler(ctx) && !isUnrestrictedVsHandler(ctx);
};

const CLAUSES = [
  sidedClause('R06.move-one', 'a PATCH of target_dept filtered by id: moved (still in scope) / 42501 (out of the writer’s scope)', (s) =>
    movePatch(s) && byOneId(s) ? moveSide(s) : undefined,
  ),
  sidedClause('R06.move-many', 'a PATCH of target_dept filtered by a list of ids or a department: moved / 42501', (s) =>
    movePatch(s) && !byOneId(s) ? moveSide(s) : undefined,
  ),
  sidedClause('R06.dept-scoped', 'a dept-scoped handler’s PATCH of target_dept: kept in their department / 42501 (moved away)', (s) =>
    movePatch(s) && deptScoped(s) ? moveSide(s) : undefined,
  ),
  // Not sided: over the limit needs a move of several tickets the row rules allow, about 1 case in 100.
  clause('R06.max-affected', 'a PATCH sent with handling=strict, max-affected=n (within the limit, or 400 PGRST124 over it)', (s) => s.step.request.kind === 'update' && s.step.request.maxAffected !== undefined),
  clause('R06.transfer', 'vs_transfer_dept: moved by a handler in scope / refused', (s) => isRpc(s, 'vs_transfer_dept')),
  readClause('R06.read', 'vs_tickets'),
];

export const R06: DataProperty = {
  id: 'R06',
  rule: 6,
  title: 'vs_tickets: an update moving a ticket out of the handler’s scope fails with 42501; transfers go through vs_transfer_dept',
  tables: ['vs_tickets'],
  functions: ['vs_transfer_dept'],
  cases,
  clauses: CLAUSES,
};
