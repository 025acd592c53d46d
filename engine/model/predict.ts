/**
 * The oracle's entry point: what the data layer must answer to one request from one caller,
 * given the world, and the world after it. The pack's models say what each table and function
 * does; the engine applies them with PostgreSQL's and PostgREST's semantics.
 */
import { apiRoleOf, type Caller } from './caller.ts';
import { predictTableRequest, type Prediction } from './engine.ts';
import { unrecorded, withBranches } from './branches.ts';
import { executeDenied } from './function-model.ts';
import { allowed, rejectedByGrant, secureReading, sqlError, type Outcome } from './outcome.ts';
import { targetName, type ApiRequest } from './request.ts';
import { embedKey } from './embed.ts';
import type { Oracle } from '../pack.ts';
import type { World } from './world.ts';
import type { Row } from './json.ts';

export type { Prediction } from './engine.ts';

/**
 * A GET rpc runs in a read-only transaction (PostgREST v12.2 Plan.hs: `InvRead → SQL.Read`): a
 * call the model sees change the world wrote, so Postgres refused its first write with 25006
 * ("cannot execute … in a read-only transaction") and nothing changed. A call that changes
 * nothing may still have run a write statement that touched no row (or nextval, or a write
 * before its refusal): 25006 is then as correct an answer as the prediction, and as secure.
 */
/**
 * `.rpc(fn, args).single()`: an answer of other than one row is 406 PGRST116 and the call's writes
 * are rolled back (PostgREST v12.2 Query.hs DbCall failNotSingular). A function returning one value
 * or row answers one row in the model's terms (a scalar `{ value }`), as PostgREST counts it 1
 * (Statements.hs prepareCall); a void function answers none to hold (`rows: null`). Alternatives
 * are held alike.
 */
function singleObjectCall(request: Extract<ApiRequest, { kind: 'rpc' }>, called: Prediction, world: World): Prediction {
  if (!request.single) return called;
  const held = (o: Outcome): Outcome => {
    const alternatives = 'orElse' in o && o.orElse ? { orElse: o.orElse.map(held) } : {};
    if ((o.kind === 'allowed' || o.kind === 'filtered') && o.rows !== null && o.rows.length !== 1) return { ...sqlError('PGRST116', `${o.rows.length} rows`), ...alternatives } as Outcome;
    return { ...o, ...alternatives } as Outcome;
  };
  const outcome = held(called.outcome);
  return { outcome, world: outcome.kind === 'error' && outcome.code === 'PGRST116' ? world : called.world };
}

function readOnlyCall(called: Prediction, world: World): Prediction {
  if (!sameWorld(called.world, world)) return { outcome: sqlError('25006', 'a write in a read-only transaction (GET)'), world };
  const o = called.outcome;
  return { outcome: { ...o, orElse: [...(('orElse' in o && o.orElse) || []), sqlError('25006', 'a write in a read-only transaction (GET)')] } as Outcome, world: called.world };
}

/**
 * The same rows in every table, whatever the order of rows and of their keys. A table both worlds
 * hold as the same array (every table a call did not write) is the same: only the others are put
 * in canonical form, not the whole world twice.
 */
export function sameWorld(a: World, b: World): boolean {
  if (a === b) return true;
  const held = (w: World) => Object.keys(w).filter((t) => w[t].length > 0);
  const tables = held(a);
  if (tables.length !== held(b).length) return false;
  const canon = (rows: Row[]) => rows.map((r) => JSON.stringify(Object.keys(r).sort().map((k) => [k, r[k]]))).sort().join('|');
  return tables.every((t) => a[t] === b[t] || (b[t] !== undefined && b[t].length > 0 && canon(a[t]) === canon(b[t])));
}

/**
 * The secure reading of a call to a function the target keeps, under the model's name, only in a
 * schema the API does not expose (stranger-app-3's resolvers in `private`): PostgREST finds no such
 * function and refuses every caller (PGRST202), which is what a rule that it be refused asks (R15).
 */
export const FUNCTION_OUTSIDE_API = 'function-outside-api-refused';

function orUnexposedRefused(oracle: Oracle, request: ApiRequest, outcome: Outcome): Outcome {
  if (request.kind !== 'rpc' || !oracle.unexposedFunctions?.includes(targetName(request))) return outcome;
  return { ...outcome, orElse: [...(outcome.orElse ?? []), secureReading(FUNCTION_OUTSIDE_API, sqlError('PGRST202', `${targetName(request)} is in no schema the API exposes`))] } as Outcome;
}

