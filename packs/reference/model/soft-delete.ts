/**
 * Rule 7: a soft-deleted ticket (deleted_at set) is gone for every reader and writer except the
 * soft-delete functions. One predicate, so every table and function model reads "live" the same way.
 */
import { decide } from './branches.ts';

/** Not soft-deleted: deleted_at is null (or absent, which the column's default makes null). */
export const notDeleted = (row: { deleted_at?: unknown }): boolean => decide((row.deleted_at ?? null) === null, 'R07.deleted-at.null', 'R07.deleted-at.set');
