/**
 * passport.admin_leaderboard (spec §4.2; rule 20): executable by anon and authenticated, so that
 * a caller who is not an admin — including one with no session — receives the function's own
 * NOT_AUTHORIZED. Admins get the top settings.passport.leaderboardSize profiles by points
 * (ties by user id) with their tier.
 */
import type { FunctionModel } from '../../../../engine/model/function-model.ts';
import { decide } from '../branches.ts';
import { currentUserIsAdmin } from '../identity.ts';
import { allowed } from '../../../../engine/model/outcome.ts';
import { specNotAuthorized } from '../refusals.ts';
import { tierOf } from '../tables/passport.ts';
import { rowsOf } from '../../../../engine/model/world.ts';
import { ruleContext } from './identity.ts';


export const passportFunctions: FunctionModel[] = [
  {
    name: 'passport.admin_leaderboard',
    args: [],
    executableBy: ['anon', 'authenticated', 'service_role'],
    // The spec names no length (stranger-app-9's and -12's `limit 100`): an 11th row is a setting's difference.
    rowsSetting: 'passport.leaderboardSize',
    predict(world, caller, _args, settings) {
      if (!decide(currentUserIsAdmin(ruleContext(world, caller, settings)), 'R20.leaderboard.admin', 'R20.leaderboard.not-admin')) return { outcome: specNotAuthorized(settings), world };
      const rows = [...rowsOf(world, 'passport.profiles')]
        .sort((a, b) => (b.points as number) - (a.points as number) || (String(a.user_id) < String(b.user_id) ? -1 : 1))
        .slice(0, settings.passport.leaderboardSize)
        .map((p) => ({ user_id: p.user_id, display_name: p.display_name ?? null, points: p.points, tier: tierOf(p.points as number, settings) }));
      return { outcome: allowed(rows, rows.length), world };
    },
  },
];