/** The model's answer, with the branches it took on the way (branches.ts). */
export function predict(oracle: Oracle, world: World, caller: Caller, request: ApiRequest): Prediction {
  const filling = callerFilling(oracle, caller, request);
  const { value, branches } = withBranches(() => predictRequest(oracle, world, caller, filling.request));
  const outcome = orUnexposedRefused(oracle, request, maxRowsCap(request, value.outcome, oracle.maxRows));
  return { ...value, outcome: filling.columns ? orSpoofRefused(oracle, world, caller, request, filling.columns, outcome) : outcome, branches };
}

/**
 * A signed-in caller's INSERT as the target stores it (Oracle.callerFilled): the columns its
 * trigger fills from auth.uid() hold the caller, whatever the body sent. Only the model's copy:
 * the request goes out as drawn, so a target that keeps a forged owner disagrees.
 */
export function callerFilledRequest(oracle: Oracle, caller: Caller, request: ApiRequest): ApiRequest {
  return callerFilling(oracle, caller, request).request;
}

/** callerFilledRequest, with the columns it filled (none: the request as it is). */
function callerFilling(oracle: Oracle, caller: Caller, request: ApiRequest): { request: ApiRequest; columns?: readonly string[] } {
  const columns = request.kind === 'insert' && caller.kind === 'user' ? oracle.callerFilled?.[targetName(request)] : undefined;
  if (!columns?.length || request.kind !== 'insert' || caller.kind !== 'user') return { request };
  return { request: { ...request, rows: request.rows.map((r) => ({ ...r, ...Object.fromEntries(columns.map((c) => [c, caller.id])) })) }, columns };
}

/** The secure reading orSpoofRefused accepts (named in the run's note and near a failure). */
export const FORGED_OWNER_REFUSED = 'forged-owner-refused';

/**
 * A body naming another owner in a caller-filled column: refusing it as the rules refuse the
 * forged row (a trigger that fills only a null, behind a policy that checks) is as secure as
 * storing it as the caller's; storing the forged owner is neither.
 */
function orSpoofRefused(oracle: Oracle, world: World, caller: Caller, drawn: ApiRequest, columns: readonly string[], outcome: Outcome): Outcome {
  if (drawn.kind !== 'insert' || caller.kind !== 'user') return outcome;
  // An omitted or null owner is filled by either trigger: one reading only.
  const forged = drawn.rows.some((r) => columns.some((c) => r[c] !== undefined && r[c] !== null && r[c] !== caller.id));
  if (!forged) return outcome;
  const asSent = unrecorded(() => predictRequest(oracle, world, caller, drawn)).outcome;
  if (asSent.kind === 'allowed' || asSent.kind === 'filtered') return outcome;
  return { ...outcome, orElse: [...(outcome.orElse ?? []), secureReading(FORGED_OWNER_REFUSED, asSent)] } as Outcome;
}

/**
 * db-max-rows (PostgREST v12.2 Plan.hs treeRestrictRange, lines 453-459): every node of a read
 * plan (a GET, an embed's subquery, an rpc's result) gets LIMIT n; a write's is left alone
 * (`ActRelationMut → Right request`), RETURNING every row. Without an `order=` any n of the rows
 * is the answer (`upTo`, compare.ts); with one (top level or an embed's), its first n in that
 * order (compare.ts fitsUpTo). A function whose one JSON value is an array is
 * not a set and not limited: its full answer is as correct.
 */
export function maxRowsCap(request: ApiRequest, outcome: Outcome, maxRows: number | undefined): Outcome {
  if (maxRows === undefined || outcome.kind !== 'allowed' || !outcome.rows || (request.kind !== 'select' && request.kind !== 'rpc')) return outcome;
  const embeds = request.kind === 'select' ? (request.embeds ?? []).map(embedKey) : [];
  const over = outcome.rows.length > maxRows || outcome.rows.some((r) => embeds.some((e) => Array.isArray(r[e]) && (r[e] as unknown[]).length > maxRows));
  if (!over) return outcome;
  const capped: Outcome = { ...outcome, affected: Math.min(outcome.affected, maxRows), upTo: maxRows };
  return request.kind === 'rpc' ? { ...capped, orElse: [...(outcome.orElse ?? []), allowed(outcome.rows, outcome.affected)] } : capped;
}

