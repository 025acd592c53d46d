/**
 * People and callers: a pool of signed-up identities (auth.users), some with a users row
 * (any role, or none), and callers drawn from them plus anon and the server context.
 * About one identity in sixteen is a Supabase anonymous sign-in (auth.users.is_anonymous, no
 * e-mail; its token has role authenticated and is_anonymous true): policies often forget them.
 */
import fc from 'fast-check';
import { callerUid, type Caller } from '../../../engine/model/caller.ts';
import { unrecorded } from '../../../engine/model/branches.ts';
import type { Json, Row } from '../../../engine/model/json.ts';
import { predict } from '../../../engine/model/predict.ts';
import type { World } from '../../../engine/model/world.ts';
import { modelRunOf, type DataCase } from '../../../engine/runner/data-case.ts';
import type { CasesOf, DataProperty, RunOracle } from '../../../engine/runner/data-property.ts';
import type { Oracle } from '../../../engine/pack.ts';
import { currentUserRole } from '../model/identity.ts';
import { referenceOracleWith } from '../model/index.ts';
import { drawnAsStored, holdsNotNull, normalizedEmail, tokensFromWorld, type ModelSettings } from '../model/settings.ts';
import { avatarUrl, personName, phoneNumberFor } from './faker.ts';
import { emailAddressFor } from './email-draw.ts';

export interface Person {
  id: string;
  /** The sign-up e-mail ('' for an anonymous sign-in, whose auth.users.email is null). */
  email: string;
  /** A Supabase anonymous sign-in. */
  isAnonymous?: boolean;
  /** The users row; absent for a signed-up identity with no profile (null role). */
  profile?: Row;
}

/**
 * A users row's columns other than id and email, per settings: made once, not once per person
 * drawn. Drawn exactly as a record with id and email first (constants draw no random value).
 */
const userColumns = new WeakMap<ModelSettings, fc.Arbitrary<Row>>();

function userColumnsOf(settings: ModelSettings): fc.Arbitrary<Row> {
  let made = userColumns.get(settings);
  if (made) return made;
  // A column the target holds NOT NULL (settings.notNullColumns.users) is drawn without its null;
  // the others exactly as before, so a run without the setting draws the cases it always drew.
  const maybe = <T>(column: string, value: fc.Arbitrary<T>, freq?: number): fc.Arbitrary<T | null> =>
    holdsNotNull(settings, 'users', column) ? value : fc.option(value, { nil: null, ...(freq ? { freq } : {}) });
  made = fc.record({
    display_name: maybe('display_name', personName),
    avatar_url: maybe('avatar_url', avatarUrl),
    phone: maybe('phone', phoneNumberFor(settings.phoneStyle)),
    role: maybe('role', fc.constantFrom(...settings.roles), 6),
    department: maybe('department', fc.constantFrom(...settings.departments), 5),
    permissions: fc.subarray(settings.permissions),
    managed_permissions: fc.subarray(settings.permissions),
  });
  userColumns.set(settings, made);
  return made;
}

export function userRow(settings: ModelSettings, id: string, signInEmail: string): fc.Arbitrary<Row> {
  // The sign-in e-mail may carry capitals (student.ts signInEmail); a target keeping users.email normalized holds it as stored.
  const email = drawnAsStored(settings, 'users', 'email') ? normalizedEmail(signInEmail) : signInEmail;
  // id and email first, and the record's prototype (fc.record may draw a null one) kept: the row fc.record({ id, email, … }) gave.
  return userColumnsOf(settings).map((columns) => Object.assign(Object.getPrototypeOf(columns) === null ? (Object.create(null) as Row) : {}, { id, email }, columns));
}

/** Whether users rows may have a null role here (not when the target holds role NOT NULL: settings.notNullColumns.users). */
export function drawsNullRole(settings: ModelSettings): boolean {
  return !holdsNotNull(settings, 'users', 'role');
}

/**
 * Decided by the id itself (its last hex digit), so that adding anonymous sign-ins drew no new
 * random value and every seed still generates the cases it generated before, but for them.
 */
export function isAnonymousId(id: string): boolean {
  return id.endsWith('0');
}

