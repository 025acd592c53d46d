/**
 * Rule 7 (with 3, 6, 9, 12, 13 along the way) over VS ticket lifecycles: model-based sequences
 * generated with `fc.commands` (vs-commands.ts) — submit, submitter and handler updates,
 * transfer, publish, merge, soft delete, read again by anyone on every read path — in a world
 * with a fixed cast: two submitters, vs_staff, a vp_admin of each of two departments, a handler
 * through the `vs` permission only, a users row with a null role, anon and the server context.
 *
 * How fast-check's model-based testing fits a runner that checks plain-data cases:
 * - `fc.commands` generates and shrinks the command lists (shrinking drops commands or shrinks
 *   a command's choices);
 * - the arbitrary maps each list to a plain `DataCase`: `fc.modelRun` runs the commands on the
 *   model alone (the recorder predicts each step and keeps it), so every step is computed from
 *   the state the earlier commands reached. This also marks, deterministically, which commands
 *   ran (their `check` held): fast-check's shrinker keeps only those, and a `--path` replay walks
 *   the same shrink tree without the database;
 * - the case carries the model run as a non-enumerable hook (data-case.ts `withModelRun`):
 *   checkCase runs it with `fc.asyncModelRun` against the case transaction, each command's step
 *   predicted, sent, compared, a disagreement thrown as CaseMismatch. The steps it sends are
 *   the case's steps (checked);
 * - saved failures, replays and `.sql` repros see only `{ world, steps }` and run unchanged.
 */
import fc from 'fast-check';
import type { Caller } from '../../../engine/model/caller.ts';
import type { Row } from '../../../engine/model/json.ts';
import { referenceOracleWith } from '../model/index.ts';
import { predictAndKeep } from '../../../engine/runner/case-predictions.ts';
import type { RunOracle } from '../../../engine/runner/data-property.ts';
import { holdsNotNull, inEmailDomain, type ModelSettings } from '../model/settings.ts';
import type { World } from '../../../engine/model/world.ts';
import { callerOf, callerWithClaims, isRunOracleFor, peopleWorld, type Person } from '../generators/identities.ts';
import { vsCategory, vsTicket, VS_TICKET_IDS } from '../generators/vs-world.ts';
import { withModelRun, type DataCase, type DataStep } from '../../../engine/runner/data-case.ts';
import { lifecycleCommandArbs, type CastKey, type LifecycleModel, type LifecycleReal } from './vs-commands.ts';
import { rolesByMeaning } from '../generators/roles.ts';

const uuid = (n: number) => `1f000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * One of the cast. Where the target holds a users column NOT NULL (settings.notNullColumns.users)
 * the row gets a value there, and the caller with no role is one with no users row (the model
 * reads either as a null role), so no lifecycle world is one the target cannot store.
 */
function person(settings: ModelSettings, n: number, role: string | null, department: string | null, permissions: string[] = []): Person {
  const id = uuid(n);
  const email = inEmailDomain(settings, `lifecycle${n}@example.test`);
  if (role === null && holdsNotNull(settings, 'users', 'role')) return { id, email };
  const filled = (column: string, value: string) => (holdsNotNull(settings, 'users', column) ? value : null);
  return {
    id,
    email,
    profile: {
      id,
      email,
      display_name: filled('display_name', `Lifecycle ${n}`),
      avatar_url: filled('avatar_url', `https://example.test/avatars/${n}.png`),
      phone: filled('phone', `+1555000000${n}`),
      role,
      department: department ?? filled('department', settings.departments[0]),
      permissions,
      managed_permissions: [],
    },
  };
}

