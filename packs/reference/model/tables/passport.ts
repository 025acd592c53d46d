/**
 * Schema passport (spec §2; rule 19): passport.profiles is readable by its owner or admins only;
 * passport.user_tiers is a view over it that runs with the invoker's rights, so the same rule
 * applies through it. Nothing in passport is granted to anon.
 */
import { decide, take } from '../branches.ts';
import { currentUserIsAdmin } from '../identity.ts';
import type { Row } from '../../../../engine/model/json.ts';
import type { RuleContext, TableModel } from '../../../../engine/model/table-model.ts';
import type { ModelSettings } from '../settings.ts';
import { rowsOf } from '../../../../engine/model/world.ts';

export function profileVisible(row: Row, ctx: RuleContext): boolean {
  if (ctx.uid !== null && row.user_id === ctx.uid) return take('R19.profile.owner'), true;
  return decide(currentUserIsAdmin(ctx), 'R19.profile.admin', 'R19.profile.hidden');
}

export function tierOf(points: number, settings: ModelSettings): string | null {
  const tier = settings.passport.tiers.find((t) => points >= t.minPoints);
  // Below every tier: not with the default tiers (the lowest starts at 0, and points >= 0 by CHECK).
  if (tier) take(points === tier.minPoints ? 'R19.tier.at-threshold' : 'R19.tier.above-threshold');
  return tier?.name ?? null;
}

export const passportProfilesTable: TableModel = {
  table: 'passport.profiles',
  columns: [
    { name: 'user_id', type: 'uuid', nullable: false },
    { name: 'display_name', type: 'text', nullable: true, default: null },
    { name: 'points', type: 'integer', nullable: false, default: 0, check: (v) => typeof v === 'number' && v >= 0 },
  ],
  primaryKey: ['user_id'],
  grants: { anon: [], authenticated: ['select'] },
  rowSecurity: true,
  rules: { select: profileVisible },
};

export const passportUserTiersView: TableModel = {
  table: 'passport.user_tiers',
  columns: [
    { name: 'user_id', type: 'uuid', nullable: false },
    { name: 'points', type: 'integer', nullable: false },
    { name: 'tier', type: 'text', nullable: true },
  ],
  primaryKey: ['user_id'],
  grants: { anon: [], authenticated: ['select'] },
  rowSecurity: true,
  rules: { select: profileVisible },
  view: (world, settings) =>
    rowsOf(world, 'passport.profiles').map((p) => ({ user_id: p.user_id, points: p.points, tier: tierOf(p.points as number, settings) })),
};

export const passportTables: TableModel[] = [passportProfilesTable, passportUserTiersView];
