/**
 * A model column the mapping says the target does not have (`null`) cannot hold the world's
 * values: fixtures leave it out. Where it is a list the model keeps on the row and the target keeps
 * elsewhere (stranger-app-5's public comments in their own table, `vs_tickets.public_comments`
 * mapped to null), the world's entries never reach the target, yet the model answered them
 * (`get_public_vs_problem`'s comments, R07, R13). The case is taken with such a column at the
 * model's default (an empty list), as the target holds the row; what a step adds (a comment
 * posted) is predicted as before. Only jsonb and array columns with a default: a scalar's value
 * may be what a rule compares (a label).
 *
 * So too a state the server stamps (`serverAssigned`, nullable, default null: `deleted_at`):
 * stranger-app-9 hides `deleted_at` behind its views and soft-deletes by rpc, so a world's deleted
 * ticket was written live while the model took it as deleted (R01, R03, R06, R09, R14 "model 0,
 * database 1"). The case is taken with such a column at null, the row as the target holds it; a
 * step that stamps it (a soft delete by rpc) is predicted as before. Pure.
 */
import type { ApiRequest } from '../model/request.ts';
import { targetName } from '../model/request.ts';
import type { World } from '../model/world.ts';
import type { PackModel } from '../pack.ts';
import type { TargetMapping } from '../mapping/mapping.ts';

type ModelColumn = PackModel['tables'][string]['columns'][number];

/** What the target holds in a model column it does not have: a list's default, a server stamp's null; undefined where the world's value stands (a scalar a rule may compare). */
function heldWithoutColumn(spec: ModelColumn | undefined): { value: unknown } | undefined {
  if (spec && Array.isArray(spec.default) && (spec.type === 'jsonb' || spec.type.endsWith('[]'))) return { value: spec.default };
  if (spec?.serverAssigned && spec.nullable && spec.default === null) return { value: null };
  return undefined;
}

/** `world` with each model column mapped to null at what the target holds there (heldWithoutColumn); the same world when every row holds it already. */
export function nullMappedColumnsAsHeld(world: World, mapping: TargetMapping | undefined, model: Pick<PackModel, 'tables'>): World {
  let out: World | undefined;
  for (const [table, columns] of Object.entries(mapping?.tables ?? {})) {
    const rows = world[table];
    if (!rows?.length) continue;
    for (const [name, onTarget] of Object.entries(columns.columns ?? {})) {
      if (onTarget !== null) continue;
      const held = heldWithoutColumn(model.tables[table]?.columns.find((c) => c.name === name));
      if (!held) continue;
      const text = JSON.stringify(held.value);
      const holds = (r: (typeof rows)[number]) => r[name] === undefined || JSON.stringify(r[name]) === text;
      const current = (out ?? world)[table];
      if (current.every(holds)) continue;
      out = { ...(out ?? world), [table]: current.map((r) => (holds(r) ? r : { ...r, [name]: JSON.parse(text) })) };
    }
  }
  return out ?? world;
}

/**
 * An insert body's null in a column the target does not have (mapped to null), where the model's
 * default there is null too (`pr_tickets.handler_note`, `shop_orders.discount`): the body leaving it
 * out is the same insert to the model (an omitted column takes its default, engine.ts) and the only
 * one the target can take. The request was dropped whole ("names pr_tickets.handler_note, mapped to
 * null": most of R05's cases on a target without it, stranger-app-19). Left as drawn: a value
 * other than null (a rule may read it: a submitter's handler note is refused), a row of the
 * request holding one, a column the request's `columns` names, and an upsert (its merge would set
 * the column on a row the world holds). Pure; the same request when nothing is left out.
 */
export function insertWithoutNullMappedNulls(request: ApiRequest, mapping: TargetMapping | undefined, model: Pick<PackModel, 'tables'>): ApiRequest {
  if (request.kind !== 'insert' || request.upsert) return request;
  const table = targetName(request);
  const columns = mapping?.tables?.[table]?.columns;
  if (!columns) return request;
  const leftOut = Object.entries(columns)
    .filter(([name, onTarget]) => onTarget === null && !(Array.isArray(request.columns) && request.columns.includes(name)))
    .map(([name]) => name)
    .filter((name) => {
      const spec = model.tables[table]?.columns.find((c) => c.name === name);
      return spec !== undefined && !spec.generated && (spec.default ?? null) === null && request.rows.some((r) => name in r) && request.rows.every((r) => r[name] === undefined || r[name] === null);
    });
  if (!leftOut.length) return request;
  return { ...request, rows: request.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !leftOut.includes(k)))) };
}
