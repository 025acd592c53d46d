/**
 * R02 — users: PATCH of `role` on one's own row by a non-staff user is rejected.
 * Cases: a handful of identities (any role, none, no users row), a caller among them (or anon,
 * or the server), a PATCH of users by id — mostly the caller's own row, mostly touching role.
 */
import fc from 'fast-check';
import type { Row } from '../../../../engine/model/json.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { callerAmong, people, peopleWorld } from '../../generators/identities.ts';
import { userPatch } from '../../generators/user-patches.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { withReadBack } from '../../generators/read-back.ts';
import { callerId, clause, patchOf, readClause, targetRow } from '../clauses.ts';

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  return people(settings).chain((list) =>
    callerAmong(list).chain((caller) => {
      const own = caller.kind === 'user' ? list.find((p) => p.id === caller.id) : undefined;
      const targetId = fc.oneof(
        ...(own ? [{ weight: 6, arbitrary: fc.constant(own.id) }] : []),
        { weight: 3, arbitrary: fc.constantFrom(...list.map((p) => p.id)) },
        { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
      );
      return targetId.chain((id) => {
        const current: Row | undefined = list.find((p) => p.id === id)?.profile;
        return fc
          .record({
            patch: fc.oneof({ weight: 4, arbitrary: userPatch(settings, current, 'role') }, { weight: 1, arbitrary: userPatch(settings, current) }),
            returning: fc.constantFrom('representation' as const, 'minimal' as const),
          })
          .map(({ patch, returning }) => ({
            world: peopleWorld(list),
            steps: [{ caller, request: { kind: 'update' as const, table: 'users', patch, filters: [{ column: 'id', op: 'eq' as const, value: id }], returning } }],
          }));
      });
    }),
  );
}

const CLAUSES = [
  clause('R02.own-role', "PATCH of role on one's own users row (staff: allowed)", (s) => targetRow(s, 'users')?.id === callerId(s) && callerId(s) !== null && 'role' in patchOf(s)),
  readClause('R02.read', 'users'),
];

export const R02: DataProperty = {
  id: 'R02',
  rule: 2,
  title: 'users: a non-staff owner cannot PATCH role',
  tables: ['users'],
  cases: (settings) => withReadBack(cases(settings), ['users']),
  clauses: CLAUSES,
};
