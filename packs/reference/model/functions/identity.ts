/**
 * The person model (rules 17, 20 and the identity-gated functions).
 *
 * A person is a student record: person_id = student_records.id. A signed-in caller is the person
 * whose record is keyed by their user id (settings.students.personLink `user-id`), or by default
 * whose record's e-mail equals the e-mail of the caller's auth identity (auth.users.email, which
 * no API caller can edit), compared as Postgres' lower(trim(…)). Everything that asks "who is the
 * caller" — my_person_id(), get_my_student_record, sync_my_team_permissions — starts from the
 * auth identity, never from a column the caller can edit (users.email, users.display_name, …).
 * No session, no auth e-mail or no matching record: no person (fails closed).
 */
import { callerUid } from '../../../../engine/model/caller.ts';
import type { FunctionModel } from '../../../../engine/model/function-model.ts';
import type { Json } from '../../../../engine/model/json.ts';
import { allowed, rejectedByGrant, secureReading } from '../../../../engine/model/outcome.ts';
import type { RuleContext } from '../../../../engine/model/table-model.ts';
import { rowsOf } from '../../../../engine/model/world.ts';
import { decide, take } from '../branches.ts';

/** Postgres lower(trim(x)) on ASCII e-mails: trim removes spaces only. */
export function normalizedEmail(value: Json | undefined): string | null {
  return typeof value === 'string' ? value.replace(/^ +| +$/g, '').toLowerCase() : null;
}

export function sameEmail(a: Json | undefined, b: Json | undefined): boolean {
  const x = normalizedEmail(a);
  return x !== null && x === normalizedEmail(b);
}

/** What made two e-mails that are sameEmail equal (a model branch): as written, only case, or only once trimmed. */
export function emailMatchKind(stored: Json | undefined, given: string): 'exact' | 'case-only' | 'trim' {
  return stored === given ? 'exact' : String(stored).toLowerCase() === given.toLowerCase() ? 'case-only' : 'trim';
}

/** The e-mail of the caller's auth identity (auth.users), or of their users row (settings.students.callerEmail), or null. */
export function authEmail(ctx: RuleContext): string | null {
  if (ctx.uid === null) return take('R20.person.no-session'), null;
  const from = ctx.settings.students.callerEmail === 'users-row' ? 'users' : 'auth.users';
  const row = rowsOf(ctx.world, from).find((u) => u.id === ctx.uid);
  return decide(typeof row?.email === 'string', 'R17.auth.email', 'R17.auth.no-identity') ? (row!.email as string) : null;
}

/** my_person_id(): the id of the caller's student record, or null (linked as settings.students.personLink says). */
export function myPersonId(ctx: RuleContext): string | null {
  if (ctx.settings.students.personLink === 'user-id') {
    if (ctx.uid === null) return take('R20.person.no-session'), null;
    return rowsOf(ctx.world, 'student_records').some((s) => s.id === ctx.uid) ? ctx.uid : null;
  }
  const email = authEmail(ctx);
  if (email === null) return null;
  const record = rowsOf(ctx.world, 'student_records').find((s) => sameEmail(s.email, email));
  take(record === undefined ? 'R18.email.no-record' : `R18.email.${emailMatchKind(record.email, email)}`);
  return typeof record?.id === 'string' ? record.id : null;
}

export function ruleContext(world: RuleContext['world'], caller: RuleContext['caller'], settings: RuleContext['settings']): RuleContext {
  return { world, caller, uid: callerUid(caller), settings };
}

/** A scalar function's answer as the checker reads it back: one `{value}`, null included (PostgREST answers 200 `null`). */
export function scalarAnswer(value: Json) {
  return allowed([{ value }], 1);
}

export const myPersonIdFunction: FunctionModel = {
  name: 'my_person_id',
  args: [],
  executableBy: ['anon', 'authenticated', 'service_role'],
  valueSettings: { value: 'students.personLink, students.callerEmail' },
  predict(world, caller, _args, settings) {
    const answer = scalarAnswer(myPersonId(ruleContext(world, caller, settings)));
    // The spec names no grant for this helper: for anon, whose answer is "no person", refusing
    // by EXECUTE grant (as rule 15 asks of private helpers) is as secure.
    return { outcome: caller.kind === 'anon' ? { ...answer, orElse: [secureReading('my-person-id-refused-to-anon', rejectedByGrant('execute on my_person_id'))] } : answer, world };
  },
};

export const identityFunctions: FunctionModel[] = [myPersonIdFunction];
