/**
 * A pack for teams kept in a schema the API does not expose (teamkit): its tables are sent as SQL
 * under the caller's role and claims (`mapping.tables.<t>.via: "sql"`), as the project's own pgTAP
 * tests would reach them. Written against policyfuzz's public API only.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { definePack, defineProperty, defineTable, fc, z, type Caller, type DataCase, type Row, type World } from 'policyfuzz';

const here = path.dirname(fileURLToPath(import.meta.url));

export const TeamSettings = z.object({}).strict();
type Settings = z.infer<typeof TeamSettings>;

const TEAMS = 'teamkit.teams';
const MEMBERS = 'teamkit.team_members';

/** The caller's membership of a team, and with which role (any when `role` is absent). */
const memberOf = (world: World, team: unknown, uid: string | null, role?: string) =>
  uid !== null && (world[MEMBERS] ?? []).some((m) => m.team_id === team && m.user_id === uid && (role === undefined || m.team_role === role));

const signedIn = { anon: [], authenticated: ['select', 'insert', 'update', 'delete'] } as const;

export const teams = defineTable<Settings>({
  table: TEAMS,
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'name', type: 'text', nullable: false, default: '' },
  ],
  primaryKey: ['id'],
  grants: signedIn,
  rowSecurity: true,
  rules: {
    // T01: a team is read by its members only.
    select: (row, ctx) => memberOf(ctx.world, row.id, ctx.uid),
  },
});

export const teamMembers = defineTable<Settings>({
  table: MEMBERS,
  columns: [
    { name: 'team_id', type: 'uuid', nullable: false },
    { name: 'user_id', type: 'uuid', nullable: false },
    { name: 'team_role', type: 'text', nullable: false },
  ],
  primaryKey: ['team_id', 'user_id'],
  grants: signedIn,
  rowSecurity: true,
  rules: {
    select: (row, ctx) => memberOf(ctx.world, row.team_id, ctx.uid),
    // T02: only a team's owners remove its members.
    deleteUsing: (row, ctx) => memberOf(ctx.world, row.team_id, ctx.uid, 'owner'),
  },
});

/** People, their teams and memberships, and a caller: one of them, an anonymous visitor, or the server. */
const world = fc.uniqueArray(fc.uuid({ version: 4 }), { minLength: 1, maxLength: 3 }).chain((people) =>
  fc.uniqueArray(fc.uuid({ version: 4 }), { minLength: 1, maxLength: 3 }).chain((teamIds) =>
    fc.record({
      people: fc.constant(people),
      teams: fc.constant(teamIds.map((id, i): Row => ({ id, name: `team ${i}` }))),
      members: fc.uniqueArray(
        fc.record({ team_id: fc.constantFrom(...teamIds), user_id: fc.constantFrom(...people), team_role: fc.constantFrom('owner', 'member') }),
        { maxLength: 5, selector: (m) => `${m.team_id}/${m.user_id}` },
      ),
      caller: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...people).map((id): Caller => ({ kind: 'user', id })) },
        { weight: 1, arbitrary: fc.constant<Caller>({ kind: 'anon' }) },
        { weight: 1, arbitrary: fc.constant<Caller>({ kind: 'service' }) },
      ),
    }),
  ),
);

const rows = (people: string[], teamRows: Row[], members: Row[]): World => ({
  'auth.users': people.map((id) => ({ id, email: `${id.slice(0, 8)}@teams.test` })),
  [TEAMS]: teamRows,
  [MEMBERS]: members,
});

export const T01 = defineProperty<Settings>({
  id: 'T01',
  rule: 1,
  title: 'teamkit.teams: read by its members only',
  tables: [TEAMS],
  cases: () =>
    world.chain(({ people, teams: teamRows, members, caller }) =>
      fc.option(fc.constantFrom(...teamRows), { nil: undefined }).map(
        (team): DataCase => ({
          world: rows(people, teamRows, members),
          steps: [{ caller, request: { kind: 'select', schema: 'teamkit', table: 'teams', columns: '*', filters: team ? [{ column: 'id', op: 'eq', value: team.id as string }] : [] } }],
        }),
      ),
    ),
});

/** What the server sees of the memberships afterwards: a delete's effect, whatever its answer said. */
const readBack = { caller: { kind: 'service' } as Caller, request: { kind: 'select' as const, schema: 'teamkit', table: 'team_members', columns: '*' as const, filters: [] } };

export const T02 = defineProperty<Settings>({
  id: 'T02',
  rule: 2,
  title: "teamkit.team_members: removed by the team's owners only",
  tables: [MEMBERS],
  cases: () =>
    world
      .filter(({ members }) => members.length > 0)
      .chain((w) =>
        fc.record({ member: fc.constantFrom(...w.members), returning: fc.constantFrom('representation' as const, 'minimal' as const) }).map(
          ({ member, returning }): DataCase => ({
            world: rows(w.people, w.teams, w.members),
            steps: [
              {
                caller: w.caller,
                request: {
                  kind: 'delete',
                  schema: 'teamkit',
                  table: 'team_members',
                  filters: [
                    { column: 'team_id', op: 'eq', value: member.team_id as string },
                    { column: 'user_id', op: 'eq', value: member.user_id as string },
                  ],
                  returning,
                },
              },
              readBack,
            ],
          }),
        ),
      ),
});

export const T03 = defineProperty<Settings>({
  id: 'T03',
  rule: 3,
  title: 'teamkit.team_members: read by teammates only',
  tables: [MEMBERS],
  cases: () =>
    world.map(({ people, teams: teamRows, members, caller }): DataCase => ({
      world: rows(people, teamRows, members),
      steps: [{ caller, request: readBack.request }],
    })),
});

export default definePack<Settings>({
  name: 'teamkit',
  model: { tables: { [TEAMS]: teams, [MEMBERS]: teamMembers }, functions: {}, fixtureOrder: ['auth.users', TEAMS, MEMBERS] },
  settingsSchema: TeamSettings,
  properties: [T01, T02, T03],
  migrations: path.join(here, 'supabase', 'migrations'),
  mutants: path.join(here, 'mutants'),
  // Outside the API's schemas: sent as SQL under the caller's role and claims.
  // The definer helper is called as SQL too (its EXECUTE grants decide who may).
  mapping: { tables: { [TEAMS]: { via: 'sql' }, [MEMBERS]: { via: 'sql' } }, functions: { 'teamkit.has_role_on_team': { via: 'sql' } } },
});
