/**
 * identity_conflicts (spec §2; rule 17): readable by admins and by the person whose record it is
 * (person_id = my_person_id(), resolved from the auth identity through a definer helper, so the
 * rule never depends on the row rules of student_records or users).
 */
import { decide, take } from '../branches.ts';
import { currentUserIsAdmin } from '../identity.ts';
import type { TableModel } from '../../../../engine/model/table-model.ts';
import { myPersonId } from '../functions/identity.ts';

export const identityConflictsTable: TableModel = {
  table: 'identity_conflicts',
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'person_id', type: 'uuid', nullable: false },
    { name: 'kind', type: 'text', nullable: false },
    { name: 'detail', type: 'text', nullable: true, default: null },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select'] },
  rowSecurity: true,
  rules: {
    select: (row, ctx) => {
      if (currentUserIsAdmin(ctx)) return take('R17.conflict.admin'), true;
      const me = myPersonId(ctx);
      return decide(me !== null && row.person_id === me, 'R17.conflict.own', 'R17.conflict.other');
    },
  },
};
