/**
 * holdsSecondTenant is asked before every step a signed-in caller sends (predict-across-tenants.ts)
 * and again by the fixtures: of worlds that share every table the steps did not write. Each table's
 * rows are read through once, not once per question (pure, no database).
 */
import { describe, expect, it } from 'vitest';
import type { Row } from '../model/json.ts';
import type { World } from '../model/world.ts';
import { withRows } from '../model/world.ts';
import { holdsSecondTenant, splitByTenant } from './second-tenant.ts';

/** A row whose every value read is counted (holdsSecondTenant reads each value of each row). */
function countedRow(values: Row, reads: { n: number }): Row {
  const row: Row = {};
  for (const [k, v] of Object.entries(values)) {
    Object.defineProperty(row, k, {
      enumerable: true,
      get: () => {
        reads.n++;
        return v;
      },
    });
  }
  return row;
}

describe('holdsSecondTenant reads each table’s rows once, across the worlds that share them', () => {
  it('a world after a step that wrote one table: only the new rows are read', () => {
    const reads = { n: 0 };
    const users = Array.from({ length: 20 }, (_, i) => countedRow({ id: `0000000${i % 10}-0000-4000-8000-00000000000${i % 10}`, email: `u${i}@example.com` }, reads));
    const before: World = { users, 'auth.users': [{ id: '00000001-0000-4000-8000-000000000001' }] };
    expect(holdsSecondTenant(before)).toBe(false);
    const first = reads.n;
    expect(first).toBeGreaterThan(0);
    // The same world asked again (the next step's read): nothing read again.
    expect(holdsSecondTenant(before)).toBe(false);
    // A step that wrote auth.users: users' rows are the same array, not read again.
    const after = withRows(before, 'auth.users', [{ id: '00000002-0000-4000-8000-000000000002' }]);
    expect(holdsSecondTenant(after)).toBe(false);
    expect(reads.n).toBe(first);
  });

  it('a new array holding the copy’s row is found, whatever was asked of the arrays before it', () => {
    const mine: Row[] = [{ id: '00000001-0000-4000-8000-000000000001', email: 'a@example.com' }];
    const world: World = { users: mine };
    expect(holdsSecondTenant(world)).toBe(false);
    const copy: Row = { id: '5ec07e2a-0000-4000-8000-000000000001', email: 'a.t2@example.com' };
    const both = withRows(world, 'users', [...mine, copy]);
    expect(holdsSecondTenant(both)).toBe(true);
    expect(splitByTenant(both).second).toEqual({ users: [copy] });
    expect(holdsSecondTenant(world)).toBe(false);
  });
});
