/**
 * R19 — passport.user_tiers runs with the invoker's rights; passport.profiles is readable by its
 * owner or admins only, through the view as well as the table.
 * Cases: people of any role, profiles for some with points around the tier thresholds; anon, a
 * person or the server read the table or the view (all rows, or one user's).
 */
import fc from 'fast-check';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { passportProfiles } from '../../generators/passport.ts';
import { callerFrom, peopleRows, peopleWithRoles } from '../../generators/student.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { withReadBack } from '../../generators/read-back.ts';
import { readClause } from '../clauses.ts';
import { rolesByMeaning, firstOf } from '../../generators/roles.ts';

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  const roles = rolesByMeaning(settings);
  return peopleWithRoles(settings, [null, ...roles.plain, ...roles.plain, ...firstOf(roles.staff), ...roles.admin], 1, 4).chain((list) =>
    fc
      .record({
        profiles: passportProfiles(settings, list),
        caller: callerFrom(list),
        table: fc.constantFrom('profiles', 'user_tiers'),
        only: fc.option(fc.constantFrom(...list.map((p) => p.id)), { nil: undefined }),
      })
      .map(({ profiles, caller, table, only }): DataCase => {
        const request: ApiRequest = { kind: 'select', schema: 'passport', table, columns: '*', filters: only ? [{ column: 'user_id', op: 'eq', value: only }] : [] };
        return { world: { ...peopleRows(list), 'passport.profiles': profiles }, steps: [{ caller, request }] };
      }),
  );
}

const CLAUSES = [
  readClause('R19.read', 'passport.profiles'),
];

export const R19: DataProperty = {
  id: 'R19',
  rule: 19,
  title: 'passport: profiles readable by owner or admins only, through the invoker-rights view too',
  tables: ['passport.profiles', 'passport.user_tiers'],
  cases: (settings) => withReadBack(cases(settings), ['passport.profiles']),
  clauses: CLAUSES,
};