/**
 * A grant refusal of a function, with what its body answers this caller where the body changes
 * nothing (the model's functions fail closed for a caller with no role, §7): a target keeping
 * Supabase's default EXECUTE answers that instead. A body that would write is left out: only the
 * grant stops it, so nothing but the refusal is secure. Asked unrecorded: no branch of it ran.
 */
function withBodyAnswerOf(denied: Outcome, body: () => Prediction, world: World): Outcome {
  if (denied.kind !== 'rejected') return denied;
  let answered: Prediction;
  try {
    answered = body();
  } catch {
    // A pack's body written for the callers its grant lets in (a uid it takes as set) may throw for
    // another: no answer past the grant, and the grant's refusal stands alone, never a harness error.
    return denied;
  }
  return sameWorld(answered.world, world) ? { ...denied, bodyAnswer: answered.outcome } : denied;
}

/**
 * The secure reading of EXECUTE withheld from a caller the function shows nothing to: where the
 * model's body changes nothing and answers this caller nothing (no rows, a refusal in its answer)
 * or refuses them with a refusal whose text the spec does not name, a target that does not let
 * the caller call it at all (42501 from the grant: `get_vs_linked_context` revoked from anon,
 * stranger-app-9) refuses as much. A caller the body shows rows to, a write, or a refusal the spec
 * names (rule 20's NOT_AUTHORIZED, Refusal.source) keeps the model's answer alone.
 */
export const EXECUTE_WITHHELD = 'execute-withheld-where-nothing-shown';

/**
 * The secure reading of a call PostgREST refuses to resolve (300 PGRST203: two overloads of the
 * function take the call's keys alike, Plan.hs findProc AmbiguousRpc): neither runs, so where the
 * model's answer changes nothing and shows this caller nothing (as EXECUTE_WITHHELD), or refuses by
 * the grant, the ambiguity refuses as much. Where the model shows rows or changes the world, the
 * spec's function (§4.2, called by its named parameters) cannot be called at all: a finding, never a
 * dropped case (every call of it would be dropped, and the function never tested).
 */
export const AMBIGUOUS_OVERLOADS_REFUSED = 'ambiguous-overloads-where-nothing-shown';

function ambiguousOverloads(name: string): Outcome {
  return secureReading(AMBIGUOUS_OVERLOADS_REFUSED, sqlError('PGRST203', `two overloads of ${name} take the call alike (PostgREST cannot choose)`));
}

function orExecuteWithheld(caller: Caller, name: string, called: Prediction, world: World): Prediction {
  const o = called.outcome;
  if (!sameWorld(called.world, world)) return called;
  const nothingShown = o.kind === 'filtered' || (o.kind === 'allowed' && (o.rows === null || o.rows.length === 0));
  const ownRefusal = (o.kind === 'raised' && !o.refusal?.source) || (o.kind === 'rejected' && o.by === 'policy');
  if (!nothingShown && !ownRefusal) return called;
  // The server role is never withheld EXECUTE (rule 16), but overloads are ambiguous to every caller alike.
  const readings = caller.kind === 'service' ? [ambiguousOverloads(name)] : [secureReading(EXECUTE_WITHHELD, rejectedByGrant(`execute on ${name}`)), ambiguousOverloads(name)];
  return { ...called, outcome: { ...o, orElse: [...(o.orElse ?? []), ...readings] } as Outcome };
}

function predictRequest(oracle: Oracle, world: World, caller: Caller, request: ApiRequest): Prediction {
  const { model, settings } = oracle;
  if (request.kind === 'rpc') {
    const name = targetName(request);
    const fn = model.functions[name];
    if (!fn) return { outcome: sqlError('PGRST202', `the model has no function ${name}`), world };
    const denied = executeDenied(fn, apiRoleOf(caller));
    if (denied) {
      const refused = withBodyAnswerOf(denied, () => unrecorded(() => fn.predict(world, caller, request.args, settings)), world);
      return { outcome: { ...refused, orElse: [...(refused.orElse ?? []), ambiguousOverloads(name)] } as Outcome, world };
    }
    const called = singleObjectCall(request, fn.predict(world, caller, request.args, settings), world);
    return orExecuteWithheld(caller, name, request.get ? readOnlyCall(called, world) : called, world);
  }
  const name = targetName(request);
  const table = model.tables[name];
  if (!table) return { outcome: sqlError('42P01', `the model has no table ${name}`), world };
  return predictTableRequest(table, world, caller, request, settings, model.tables, oracle.maxRows, oracle.foreignKeyActions);
}
