/**
 * A world row naming a parent the world lacks, through a nullable foreign key declared
 * `on delete set null`: the target cannot hold the dangling value, but it holds the very state the
 * target's own action leaves when that parent is deleted, the reference null. The case is taken
 * in that state (both the model and the target then see the null), rather than dropped: a ticket
 * whose category was deleted is a ticket with no category on this target (rule 8's unresolvable
 * category reads a null as unresolvable too). A NOT NULL, restricting or cascading key keeps
 * dropping its case (realizable.ts). World rows only: a step's write is judged as sent. Pure.
 */
import type { Json, Row } from '../model/json.ts';
import type { World } from '../model/world.ts';
import { keyFoldsCase, type ColumnShape, type TableShapes } from '../introspection/table-shapes.ts';
import { targetColumn, targetTable, type TargetMapping } from '../mapping/mapping.ts';

/** A key as the parent's column compares it: case folded only where its type does (citext, uuid); `WIFI` is no `wifi` in text. */
const keyOf = (v: Json, foldsCase: boolean) => (typeof v === 'string' ? (foldsCase ? v.toLowerCase() : v) : JSON.stringify(v));

/** The model table (a key of the world, or the mapping's) whose target table is `onTarget`. */
function modelTableOf(world: World, mapping: TargetMapping | undefined, onTarget: string): string {
  const named = (t: string) => (mapping ? targetTable(mapping, t) : t) === onTarget;
  return Object.keys(world).find(named) ?? Object.keys(mapping?.tables ?? {}).find(named) ?? onTarget;
}

/**
 * Per catalog table (the plan's, made once): whether it has a nullable `on delete set null` key.
 * Asked for every table of every case; most have none, and their rows are not looked at.
 */
const holdsSetNullKey = new WeakMap<readonly ColumnShape[], boolean>();

function hasSetNullKey(columns: readonly ColumnShape[]): boolean {
  let holds = holdsSetNullKey.get(columns);
  if (holds === undefined) holdsSetNullKey.set(columns, (holds = columns.some((c) => c.references?.onDelete === 'set null' && !c.notNull)));
  return holds;
}

/** `world` (model names) with each dangling `on delete set null` reference of its rows made null; the same world when none dangles. */
export function danglingSetNullCleared(world: World, shapes: TableShapes, mapping?: TargetMapping): World {
  let out: World | undefined;
  for (const [table, rows] of Object.entries(world)) {
    const columns = rows.length ? shapes.get(mapping ? targetTable(mapping, table) : table) : undefined;
    if (!columns || !hasSetNullKey(columns)) continue;
    for (const name of new Set(rows.flatMap((r) => Object.keys(r)))) {
      const onTarget = mapping ? targetColumn(mapping, table, name) : name;
      const ref = onTarget ? columns.find((c) => c.name === onTarget) : undefined;
      if (!ref?.references || ref.references.onDelete !== 'set null' || ref.notNull) continue;
      const parent = modelTableOf(world, mapping, ref.references.table);
      const parentColumn = (row: Row) => Object.keys(row).find((k) => (mapping ? targetColumn(mapping, parent, k) : k) === ref.references!.column);
      const folds = keyFoldsCase(shapes.get(ref.references.table)?.find((c) => c.name === ref.references!.column)?.type ?? '');
      const held = new Set((world[parent] ?? []).flatMap((p) => {
        const k = parentColumn(p);
        return k !== undefined && p[k] !== null && p[k] !== undefined ? [keyOf(p[k], folds)] : [];
      }));
      const current = (out ?? world)[table];
      if (!current.some((r) => r[name] !== null && r[name] !== undefined && !held.has(keyOf(r[name], folds)))) continue;
      out = { ...(out ?? world), [table]: current.map((r) => (r[name] !== null && r[name] !== undefined && !held.has(keyOf(r[name], folds)) ? { ...r, [name]: null } : r)) };
    }
  }
  return out ?? world;
}
