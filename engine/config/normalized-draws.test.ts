/**
 * Which columns `policyfuzz init` lists for a pack's normalizedDraws setting: those whose CHECK
 * (or domain CHECK) holds the sample as stored and refuses one of its case-flipped or padded forms.
 * After stranger-app-6 (`kkumail = lower(btrim(kkumail))`: R17 an ERROR, every case dropped) and
 * stranger-app-3, -5 (an e-mail domain refusing spaces: 98 and 96 drops).
 */
import { describe, expect, it } from 'vitest';
import type { ColumnShape } from '../introspection/table-shapes.ts';
import { proposeNormalizedDraws, variantRefusals } from './normalized-draws.ts';

const column = (name: string, checks: ColumnShape['checks'] = []): ColumnShape => ({ name, type: 'text', notNull: true, hasDefault: false, generated: false, unique: false, checks });
const SAMPLE = 'ann.lee@uni.ac.th';

describe('variantRefusals', () => {
  it('names a normalization and a format refusing spaces; not a format any variant fits, nor one the sample itself breaks', () => {
    expect(variantRefusals(column('kkumail', [{ kind: 'normalized', column: 'kkumail', lower: true, trim: true, constraint: 'kkumail_check' }, { kind: 'pattern', column: 'kkumail', pattern: '^[^@\\s]+@[^@\\s]+$', constraint: 'kkumail_check' }]), SAMPLE)).toEqual(['kkumail_check']);
    expect(variantRefusals(column('email', [{ kind: 'pattern', column: 'email', pattern: '^[^@[:space:]]+@[^@[:space:]]+\\.[^@[:space:]]+$', constraint: 'email_address_check' }]), SAMPLE)).toEqual(['email_address_check']);
    expect(variantRefusals(column('email', [{ kind: 'pattern', column: 'email', pattern: '@', constraint: 'has_at' }]), SAMPLE)).toEqual([]);
    expect(variantRefusals(column('email', [{ kind: 'pattern', column: 'email', pattern: '^[0-9]+$', constraint: 'digits' }]), SAMPLE)).toEqual([]);
    expect(variantRefusals(column('email'), SAMPLE)).toEqual([]);
  });
});

describe('proposeNormalizedDraws', () => {
  const draws = [
    { path: 'normalizedColumns.team_members', table: 'team_members', columns: ['email'], sample: SAMPLE },
    { path: 'normalizedColumns.student_records', table: 'student_records', columns: ['email'], sample: SAMPLE },
  ];
  const shapes = new Map([
    ['api.team_members', [column('kkumail', [{ kind: 'normalized', column: 'kkumail', lower: true, trim: true, constraint: 'team_members_kkumail_check' }])]],
    ['api.student_records', [column('email')]],
  ]);
  it('lists the mapped column whose CHECK refuses a variant, with a note naming it; leaves a column without one, or mapped to none', () => {
    const proposed = proposeNormalizedDraws(draws, (t) => `api.${t}`, (t, c) => (t === 'team_members' ? 'kkumail' : c), (t) => shapes.get(t));
    expect(proposed).toEqual([
      { path: 'normalizedColumns.team_members', columns: ['email'], note: 'model.normalizedColumns.team_members: email (a value case-flipped or padded is refused in api.team_members.kkumail by team_members_kkumail_check: drawn as stored, no variant)' },
    ]);
    expect(proposeNormalizedDraws(draws, (t) => `api.${t}`, () => null, (t) => shapes.get(t))).toEqual([]);
  });
});
