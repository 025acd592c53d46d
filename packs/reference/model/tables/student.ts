/**
 * Student records and change requests (spec §2; rule 18). Both are admin-only tables: a student
 * sees their own record and the admin's verdict, note and applied_value only through
 * get_my_student_record (model/functions/student.ts). A student record is also the person of
 * the person model (model/functions/identity.ts); its e-mail is unique as lower(trim(email)).
 */
import { currentUserIsAdmin } from '../identity.ts';
import type { TableModel } from '../../../../engine/model/table-model.ts';

const admin = (_row: unknown, ctx: Parameters<typeof currentUserIsAdmin>[0]) => currentUserIsAdmin(ctx);

export const studentRecordsTable: TableModel = {
  table: 'student_records',
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'email', type: 'text', nullable: false, format: 'email' },
    { name: 'student_id', type: 'text', nullable: false },
    { name: 'full_name', type: 'text', nullable: false },
    { name: 'year', type: 'integer', nullable: true, default: null },
    { name: 'major', type: 'text', nullable: true, default: null },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select'] },
  rowSecurity: true,
  rules: { select: admin },
};

export const studentChangeRequestsTable: TableModel = {
  table: 'student_change_requests',
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'student_record_id', type: 'uuid', nullable: false },
    { name: 'field', type: 'text', nullable: false },
    { name: 'requested_value', type: 'text', nullable: true, default: null },
    { name: 'status', type: 'text', nullable: false, default: 'pending', check: (v, s) => typeof v === 'string' && s.students.statuses.includes(v) },
    { name: 'admin_note', type: 'text', nullable: true, default: null },
    { name: 'applied_value', type: 'text', nullable: true, default: null },
    // Fixtures always set it; the API never returns it unmasked through the function.
    { name: 'created_at', type: 'timestamptz', nullable: false, serverAssigned: true },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select', 'insert', 'update', 'delete'] },
  rowSecurity: true,
  rules: { select: admin, insertCheck: admin, updateUsing: admin, updateCheck: admin, deleteUsing: admin },
};

export const studentTables: TableModel[] = [studentRecordsTable, studentChangeRequestsTable];