export function person(settings: ModelSettings): fc.Arbitrary<Person> {
  return fc.record({ id: fc.uuid({ version: 4 }), email: emailAddressFor(settings) }).chain(({ id, email: drawn }) => {
    const anonymous = isAnonymousId(id);
    const email = anonymous ? '' : drawn;
    return fc
      .option(userRow(settings, id, email), { nil: undefined, freq: 6 })
      .map((profile): Person => ({ id, email, ...(anonymous ? { isAnonymous: true } : {}), ...(profile ? { profile } : {}) }));
  });
}

/** The auth.users row Supabase Auth keeps for a person. */
export function authUserRow(p: Person): Row {
  return { id: p.id, email: p.isAnonymous ? null : p.email, is_anonymous: p.isAnonymous === true };
}

/**
 * The claims a signed-in person's token carries besides who they are, decided by the id's
 * second-last hex digit (as isAnonymousId does, so no new random value is drawn and every seed
 * keeps its cases): 1 → `app_metadata.role` 'admin' (a role an admin tool wrote into the
 * token), 2 → `aal2` (signed in with MFA), 3 → both; else none. The reference grants nothing on
 * either (the spec decides roles by users.role), so a policy that trusts them meets both sides.
 */
export function tokenClaimsOf(id: string): Pick<Extract<Caller, { kind: 'user' }>, 'aal' | 'appMetadata'> {
  const digit = id.at(-2);
  return {
    ...(digit === '2' || digit === '3' ? { aal: 'aal2' as const } : {}),
    ...(digit === '1' || digit === '3' ? { appMetadata: { role: 'admin' } } : {}),
  };
}

/**
 * A person as the caller of a request: their access token's subject, e-mail, kind and claims.
 * Every rule's callers are made here (or by callerAmong), so every token carries the same claims;
 * settings.claims.appMetadataRole then adjusts them per step (withTokenClaims).
 */
export function callerOf(p: Person): Caller {
  return p.isAnonymous ? { kind: 'user', id: p.id, isAnonymous: true } : { kind: 'user', id: p.id, email: p.email, ...tokenClaimsOf(p.id) };
}

export function people(settings: ModelSettings, max = 4): fc.Arbitrary<Person[]> {
  return fc.uniqueArray(person(settings), { minLength: 1, maxLength: max, selector: (p) => p.id });
}

export function peopleWorld(list: Person[]): World {
  return {
    'auth.users': list.map(authUserRow),
    users: list.flatMap((p) => (p.profile ? [p.profile] : [])),
  };
}

/** Mostly one of the people; sometimes anon or the server context. */
export function callerAmong(list: Person[]): fc.Arbitrary<Caller> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...list).map(callerOf) },
    { weight: 1, arbitrary: fc.constant<Caller>({ kind: 'anon' }) },
    { weight: 1, arbitrary: fc.constant<Caller>({ kind: 'service' }) },
  );
}

/**
 * The case with each signed-in caller's token as settings.claims.appMetadataRole says. Under
 * 'users.role' a step's token carries `app_metadata.role` equal to the caller's role as the model
 * reads it in the world before that step (currentUserRole: none for no users row, a null role,
 * or an anonymous sign-in under anonymousSignIns 'no-role'); the world is carried from step to step
 * by the predictions of `oracle`, the run's (its target's ON DELETE actions included: a cascade
 * that removes a users row leaves no role in the next token), so a role an earlier step changed is
 * the one the token carries (a hook mints it from users.role). Under 'untrusted' the case is as
 * drawn (tokenClaimsOf). A lifecycle case (fc.commands) sends its own steps: its cast's tokens are
 * made with callerWithClaims (no step of it changes a role).
 */
export function withTokenClaims(testCase: DataCase, oracle: Oracle<ModelSettings>): DataCase {
  const settings = oracle.settings;
  if (!tokensFromWorld(settings) || modelRunOf(testCase)) return testCase;
  let world = testCase.world;
  const steps = testCase.steps.map((step) => {
    const caller = callerWithClaims(step.caller, world, settings);
    world = unrecorded(() => predict(oracle, world, caller, step.request)).world;
    return { ...step, caller };
  });
  return { ...testCase, steps };
}

