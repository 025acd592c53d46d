/**
 * Reads by a role granted SELECT on some columns only (`revoke select on vs_tickets from
 * authenticated; grant select (id, title, …) on vs_tickets to authenticated`, rule 12's column
 * allow-list). PostgREST v12.2 reads `select=*` (and no `select=`, QueryParams.hs: `fromMaybe "*"`)
 * as `"s"."t".*`, which Postgres expands to every column and refuses (42501, "permission denied
 * for table") where one of them is not granted; a supabase-js client of such an app names its
 * columns (`.select('id,title')`). So a request the model's grants give the caller's role no
 * table-level SELECT on, but some columns of (`grants.columnSelect`, model names), reads those
 * columns: the model compares them, and a column it names that the target does not grant is
 * still refused (a missing grant the model requires fails). A write's RETURNING
 * (`return=representation`) likewise.
 *
 * A request marked `wholeRow` is sent as drawn (`select=*`): the probe of a whole-row read (R16),
 * whose refusal is a finding only where the model grants the role table-level SELECT.
 */
import { apiRoleOf, type Caller } from './caller.ts';
import { grantsOf, type TableModel } from './table-model.ts';
import { targetName, type ApiRequest } from './request.ts';

/**
 * `request` as `caller`'s client sends it: a whole-row read or RETURNING narrowed to the columns
 * `caller`'s role may select, where the model grants it those only; else `request` itself (the
 * same object). `absent`: model columns the target does not have (mapped to null), left out.
 */
export function readingGrantedColumns(tables: Readonly<Record<string, TableModel>>, settings: unknown, caller: Caller, request: ApiRequest, absent: (table: string, column: string) => boolean = () => false): ApiRequest {
  if (request.kind === 'rpc') return request;
  const whole = request.kind === 'select' ? request.columns === '*' && !request.wholeRow : request.returning !== 'minimal' && (!request.columns || request.columns.includes('*'));
  if (!whole) return request;
  const role = apiRoleOf(caller);
  const model = tables[targetName(request)];
  if (!model || role === 'service_role') return request;
  const grants = grantsOf(model, settings);
  const granted = grants.columnSelect?.[role];
  if (grants[role].includes('select') || !granted?.length) return request;
  const columns = model.columns.map((c) => c.name).filter((c) => granted.includes(c) && !absent(model.table, c));
  if (!columns.length) return request;
  return { ...request, columns };
}