/** The fixed cast, from the settings' vocabularies (departments A and B are the first two). */
export function lifecycleCast(settings: ModelSettings): { people: Person[]; callers: Record<CastKey, Caller> } {
  const { handlerRoles, deptScopedRoles, handlerPermission } = settings.vs;
  const [A, B] = settings.departments;
  const unrestricted = handlerRoles.find((r) => !deptScopedRoles.includes(r) && settings.staffRoles.includes(r)) ?? handlerRoles[0];
  const scoped = deptScopedRoles[0] ?? unrestricted;
  const plain = rolesByMeaning(settings).plain[0] ?? settings.roles.find((r) => !handlerRoles.includes(r) && !settings.staffRoles.includes(r)) ?? settings.roles[0];
  const cast: Record<Exclude<CastKey, 'anon' | 'service'>, Person> = {
    sub1: person(settings, 1, plain, A),
    sub2: person(settings, 2, plain, B),
    staff: person(settings, 3, unrestricted, null),
    vpA: person(settings, 4, scoped, A),
    vpB: person(settings, 5, scoped, B),
    permA: person(settings, 6, plain, A, [handlerPermission]),
    nullRole: person(settings, 7, null, A),
  };
  const world = peopleWorld(Object.values(cast));
  const user = (p: Person): Caller => callerWithClaims(callerOf(p), world, settings);
  const callers = {
    ...(Object.fromEntries(Object.entries(cast).map(([k, p]) => [k, user(p)])) as Record<Exclude<CastKey, 'anon' | 'service'>, Caller>),
    anon: { kind: 'anon' } as Caller,
    service: { kind: 'service' } as Caller,
  };
  return { people: Object.values(cast), callers };
}

/** The world a lifecycle starts from: the cast, a public category (+ maybe another), 2–3 tickets. */
export function lifecycleWorld(settings: ModelSettings, people: Person[]): fc.Arbitrary<World> {
  const wifi: Row = { id: 'wifi', name: 'wifi', is_confidential: false, public_eligible: true };
  return fc
    .tuple(fc.option(vsCategory('dorm', settings), { nil: undefined }), fc.integer({ min: 2, max: 3 }))
    .chain(([dorm, n]) => {
      const ids = VS_TICKET_IDS.slice(0, n);
      // Mostly the public category, so publishing succeeds and the board has something to hide.
      const category = fc.oneof({ weight: 4, arbitrary: fc.constant<string | null>('wifi') }, { weight: 1, arbitrary: fc.constantFrom<string | null>('dorm', 'gone', null) });
      // Mostly department A (so merges within a department are common), else B or any.
      const [A, B] = settings.departments;
      const dept = fc.oneof({ weight: 3, arbitrary: fc.constant(A) }, { weight: 2, arbitrary: fc.constant(B) }, { weight: 1, arbitrary: fc.constantFrom(...settings.departments) });
      const ticket = (id: string) =>
        fc.tuple(vsTicket(settings, id, people, ids, { deleted: false }), category, dept).map(([t, c, d]): Row => ({ ...t, category: c, target_dept: d }));
      return fc.tuple(...ids.map(ticket)).map((tickets): World => ({ ...peopleWorld(people), vs_categories: dorm ? [wifi, dorm] : [wifi], vs_tickets: tickets }));
    });
}

/**
 * `oracle`: the run's (RunOracle), for these settings: the recorder predicts with it, so the
 * answers it keeps with the steps are the ones the check would make (case-predictions.ts
 * predictStep reuses them). Absent: the reference model with the settings.
 */
export function vsLifecycleCases(settings: ModelSettings, maxCommands = 16, oracle?: RunOracle<ModelSettings>): fc.Arbitrary<DataCase> {
  const { people, callers } = lifecycleCast(settings);
  const predictingWith = oracle && isRunOracleFor(oracle, settings) ? oracle : referenceOracleWith(settings);
  return fc.tuple(lifecycleWorld(settings, people), fc.commands(lifecycleCommandArbs(), { maxCommands, size: 'max' })).map(([world, commands]): DataCase => {
    // A fresh model per run, from the case's world.
    const setup = (real: LifecycleReal) => ({ model: { world, settings, callers, ids: VS_TICKET_IDS } satisfies LifecycleModel, real });
    // Compile: the commands on the model alone; the recorder predicts and keeps each step.
    const steps: DataStep[] = [];
    const recorder: LifecycleReal = {
      send(step, model) {
        steps.push(step);
        model.world = predictAndKeep(predictingWith, model.world, step).world;
      },
    };
    // The recorder answers synchronously, so the (async-typed) commands run as synchronous ones.
    fc.modelRun(() => setup(recorder), commands as unknown as Iterable<fc.Command<LifecycleModel, LifecycleReal>>);
    return withModelRun({ world, steps }, (execute) =>
      fc.asyncModelRun(
        () =>
          setup({
            async send(step, model) {
              model.world = await execute(step);
            },
          }),
        commands,
      ),
    );
  });
}
