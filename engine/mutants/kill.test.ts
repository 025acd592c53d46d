import { describe, expect, it } from 'vitest';
import { judgedAndHeld, headerFirst } from './kill.ts';

const listed = ['R01', 'R03', 'R08', 'R13', 'R16'].map((id) => ({ id }));
const ids = (ps: { id: string }[]) => ps.map((p) => p.id);

describe('headerFirst', () => {
  it("runs only the header's properties, in the header's order, not the list's", () => {
    expect(ids(headerFirst(listed, ['R13', 'R08']))).toEqual(['R13', 'R08']);
    expect(ids(headerFirst(listed, ['R03', 'R01', 'R03']))).toEqual(['R03', 'R01']);
  });

  it('with all, puts the named ones first and the rest after in list order', () => {
    expect(ids(headerFirst(listed, ['R16', 'R03'], true))).toEqual(['R16', 'R03', 'R01', 'R08', 'R13']);
  });

  it('a rule the list does not hold is skipped', () => {
    expect(ids(headerFirst(listed, ['R99', 'R08']))).toEqual(['R08']);
  });
});

describe('judgedAndHeld: the only ground for a survivor', () => {
  it('a property that ran its cases and held (all, or a budget’s share); never one that was not reached, not applicable, dropped every case or erred (a catalog check not applicable listed SURVIVED before)', () => {
    expect(['passed', 'partial'].every((s) => judgedAndHeld(s as never))).toBe(true);
    expect(['not-reached', 'not-applicable', 'no-verdict', 'error', 'failed'].some((s) => judgedAndHeld(s as never))).toBe(false);
  });
});
