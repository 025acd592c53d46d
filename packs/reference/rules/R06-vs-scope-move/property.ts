/**
 * R06 — an UPDATE that moves a ticket out of the writer's own SELECT scope (target_dept away
 * from a dept-scoped handler's department) fails with 42501; vs_transfer_dept is the way.
 * Cases: a VS world with many handlers (vp_admin, permission-only handlers, unrestricted ones)
 * in overlapping departments; a caller PATCHes a ticket's target_dept (with status, tags or a
 * remark) — by id, or unfiltered with return=minimal so only WITH CHECK stands between the
 * handler and the move — or transfers it with vs_transfer_dept, then reads tickets again.
 */
import fc from 'fast-check';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { patchTicket, returning, rpc, selectTickets, step, ticketPatch } from '../../generators/vs-requests.ts';
import { handlerCaller, vsWorld, vsWorldOf } from '../../generators/vs-world.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';

const unfiltered = (dept: string): ApiRequest => ({ kind: 'update', table: 'vs_tickets', patch: { target_dept: dept }, filters: [], returning: 'minimal' });

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
        ticketPatch(settings, t, w, ['status', 'tags', 'remarks'], ['target_dept']).map((patch): DataCase => {
          // An unfiltered PATCH with return=minimal reads no column, so only WITH CHECK guards the new row.
          const move =
            transfer === 0
              ? rpc('vs_transfer_dept', { p_id: t.id, p_dept: dept, p_remarks: [{ vis: 'staff', by: 'staff', internal: true, text: `moved to ${dept}` }] })
              : transfer <= 2
                ? unfiltered(dept)
                : patchTicket(t.id, patch, ret);
          return { world: vsWorldOf(w), steps: [step(caller, move), step(caller, selectTickets())] };
        }),
      ),
  );
}

export const R06: DataProperty = {
  id: 'R06',
  rule: 6,
  title: 'vs_tickets: an update moving a ticket out of the handler’s scope fails with 42501; transfers go through vs_transfer_dept',
  tables: ['vs_tickets'],
  functions: ['vs_transfer_dept'],
  cases,
};
