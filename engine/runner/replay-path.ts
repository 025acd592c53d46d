/**
 * A finding's replay path (`--seed S --path P`): fast-check's path in its lane (run index, then
 * shrink steps), prefixed with the lane's place among the run's lanes where that decides what
 * the lane drew (a sweep spread over the lanes, guided.ts sweepOrder), since a replay runs that
 * one lane alone.
 */
import type { DataProperty } from './data-property.ts';

/** A lane's place among the run's lanes (all shards' together): lane `lane` of `lanes`. */
export interface LanePlace {
  lane: number;
  lanes: number;
}

/** A run of one lane (and a sample outside a run). */
export const ONLY_LANE: LanePlace = { lane: 0, lanes: 1 };

/**
 * A finding's replay path: fast-check's, prefixed `lane/lanes/` where the lane's place decides what
 * it drew (a sweep over several lanes, sweepOrder), since a replay runs one lane alone.
 */
export function pathWithPlace(path: string, place: LanePlace, property: Pick<DataProperty, 'sweep'>): string {
  return place.lanes > 1 && property.sweep?.length ? `${place.lane}/${place.lanes}/${path}` : path;
}

/** A replay path's lane place (ONLY_LANE when it names none) and fast-check's path; undefined when malformed. */
export function placeOfPath(path: string): { place: LanePlace; path: string } | undefined {
  const m = /^(?:(\d+)\/(\d+)\/)?(\d+(?::\d+)*)$/.exec(path);
  if (!m) return undefined;
  const place = m[1] === undefined ? ONLY_LANE : { lane: Number(m[1]), lanes: Number(m[2]) };
  return place.lane < place.lanes ? { place, path: m[3] } : undefined;
}

/** The run of its lane a replay path names (what orders findings by when they were made). */
export function runOfPath(path: string): number {
  return Number((placeOfPath(path)?.path ?? path).split(':')[0]) || 0;
}
