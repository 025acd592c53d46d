/**
 * Team functions (spec §4.2; rules 11, 15 and the identity-gated sync).
 * - get_public_org_chart: anon and signed in; nodes {id, parent_id, name, kind, position} that
 *   are effectively public (every ancestor public), members {node_id, name, nickname, position}
 *   of those nodes; nodes ordered by position then id, members by node then member id.
 * - sync_my_team_permissions: signed in; resolves the caller's team permissions and VS department
 *   from who they are (the auth identity's e-mail, model/functions/identity.ts), never from a
 *   column they can edit; no session (the server context) raises NOT_AUTHORIZED.
 * - effective_team_*_for_email, node_effective_is_public: answer about another person or node;
 *   rule 15: no grant to anon or authenticated (service_role keeps its own).
 */
import type { FunctionModel } from '../../../../engine/model/function-model.ts';
import type { Json, Row } from '../../../../engine/model/json.ts';
import { allowed, secureReading, type Outcome } from '../../../../engine/model/outcome.ts';
import { canonicalJson, jsonEqual } from '../../../../engine/model/values.ts';
import { refusal } from '../refusals.ts';
import { nodeEffectivelyPublic } from '../tables/team.ts';
import { rowsOf, type World } from '../../../../engine/model/world.ts';
import { authEmail, emailMatchKind, ruleContext, sameEmail, scalarAnswer } from './identity.ts';
import { take } from '../branches.ts';
import { currentUserRole } from '../identity.ts';
import { NO_ROLE_REFUSED } from './student.ts';

const byText = (a: Json | undefined, b: Json | undefined) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);

/**
 * How a member's e-mail is matched to a person's: lower-cased and trimmed (the model), or only
 * ignoring case (a citext `=`), or as written (a text `=`, or a citext one resolved to text's
 * under `search_path = ''`). The spec names no match, and finding fewer members grants fewer
 * permissions: the stricter ones are as secure (EMAIL_MATCHED_STRICTLY).
 */
type EmailMatch = 'normalized' | 'case-insensitive' | 'exact';

const memberOf = (m: Row, email: Json | undefined, match: EmailMatch) => {
  if (!sameEmail(m.email, email)) return false;
  const kind = emailMatchKind(m.email, String(email));
  return match === 'normalized' || kind === 'exact' || (match === 'case-insensitive' && kind === 'case-only');
};

/** The secure reading of answers found without the members an e-mail matches only once trimmed or lower-cased. */
export const EMAIL_MATCHED_STRICTLY = 'team.email-matched-strictly';

/** `answer` by the model's match, with each stricter one's answer, where it differs, as the secure reading. */
function orStricter(answer: (match: EmailMatch) => Outcome): Outcome {
  const model = answer('normalized');
  const rowsOfAnswer = (o: Outcome) => (o.kind === 'allowed' ? o.rows : null);
  const stricter = (['case-insensitive', 'exact'] as const).map(answer).filter((o, i, all) => !jsonEqual(rowsOfAnswer(o), rowsOfAnswer(model)) && all.findIndex((x) => jsonEqual(rowsOfAnswer(x), rowsOfAnswer(o))) === i);
  return stricter.length ? { ...model, orElse: [...(model.orElse ?? []), ...stricter.map((o) => secureReading(EMAIL_MATCHED_STRICTLY, o))] } : model;
}

export function teamPermissionsForEmail(world: World, email: Json | undefined, match: EmailMatch = 'normalized'): string[] {
  const perms = new Set<string>();
  for (const m of rowsOf(world, 'team_members')) {
    if (!memberOf(m, email, match)) continue;
    take(`R17.member.${emailMatchKind(m.email, String(email))}`);
    for (const p of Array.isArray(m.permissions) ? m.permissions : []) if (typeof p === 'string') perms.add(p);
  }
  return [...perms].sort(byText);
}

export function teamVsDeptForEmail(world: World, email: Json | undefined, match: EmailMatch = 'normalized'): string | null {
  const depts = rowsOf(world, 'team_members')
    .filter((m) => memberOf(m, email, match) && typeof m.vs_dept === 'string')
    .map((m) => m.vs_dept as string)
    .sort(byText);
  return depts[0] ?? null;
}

