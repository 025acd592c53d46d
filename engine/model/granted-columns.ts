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
 * (`return=representation`) likewise, and an embedded `table(*)` (supabase-js
 * `.select('id, remarks(*)')`) of a table the role is granted some columns of only.
 *
 * A request marked `wholeRow` is sent as drawn (`select=*`): the probe of a whole-row read (R16),
 * whose refusal is a finding only where the model grants the role table-level SELECT.
 */
import { apiRoleOf, type Caller } from './caller.ts';
import { columnGrantsOf, grantsOf, privilegesOf, type TableModel } from './table-model.ts';
import { targetName, type ApiRequest, type Embed } from './request.ts';
import { embeddedTableOf } from './engine.ts';

/**
 * `request` as `caller`'s client sends it: a whole-row read or RETURNING, and each embed of a read
 * (`remarks(*)`: PostgREST v12.2 expands it to `"remarks_1".*` in the embed's subquery, refused
 * 42501 alike), narrowed to the columns `caller`'s role may select, where the model grants it
 * those only; else `request` itself (the same object). `absent`: model columns the target does
 * not have (mapped to null), left out.
 */
export function readingGrantedColumns(tables: Readonly<Record<string, TableModel>>, settings: unknown, caller: Caller, request: ApiRequest, absent: (table: string, column: string) => boolean = () => false): ApiRequest {
  if (request.kind === 'rpc' || (request.kind === 'select' && request.wholeRow)) return request;
  const role = apiRoleOf(caller);
  if (role === 'service_role') return request;
  const granted = (table: string | undefined) => (table === undefined ? undefined : grantedColumnsOnly(tables[table], settings, role, absent));
  const whole = request.kind === 'select' ? request.columns === '*' : request.returning !== 'minimal' && (!request.columns || request.columns.includes('*'));
  const columns = whole ? granted(targetName(request)) : undefined;
  const embeds = request.kind === 'select' ? narrowedEmbeds(request.embeds, (embed) => granted(embeddedTableOf(tables, request.table, embed))) : undefined;
  if (!columns && !embeds) return request;
  return { ...request, ...(columns ? { columns } : {}), ...(embeds ? { embeds } : {}) };
}

/** Each `table(*)` embed narrowed to `granted(embed)`, where that gives columns; undefined where none is. */
function narrowedEmbeds(embeds: readonly Embed[] | undefined, granted: (embed: Embed) => string[] | undefined): Embed[] | undefined {
  if (!embeds?.length) return undefined;
  let narrowed = false;
  const out = embeds.map((embed) => {
    const columns = embed.columns === '*' ? granted(embed) : undefined;
    if (!columns) return embed;
    narrowed = true;
    return { ...embed, columns };
  });
  return narrowed ? out : undefined;
}

/**
 * The columns of `model` that `role` may select where the model grants it some columns only (no
 * table-level SELECT), in the table's order, those the target lacks left out; undefined otherwise.
 */
function grantedColumnsOnly(model: TableModel | undefined, settings: unknown, role: string, absent: (table: string, column: string) => boolean): string[] | undefined {
  if (!model) return undefined;
  const grants = grantsOf(model, settings);
  const granted = columnGrantsOf(grants, role, 'columnSelect');
  if (privilegesOf(grants, role).includes('select') || !granted?.length) return undefined;
  const columns = model.columns.map((c) => c.name).filter((c) => granted.includes(c) && !absent(model.table, c));
  return columns.length ? columns : undefined;
}
