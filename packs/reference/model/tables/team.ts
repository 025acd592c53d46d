/**
 * The team tree and membership (spec §2; rule 11). team_members holds personal data: anon holds
 * SELECT but no row rule shows it a row (it reads zero rows); staff read all (or admins only:
 * settings.team.readers, or team.memberReaders for team_members alone), and a member their own row where settings.team.ownMemberRow says.
 * team_nodes is read by the same readers. The public tree is get_public_org_chart only (model/functions/team.ts).
 */
import { take } from '../branches.ts';
import { currentUserIsAdmin, currentUserIsStaff } from '../identity.ts';
import type { Json, Row } from '../../../../engine/model/json.ts';
import type { RuleContext, TableModel } from '../../../../engine/model/table-model.ts';
import { rowsOf, type World } from '../../../../engine/model/world.ts';

/** Who reads the team tables (settings.team.readers; team_members' own where settings.team.memberReaders names them). */
function teamReader(ctx: RuleContext, readers: 'staff' | 'admins' = ctx.settings.team.readers): boolean {
  return readers === 'admins' ? currentUserIsAdmin(ctx) : currentUserIsStaff(ctx);
}

export const teamNodesTable: TableModel = {
  table: 'team_nodes',
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'parent_id', type: 'uuid', nullable: true, default: null },
    { name: 'name', type: 'text', nullable: false },
    { name: 'kind', type: 'text', nullable: false, default: 'team' },
    { name: 'position', type: 'integer', nullable: false, default: 0 },
    { name: 'is_public', type: 'boolean', nullable: false, default: false },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select'] },
  rowSecurity: true,
  rules: { select: (_row, ctx) => teamReader(ctx) },
};

export const teamMembersTable: TableModel = {
  table: 'team_members',
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'node_id', type: 'uuid', nullable: false },
    { name: 'name', type: 'text', nullable: false },
    { name: 'nickname', type: 'text', nullable: true, default: null },
    { name: 'position', type: 'text', nullable: true, default: null },
    { name: 'email', type: 'text', nullable: false, aliases: ['kkumail'], format: 'email' },
    { name: 'student_id', type: 'text', nullable: true, default: null },
    { name: 'year', type: 'integer', nullable: true, default: null },
    { name: 'major', type: 'text', nullable: true, default: null },
    { name: 'permissions', type: 'text[]', nullable: false, default: [] },
    { name: 'vs_dept', type: 'text', nullable: true, default: null },
    { name: 'project_seat', type: 'text', nullable: true, default: null },
    { name: 'user_id', type: 'uuid', nullable: true, default: null },
  ],
  primaryKey: ['id'],
  grants: { anon: ['select'], authenticated: ['select'] },
  rowSecurity: true,
  rules: { select: (row, ctx) => teamReader(ctx, ctx.settings.team.memberReaders) || ownMemberRow(row, ctx) },
  valueSettings: { id: 'team.readers, team.memberReaders, team.ownMemberRow' },
};

/** A signed-in member's own membership row, where settings.team.ownMemberRow makes it readable. */
function ownMemberRow(row: Row, ctx: RuleContext): boolean {
  return ctx.settings.team.ownMemberRow === 'readable' && ctx.uid !== null && row.user_id === ctx.uid;
}

/** node_effective_is_public: the node and every ancestor exist and are public. */
export function nodeEffectivelyPublic(world: World, nodeId: Json | undefined): boolean {
  const nodes = new Map(rowsOf(world, 'team_nodes').map((n) => [n.id, n]));
  const seen = new Set<Json>();
  let current: Row | undefined = nodes.get(nodeId as string);
  // No such node: only node_effective_is_public asks (rule 15), and a parent always exists (foreign key).
  if (!current) return false;
  const self = current;
  while (current) {
    if (current.is_public !== true) return take(current === self ? 'R11.node.private' : 'R11.node.ancestor-private'), false;
    if (current.parent_id === null || current.parent_id === undefined) return take('R11.node.public'), true;
    if (seen.has(current.id)) return true; // a cycle of public nodes: every node on it was public
    seen.add(current.id);
    current = nodes.get(current.parent_id as string);
    if (!current) return true; // the foreign key makes this unreachable
  }
  return true;
}
