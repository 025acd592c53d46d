/**
 * R20 — a caller with no session cannot use identity-gated functions: passport.admin_leaderboard
 * answers NOT_AUTHORIZED to anon (a client-side login that yielded no token calls with the anon
 * key), to the server context and to any signed-in caller who is not an admin (including one
 * with no users row, a null role); get_my_student_record and sync_my_team_permissions are not
 * executable without a session.
 * Cases: people of any role with passport profiles (plus more profiles than the board shows),
 * a caller that is often anon, one identity-gated call.
 */
import fc from 'fast-check';
import type { Caller } from '../../../../engine/model/caller.ts';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { extraProfiles, passportProfiles } from '../../generators/passport.ts';
import { peopleRows, peopleWithRoles } from '../../generators/student.ts';
import { callerOf } from '../../generators/identities.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { clause, isRpc } from '../clauses.ts';
import { rolesByMeaning, firstOf } from '../../generators/roles.ts';

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  const roles = rolesByMeaning(settings);
  return peopleWithRoles(settings, [null, ...roles.plain, ...firstOf(roles.staff, roles.vsUnrestricted), ...settings.adminRoles], 1, 3).chain((list) =>
    fc
      .record({
        profiles: passportProfiles(settings, list),
        extra: extraProfiles(settings),
        caller: fc.oneof(
          { weight: 3, arbitrary: fc.constant<Caller>({ kind: 'anon' }) },
          { weight: 5, arbitrary: fc.constantFrom(...list).map(callerOf) },
          { weight: 1, arbitrary: fc.constant<Caller>({ kind: 'service' }) },
        ),
        request: fc.oneof(
          { weight: 5, arbitrary: fc.constant<ApiRequest>({ kind: 'rpc', schema: 'passport', fn: 'admin_leaderboard', args: {} }) },
          { weight: 1, arbitrary: fc.constant<ApiRequest>({ kind: 'rpc', fn: 'get_my_student_record', args: {} }) },
          { weight: 1, arbitrary: fc.constant<ApiRequest>({ kind: 'rpc', fn: 'sync_my_team_permissions', args: {} }) },
        ),
      })
      .map(({ profiles, extra, caller, request }): DataCase => {
        const people = peopleRows(list);
        const taken = new Set(list.map((p) => p.id));
        const keep = (id: unknown) => !taken.has(id as string);
        return {
          world: { ...people, 'auth.users': [...people['auth.users'], ...extra.auth.filter((r) => keep(r.id))], 'passport.profiles': [...profiles, ...extra.profiles.filter((r) => keep(r.user_id))] },
          steps: [{ caller, request }],
        };
      }),
  );
}

const CLAUSES = [
  clause('R20.leaderboard', 'passport.admin_leaderboard (admins: allowed)', (s) => isRpc(s, 'passport.admin_leaderboard')),
  clause('R20.identity-gated', 'get_my_student_record / sync_my_team_permissions (signed in: allowed)', (s) => isRpc(s, 'get_my_student_record') || isRpc(s, 'sync_my_team_permissions')),
];

export const R20: DataProperty = {
  id: 'R20',
  rule: 20,
  title: 'no session: NOT_AUTHORIZED from passport.admin_leaderboard, identity-gated functions refused',
  tables: ['passport.profiles'],
  functions: ['passport.admin_leaderboard', 'get_my_student_record', 'sync_my_team_permissions'],
  cases,
  clauses: CLAUSES,
};
