/**
 * Rule 7: a soft-deleted ticket (deleted_at set) is gone for every reader and writer except the
 * soft-delete functions. One predicate, so every table and function model reads "live" the same way.
 */

/** Not soft-deleted: deleted_at is null (or absent, which the column's default makes null). */
export const notDeleted = (row: { deleted_at?: unknown }): boolean => (row.deleted_at ?? null) === null;
