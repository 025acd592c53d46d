/**
 * settings.users.notNullColumns: a target holding users.role (or display_name) NOT NULL cannot
 * store a users row with a null there, so every case drawing one was dropped (97–99% of R04, R08
 * and R11's on a stranger's schema, docs/real-world.md). With the setting, no rule's world holds
 * such a row; without it, the worlds are drawn as they always were.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../engine/model/json.ts';
import type { DataCase } from '../../../engine/runner/data-case.ts';
import { dataProperties } from '../properties.ts';
import { defaultSettings, ModelSettingsSchema } from '../model/settings.ts';

const NOT_NULL = ['role', 'display_name'] as const;
const held = ModelSettingsSchema.parse({ users: { notNullColumns: [...NOT_NULL] } });
const SAMPLES = 40;

const usersRows = (cases: DataCase[]): Row[] => cases.flatMap((c) => c.world.users ?? []);
const nullIn = (rows: Row[], column: string) => rows.filter((r) => column in r && r[column] === null).length;

describe('users.notNullColumns: worlds drawn among those the target can hold', () => {
  it.each(dataProperties.map((p) => [p.id, p] as const))('%s draws no users row with a null role or display_name under the setting', (_id, property) => {
    const rows = usersRows(fc.sample(property.cases(held), { seed: 7, numRuns: SAMPLES }));
    for (const column of NOT_NULL) expect({ column, nulls: nullIn(rows, column) }).toEqual({ column, nulls: 0 });
  });

  it('without the setting the reference still draws users with no role (the spec\'s callers with a null role)', () => {
    const rows = dataProperties.flatMap((p) => usersRows(fc.sample(p.cases(defaultSettings), { seed: 7, numRuns: SAMPLES })));
    expect(nullIn(rows, 'role')).toBeGreaterThan(0);
    expect(nullIn(rows, 'display_name')).toBeGreaterThan(0);
  });

  it('the same seed draws the same cases under the setting', () => {
    const R08 = dataProperties.find((p) => p.id === 'R08')!;
    expect(JSON.stringify(fc.sample(R08.cases(held), { seed: 3, numRuns: 10 }))).toBe(JSON.stringify(fc.sample(R08.cases(held), { seed: 3, numRuns: 10 })));
  });
});