export function publicOrgChart(world: World): Row {
  const visible = rowsOf(world, 'team_nodes').filter((n) => nodeEffectivelyPublic(world, n.id));
  const ids = new Set(visible.map((n) => n.id));
  const nodes = [...visible]
    .sort((a, b) => (a.position as number) - (b.position as number) || byText(a.id, b.id))
    .map((n): Row => ({ id: n.id, parent_id: n.parent_id ?? null, name: n.name, kind: n.kind, position: n.position }));
  const members = rowsOf(world, 'team_members')
    .filter((m) => ids.has(m.node_id))
    .sort((a, b) => byText(a.node_id, b.node_id) || byText(a.id, b.id))
    .map((m): Row => ({ node_id: m.node_id, name: m.name, nickname: m.nickname ?? null, position: m.position ?? null }));
  return { nodes, members };
}

/** A list compared as a multiset: its elements in one canonical order (by canonicalJson, at any depth). */
function inAnyOrder(v: Json | undefined): Json {
  if (!Array.isArray(v)) return v ?? null;
  return v.map((x) => [canonicalJson(x), x] as const).sort(([a], [b]) => byText(a, b)).map(([, x]) => x);
}

export const ORG_CHART_NODE_KEYS = ['id', 'parent_id', 'name', 'kind', 'position'] as const;
export const ORG_CHART_MEMBER_KEYS = ['node_id', 'name', 'nickname', 'position'] as const;

export const teamFunctions: FunctionModel[] = [
  {
    name: 'get_public_org_chart',
    args: [],
    executableBy: ['anon', 'authenticated', 'service_role'],
    fixedColumns: 'spec §4.2 and rule 11: nodes {id, parent_id, name, kind, position} and members {node_id, name, nickname, position} only',
    rowsUnder: { nodes: 'team_nodes', members: 'team_members' },
    predict: (world) => ({ outcome: allowed([publicOrgChart(world)], 1), world }),
    // The spec fixes what the chart holds, not its order (a target keying members by (node, user) has no member id to sort by).
    comparedAs: (rows) => rows.map((r) => (r && typeof r === 'object' ? { ...r, nodes: inAnyOrder(r.nodes), members: inAnyOrder(r.members) } : r)),
  },
  {
    name: 'sync_my_team_permissions',
    args: [],
    executableBy: ['authenticated', 'service_role'],
    predict(world, caller, _args, settings) {
      const ctx = ruleContext(world, caller, settings);
      if (ctx.uid === null) return take('R20.sync.no-session'), { outcome: refusal(settings, 'not-authorized', 'NOT_AUTHORIZED'), world };
      const email = authEmail(ctx);
      const answer = orStricter((match) => allowed([{ permissions: teamPermissionsForEmail(world, email, match), vs_dept: teamVsDeptForEmail(world, email, match) }], 1));
      // A caller with no e-mail (no users row, settings.students.callerEmail users-row) holds nothing: refusing them is as secure;
      // so is refusing a caller with no role (§7: a function guard with a null role fails closed).
      const reading = email === null ? 'team.sync-no-email-refused' : currentUserRole(ctx) === null ? NO_ROLE_REFUSED : undefined;
      return { outcome: reading ? { ...answer, orElse: [...(answer.orElse ?? []), secureReading(reading, refusal(settings, 'not-authorized', 'NOT_AUTHORIZED'))] } : answer, world };
    },
  },
  {
    name: 'effective_team_permissions_for_email',
    args: ['p_email'],
    executableBy: ['service_role'],
    // A text[] answer reads back as one row per element.
    predict: (world, _caller, args) => ({ outcome: orStricter((match) => allowed(teamPermissionsForEmail(world, args.p_email, match).map((value) => ({ value })), 1)), world }),
  },
  {
    name: 'effective_team_vs_dept_for_email',
    args: ['p_email'],
    executableBy: ['service_role'],
    predict: (world, _caller, args) => ({ outcome: orStricter((match) => scalarAnswer(teamVsDeptForEmail(world, args.p_email, match))), world }),
  },
  {
    name: 'node_effective_is_public',
    args: ['p_node_id'],
    executableBy: ['service_role'],
    predict: (world, _caller, args) => ({ outcome: allowed([{ value: nodeEffectivelyPublic(world, args.p_node_id) }], 1), world }),
  },
];