/** The caller with the token settings.claims gives it in `world` (see withTokenClaims). */
export function callerWithClaims(caller: Caller, world: World, settings: ModelSettings): Caller {
  if (caller.kind !== 'user' || !tokensFromWorld(settings)) return caller;
  const role = unrecorded(() => currentUserRole({ world, caller, uid: callerUid(caller), settings }));
  const { role: _drawn, ...others } = caller.appMetadata ?? {};
  const appMetadata = role === null ? others : { ...others, role };
  const { appMetadata: _old, ...rest } = caller;
  return Object.keys(appMetadata).length ? { ...rest, appMetadata } : rest;
}

/**
 * The user_metadata a person set for themselves, as an adversarial user would
 * (`supabase.auth.updateUser({ data: { role: 'admin' } })`, which any signed-in user, an anonymous
 * one too, may send): the key the model trusts in app_metadata (`role`, under
 * `claims.appMetadataRole: users.role`) with the value of a more privileged caller, one of
 * settings.adminRoles (in the model's words, as app_metadata.role's). Decided by the id's
 * third-last hex digit (1–4: about one person in four), as isAnonymousId is, so no random value is
 * drawn. The reference trusts no user_metadata, so a policy or function that does (Supabase's lint
 * 0015 rls_references_user_metadata) meets a caller it grants what the model refuses.
 */
export function adversarialUserMetadata(id: string, settings: Pick<ModelSettings, 'adminRoles'>): Record<string, Json> | undefined {
  const digit = Number.parseInt(id.at(-3) ?? '', 16);
  if (!(digit >= 1 && digit <= 4) || settings.adminRoles.length === 0) return undefined;
  return { role: settings.adminRoles[(digit - 1) % settings.adminRoles.length] };
}

/**
 * The case with every person's own user_metadata (adversarialUserMetadata): in each signed-in
 * caller's token (`user_metadata`, supabase/auth's copy of raw_user_meta_data) and in their
 * auth.users row (`raw_user_meta_data`, which a function may read instead). One place for every
 * rule's cases (withTokenClaimsOf), wherever their people were made. A lifecycle case (fc.commands)
 * sends the steps its commands make, left as they are.
 */
export function withOwnUserMetadata(testCase: DataCase, settings: ModelSettings): DataCase {
  if (modelRunOf(testCase)) return testCase;
  const users = testCase.world['auth.users'];
  const world = users
    ? {
        ...testCase.world,
        'auth.users': users.map((row) => {
          const set = adversarialUserMetadata(String(row.id), settings);
          return set ? { ...row, raw_user_meta_data: set } : row;
        }),
      }
    : testCase.world;
  const steps = testCase.steps.map((step) => {
    const set = step.caller.kind === 'user' ? adversarialUserMetadata(step.caller.id, settings) : undefined;
    return set ? { ...step, caller: { ...step.caller, userMetadata: set } } : step;
  });
  return { ...testCase, world, steps };
}

/** The run's oracle is a pack Oracle (RunOracle says so) for these very settings. */
export function isRunOracleFor(oracle: RunOracle<ModelSettings>, settings: ModelSettings): oracle is Oracle<ModelSettings> {
  return oracle.settings === settings;
}

/** A property whose every case (its guides', its sweep's and its narrowed forms' too) goes through withOwnUserMetadata, then withTokenClaims. */
export function withTokenClaimsOf(property: DataProperty<ModelSettings>): DataProperty<ModelSettings> {
  // The run's oracle when given (the same settings), else the reference model with the settings.
  const claimed = (cases: CasesOf<ModelSettings>): CasesOf<ModelSettings> => (settings, oracle) => {
    const own = cases(settings, oracle).map((c) => withOwnUserMetadata(c, settings));
    return !tokensFromWorld(settings) ? own : own.map((c) => withTokenClaims(c, oracle && isRunOracleFor(oracle, settings) ? oracle : referenceOracleWith(settings)));
  };
  const { narrow, guides, sweep } = property;
  return {
    ...property,
    cases: claimed(property.cases),
    ...(guides ? { guides: guides.map((g) => ({ ...g, cases: claimed(g.cases) })) } : {}),
    ...(sweep ? { sweep: sweep.map(claimed) } : {}),
    ...(narrow
      ? {
          narrow: (has: (table: string) => boolean) => {
            const narrowed = narrow(has);
            return narrowed && withTokenClaimsOf(narrowed);
          },
        }
      : {}),
  };
}
