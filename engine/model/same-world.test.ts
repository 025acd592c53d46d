/**
 * sameWorld (predict.ts) decides whether a call changed the world (a GET rpc's read-only refusal,
 * EXECUTE withheld, a refused call's body answer): as a canonical comparison of every table, but
 * a table both worlds hold as the same array is the same, and is not read (pure).
 */
import { describe, expect, it } from 'vitest';
import type { Row } from './json.ts';
import type { World } from './world.ts';
import { sameWorld } from './predict.ts';

/** A row whose values read are counted. */
function countedRow(values: Row, reads: { n: number }): Row {
  const row: Row = {};
  for (const [k, v] of Object.entries(values)) Object.defineProperty(row, k, { enumerable: true, get: () => (reads.n++, v) });
  return row;
}

describe('sameWorld', () => {
  it('reads only the tables the two worlds do not share as one array', () => {
    const reads = { n: 0 };
    const tickets = Array.from({ length: 50 }, (_, i) => countedRow({ id: i, title: `t${i}` }, reads));
    const before: World = { tickets, remarks: [{ id: 1, body: 'a' }] };
    expect(sameWorld(before, { ...before, remarks: [{ body: 'a', id: 1 }] })).toBe(true);
    expect(sameWorld(before, { ...before, remarks: [{ id: 1, body: 'b' }] })).toBe(false);
    expect(reads.n).toBe(0);
  });

  it('compares the rest as before: any order of rows and keys, empty tables as absent', () => {
    const a: World = { t: [{ id: 1, x: 'a' }, { id: 2, x: 'b' }], empty: [] };
    expect(sameWorld(a, { t: [{ x: 'b', id: 2 }, { id: 1, x: 'a' }] })).toBe(true);
    expect(sameWorld(a, { t: [{ id: 1, x: 'a' }] })).toBe(false);
    expect(sameWorld(a, { t: a.t, u: [{ id: 3 }] })).toBe(false);
    expect(sameWorld({ t: a.t, u: [{ id: 3 }] }, a)).toBe(false);
    expect(sameWorld({ t: [] }, {})).toBe(true);
    expect(sameWorld({ t: [{ id: 1 }] }, { u: [{ id: 1 }] })).toBe(false);
  });
});
