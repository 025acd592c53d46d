/**
 * Schema passport (spec §2; rule 19): passport.profiles is readable by its owner or admins only;
 * passport.user_tiers is a view over it that runs with the invoker's rights, so the same rule
 * applies through it. Nothing in passport is granted to anon.
 */
import { currentUserIsAdmin } from '../identity.ts';
import type { Row } from '../../../../engine/model/json.ts';
import type { RuleContext, TableModel } from '../../../../engine/model/table-model.ts';
import type { ModelSettings } from '../settings.ts';
import { rowsOf } from '../../../../engine/model/world.ts';

export function profileVisible(row: Row, ctx: RuleContext): boolean {
  return (ctx.uid !== null && row.user_id === ctx.uid) || currentUserIsAdmin(ctx);
}

export function tierOf(points: number, settings: ModelSettings): string | null {
  return settings.passport.tiers.find((t) => points >= t.minPoints)?.name ?? null;
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
