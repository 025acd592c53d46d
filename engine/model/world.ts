/**
 * The rows a case starts from (its fixtures), by table. The harness writes them as the server
 * context; the model reads them to predict. Keys are `schema.table` for tables outside public.
 */
import type { Row } from './json.ts';

export type World = Record<string, Row[]>;

export function rowsOf(world: World, table: string): Row[] {
  return world[table] ?? [];
}

export function withRows(world: World, table: string, rows: Row[]): World {
  return { ...world, [table]: rows };
}
