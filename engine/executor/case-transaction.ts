/**
 * One case on one connection: fixtures written by the privileged server context, then each
 * request as PostgREST would run it, then everything rolled back.
 *
 * PostgREST gives every request its own transaction: whatever it set transaction-locally (the
 * role, request.jwt.claims, read-only for GET, and any set_config(name, value, true) a function
 * made, whatever the name) ends with it, and deferred constraints fire at its end. Here the case
 * is one transaction and each request one savepoint, made to end the same way:
 * - the request's message ends with SET CONSTRAINTS ALL IMMEDIATE (what PostgREST sends before a
 *   tx=rollback end), so a deferred violation is that request's error (left out where the
 *   database has no deferrable constraint: nothing could be deferred);
 * - a failed request, a GET, or a call to a STABLE/IMMUTABLE function is rolled back to its
 *   savepoint, settings and constraint modes with it;
 * - a kept write is released, then RESET ROLE and RESET ALL return every setting, named or not,
 *   to its session value, and the initially deferred constraints are deferred again.
 * What PostgREST's pooled connection would carry to the next request (a session-level setting, a
 * prepared statement, a holdable cursor, a temporary table) is read by a probe right after the
 * request's statement, when the catalog has functions that can leave any (session-state.ts).
 *
 * The connection is pipelined (batch-query.ts): each request is its own message, all written at
 * once when the case's requests are known, so a refused request ends only its own message and the
 * next request still runs; the lane's next case can be written behind them before any answer comes
 * back (runPlanned). The case's opening statements (the previous case's rollback, BEGIN, the
 * fixtures) lead its first request's message: a refused fixture ends it before the request, which
 * could not run without them anyway, and each message saved is a round of protocol work for both
 * the database and Node.
 */
import type pg from 'pg';
import { Writable } from 'node:stream';
import { sendBatch, type BatchResult } from './batch-query.ts';
import type { Caller } from '../model/caller.ts';
import type { Json } from '../model/json.ts';
import type { ApiRequest } from '../model/request.ts';
import { FixtureError, QUERY_CANCELED, UNNAMED_FIXTURE } from '../errors.ts';
import { sqlRoutedTables } from '../mapping/mapping.ts';
import { REFERENCE_PLAN, type FixturePlan, type FixtureStatement } from '../target/fixtures.ts';
import { apiRole, credentialsFor, credentialTexts } from './credentials.ts';
import { postgrestErrorAnswer } from './http-status.ts';
import type { ApiResponse } from './response.ts';
import { sentOutsideApi, type SchemaCache } from './schema-cache.ts';
import { ident, inlineSql, SqlParams, type ParameterizedSql } from './sql-text.ts';
import { buildStatement, maxAffectedOf, type Statement } from './statement.ts';
import { PreparedStatements } from './prepared-statements.ts';
import { splitStatements } from '../db/sql-statements.ts';
import { leftBehindFrom, sessionProbeSql } from './session-state.ts';
import type { Executor, PlannedRequest } from './executor.ts';

/**
 * Cases between two VACUUMs of the tables they wrote (one costs about a millisecond). Every case's
 * rows are rolled back, which leaves them as dead tuples: without a VACUUM the tables and their
 * indexes grow for the whole run and every scan slows down (measured: +25% of the database's time
 * per case after 18,000 cases of R02).
 */
export const VACUUM_EVERY = 500;

const METHOD: Record<ApiRequest['kind'], string> = { select: 'GET', insert: 'POST', update: 'PATCH', delete: 'DELETE', rpc: 'POST' };
/**
 * Opens a case's next request: undoes the previous one back to its savepoint (a failed request or
 * a read whole; after a kept write, the fresh savepoint it ended with: nothing). The savepoint
 * outlives its rollback, so the next request runs in it: no release and new savepoint needed.
 */
const NEXT_REQUEST = 'rollback to savepoint pf_request';
const FIRST_REQUEST = 'savepoint pf_request';

/** The table a database error names, when it names one. */
function refusedTable(e: unknown): string | undefined {
  return (e as { table?: string }).table;
}

/**
 * Data exceptions only a target's own expression raises on a well-formed row (a CHECK's regex
 * Postgres cannot compile, a division by zero, a bad LIKE escape, a negative power): every other
 * 22xxx may be a value the harness wrote wrong, and stays a harness error.
 */
const TARGET_EXPRESSION_FAULTS = new Set(['2201B', '22012', '2201E', '2201F', '2201G', '22011', '22025']);

/**
 * The constraint a database error names (a NOT NULL violation names its column instead), or the
 * function that raised it: a guard written in code (a trigger refusing even the server's rows)
 * refuses a fixture as a constraint does.
 */
export function refusedBy(e: unknown): string | undefined {
  const { constraint, table, column, code, where } = e as { constraint?: string; table?: string; column?: string; code?: string; where?: string };
  if (constraint) return constraint;
  if (code === '23502' && table && column) return `${table}.${column} NOT NULL`;
  // A value the column's type cannot hold (a model id under a smallint key, a text past varchar(n)):
  // the target cannot hold the row, as under a constraint. The value left out, so drops count as one reason.
  if (code === '22003' || code === '22001') return `the column's type (${(e as Error).message.replace(/"[^"]*"/, '…')})`;
  const raisedIn = /PL\/pgSQL function ([^\s(]+)\([^)]*\) line \d+ at RAISE/.exec(where ?? '')?.[1];
  if (raisedIn) return `${raisedIn}() raising "${(e as Error).message}"`;
  // A data exception of the target's own expressions (a CHECK whose regex Postgres cannot compile,
  // `{1,300}` past its 255 limit; a division by zero in a default): no row of that shape can be held.
  if (code && TARGET_EXPRESSION_FAULTS.has(code)) return `the target's own expression (${(e as Error).message})`;
  return undefined;
}

export const ROLLBACK_REQUEST = 'rollback to savepoint pf_request; release savepoint pf_request; ';
/** Fires the request's deferred constraints, as its commit would. */
export const END_OF_REQUEST = 'set constraints all immediate';

/** What ends a write's message before it is kept or undone: END_OF_REQUEST, none where no constraint can be deferred. */
const endOfRequest = (cache: SchemaCache): string => (cache.noDeferrableConstraints ? '' : `; ${END_OF_REQUEST}`);

/**
 * Puts the initially deferred constraints back to deferred after SET CONSTRAINTS ALL IMMEDIATE
 * ('' when there are none). SET CONSTRAINTS goes by name: a DEFERRABLE INITIALLY IMMEDIATE
 * constraint sharing its schema and name with a deferred one would be deferred too.
 */
function deferAgainSql(cache: SchemaCache): string {
  return cache.initiallyDeferred.length ? `set constraints ${cache.initiallyDeferred.join(', ')} deferred` : '';
}

/** After a kept write: keep its rows, end its settings (every name) and its constraint modes. */
export function keepRequestSql(cache: SchemaCache): string {
  const deferAgain = deferAgainSql(cache);
  const sessionUser = cache.apiSessionUser ? 'reset session authorization; ' : '';
  return `release savepoint pf_request; ${sessionUser}reset role; reset all; ${deferAgain ? `${deferAgain}; ` : ''}`;
}

export interface SendOptions {
  /** A request with no JWT at all (not even the anon key): no apikey or authorization header. */
  withoutToken?: boolean;
  /** For a script run by someone else (psql repro): switch to authenticator only where the session user is a superuser, who may. */
  portableSessionUser?: boolean;
}

function requestPath(request: ApiRequest): string {
  return request.kind === 'rpc' ? `/rpc/${request.fn}` : `/${request.table}`;
}

/** The search_path PostgREST sets: the schema the request targets (Accept/Content-Profile, default the first exposed), then db-extra-search-path. */
export function requestSearchPath(cache: SchemaCache, request: ApiRequest): string {
  // A table sent as SQL (outside the exposed schemas) is named with its schema; the path stays the default request's.
  const target = request.schema && !sentOutsideApi(cache, request) ? request.schema : cache.exposedSchemas[0];
  return [...new Set([target, ...cache.extraSearchPath])].map(ident).join(', ');
}

/**
 * A read's transaction mode, set with its settings: what `set local transaction_read_only = on`
 * does, one statement fewer per read. Turning read-only on is allowed at any point of a
 * transaction (only turning it off is checked), and it binds from the next statement on: the
 * pre-request function and the request's statement, as PostgREST's READ ONLY transaction does.
 */
const READ_ONLY_SETTING = `, set_config('transaction_read_only', 'on', true)`;

/**
 * PostgREST's pre-request settings (one statement, prepared like the request: its values are
 * parameters). PostgREST discards what the set_config calls return; so does this statement, which
 * answers one short column instead of echoing the claims and headers back (set_config is volatile:
 * the planner keeps every call).
 */
export function preRequestQuery(caller: Caller, request: ApiRequest, cache: SchemaCache, options: SendOptions = {}, readOnly = false): ParameterizedSql {
  const creds = credentialTexts(caller, options, request, !sentOutsideApi(cache, request));
  const p = new SqlParams();
  // A token the database composes (a hook's answer, app_metadata read from auth.users) is answered back: a failure names what was sent.
  const discardingValues = (settings: string, composed: boolean) => `select 1 as pf_settings${composed ? `, ${SENT_APP_METADATA}` : ''} from (${settings}) pf_settings`;
  // The role's own settings (statement_timeout on Supabase) before the role, as Query.hs setPgLocals orders them.
  const roleSettings = (cache.roleSettings?.get(creds.role) ?? []).map(([k, v]) => `set_config(${p.bind(k)}, ${p.bind(v)}, true), `).join('');
  // PostgREST's login (session_user) before the role it switches to: setting it resets the role. A request sent as SQL passes no PostgREST.
  const login = options.portableSessionUser
    ? `case when (select rolsuper from pg_roles where rolname = session_user) then '${cache.apiSessionUser}' else session_user::text end`
    : `'${cache.apiSessionUser}'`;
  const sessionUser = cache.apiSessionUser && !sentOutsideApi(cache, request) ? `set_config('session_authorization', ${login}, true), ` : '';
  const hooked = hookedClaims(caller, cache, p, creds.claims, options.portableSessionUser === true);
  const minted = hooked ? undefined : tokenClaimsSql(caller, cache, p, creds.claims);
  return p.statement(discardingValues(
    `select set_config('search_path', ${p.bind(requestSearchPath(cache, request))}, true), ${sessionUser}${roleSettings}set_config('role', ${hooked ? hookedRole(hooked, p.bind(creds.role)) : p.bind(creds.role)}, true), ` +
      `set_config('request.jwt.claims', ${hooked?.claims ?? minted ?? p.bind(creds.claims)}, true), ` +
      `set_config('request.method', ${p.bind(request.kind === 'rpc' && request.get ? 'GET' : METHOD[request.kind])}, true), set_config('request.path', ${p.bind(requestPath(request))}, true), ` +
      `set_config('request.headers', ${p.bind(creds.headers)}, true), set_config('request.cookies', '{}', true)${readOnly ? READ_ONLY_SETTING : ''}${hooked?.from ?? ''}`,
    hooked !== undefined || minted !== undefined,
  ));
}

/** The token's app_metadata and the role as the settings just sent them (read after them: the subquery is not flattened, set_config being volatile). */
const SENT_APP_METADATA = `current_setting('request.jwt.claims', true)::jsonb -> 'app_metadata' as pf_app_metadata, current_setting('role', true) as pf_role`;

/** Where the request's settings statement sits in its message's completed statements (after the opener, if any). */
const settingsIndex = (step: Prepared) => (opensRequest(step.place) ? 1 : 0);

/**
 * The response with the token's app_metadata as the database composed it (tokens.appMetadata,
 * an access token hook), where the settings answered it: what a failure's note names as sent.
 */
function withTokenSent(step: Prepared, result: BatchResult, response: ApiResponse): ApiResponse {
  const settings = result.completed[settingsIndex(step)];
  const [, sent, role] = settings?.command.startsWith('SELECT') && settings.rows[0]?.length === 3 ? settings.rows[0] : [];
  if (sent === undefined || sent === null) return response;
  // A role other than the one the caller's token was issued with (authenticated or the caller's project
  // role for a user; an anon or service key's own, whose tokens no hook composes) is one a token hook answered.
  const hookRole = typeof role === 'string' && role !== apiRole(step.caller, step.options) ? { tokenRole: role } : {};
  return { ...response, tokenAppMetadata: (typeof sent === 'string' ? JSON.parse(sent) : sent) as Json, ...hookRole };
}

/**
 * A signed-in caller's claims on a project with a custom access token hook (SchemaCache.accessTokenHook):
 * what the hook answers for the token Auth would issue, read from the database as it stands before
 * this request (Auth calls the hook at sign-in and at each refresh; a case is taken as signed in
 * anew per request, as the model reads roles before each one). The hook runs in a FROM item, so
 * before the role and session user are switched, as supabase_auth_admin (the definer of the
 * compatibility layer's auth.policyfuzz_access_token_claims). Undefined: no hook, or no user.
 */
function hookedClaims(caller: Caller, cache: SchemaCache, p: SqlParams, claims: string, portable: boolean): { claims: string; from: string } | undefined {
  if (!cache.accessTokenHook || caller.kind !== 'user') return undefined;
  // The token the hook is given: its app_metadata from auth.users where the project says so.
  const given = `${tokenClaimsSql(caller, cache, p, claims) ?? p.bind(claims)}::jsonb`;
  // A script run elsewhere (psql repro, pgTAP) has no compatibility layer: it calls the hook itself, as the session user.
  const call = portable
    ? `(${cache.accessTokenHook.split('.').map(ident).join('.')}(jsonb_build_object('user_id', ${p.bind(JSON.parse(claims).sub)}, 'claims', ${given}, 'authentication_method', 'password')) -> 'claims')::text`
    : `auth.policyfuzz_access_token_claims(${p.bind(cache.accessTokenHook)}::regproc, ${given})`;
  // offset 0 keeps the planner from folding the call into the settings' target list.
  return { claims: 'pf_token.claims', from: ` from (select ${call} as claims offset 0) pf_token` };
}

/**
 * The role PostgREST switches to for a hooked token: the `role` claim the hook answered (Auth.hs
 * takes the role from the token Auth signed after the hook), so a hook naming a custom Postgres
 * role (`claims.role = app_metadata.role`, with `grant "editor" to authenticator`) sends its
 * requests as that role, under its grants and `pg_has_role(current_user, …)`. `issued`: the role
 * of the token as issued, where the hook answers none.
 */
function hookedRole(hooked: { claims: string }, issued: string): string {
  return `coalesce(${hooked.claims}::jsonb ->> 'role', ${issued})`;
}

/**
 * A signed-in caller's claims where the project keeps their app_metadata in auth.users
 * (SchemaCache.tokenAppMetadata = 'auth.users'): the token's `app_metadata` is the provider Auth
 * names plus the caller's `raw_app_meta_data` as it stands before this request, as Supabase Auth
 * issues it. The claims a case drew there stay under the stored ones (a stored key wins): a key the
 * project never stores (an `app_metadata.role` an admin tool wrote, drawn under the default
 * `claims.appMetadataRole: untrusted`) is still sent, so a policy trusting it is still found. A project mirroring a role, a
 * department or a tenant there by a trigger (stranger-app-10's org_id) then has each token carry
 * what the world's rows say. Read in the settings' own statement, before the role is switched.
 * Undefined: claims as drawn, or no user.
 */
function tokenClaimsSql(caller: Caller, cache: SchemaCache, p: SqlParams, claims: string): string | undefined {
  if (cache.tokenAppMetadata !== 'auth.users' || caller.kind !== 'user') return undefined;
  const drawn = `${p.bind(claims)}::jsonb`;
  const stored = `(select u.raw_app_meta_data from auth.users u where u.id = ${p.bind(JSON.parse(claims).sub)}::uuid)`;
  return `(${drawn} || jsonb_build_object('app_metadata', coalesce(${drawn} -> 'app_metadata', '{}'::jsonb) || coalesce(${stored}, '{}'::jsonb)))::text`;
}

/**
 * The call of the target's db-pre-request function (SchemaCache.preRequest), as Query.hs runPreReq
 * sends it: `select "schema"."fn"()`, its answer discarded; a function that raises refuses the
 * request with its error. Only for a request through the API: one sent as SQL passes no PostgREST.
 */
export function preRequestCall(cache: Pick<SchemaCache, 'preRequest' | 'exposedSchemas'>, request: ApiRequest): string | undefined {
  if (!cache.preRequest || sentOutsideApi(cache, request)) return undefined;
  // Identifiers.hs toQi: the schema up to the first dot, the name after it.
  const dot = cache.preRequest.indexOf('.');
  const name = dot < 0 ? ident(cache.preRequest) : `${ident(cache.preRequest.slice(0, dot))}.${ident(cache.preRequest.slice(dot + 1))}`;
  return `select ${name}()`;
}

export function preRequestSql(caller: Caller, request: ApiRequest, cache: SchemaCache, options: SendOptions = {}): string {
  return inlineSql(preRequestQuery(caller, request, cache, options));
}

type SqlStatement = Exclude<Statement, { refusal: unknown }>;

/**
 * After a single-object write (Accept: application/vnd.pgrst.object+json): PostgREST's
 * failNotSingular (Query.hs) condemns the transaction when the write's page_total is not 1. The
 * statement kept its count (statement.ts SINGULAR_TOTAL); this fails the request's message
 * then, so the write is rolled back like any failed request and answered 406 PGRST116.
 */
export const SINGULAR_CHECK = `do $pf$ begin if current_setting('policyfuzz.singular_total', true) is distinct from '1' then raise exception 'policyfuzz: a single-object write affected other than one row' using errcode = 'PF116'; end if; end $pf$`;

/** The same for `Prefer: handling=strict, max-affected=n` (Query.hs failExceedsMaxAffectedPref): more than n rows. */
export function maxAffectedCheck(n: number): string {
  return `do $pf$ begin if current_setting('policyfuzz.singular_total', true)::bigint > ${Math.trunc(n)} then raise exception 'policyfuzz: a write affected more rows than max-affected' using errcode = 'PF124'; end if; end $pf$`;
}

/** Held to one row after the statement: a single-object write, or a set-returning call sent for one object (a read-only one too: its answer is 406 all the same). */
const singularWrite = (statement: SqlStatement) => (statement.shape === 'single' && !statement.readOnly) || statement.singularCall === true;

/**
 * Where a request's message sits in its case. `after`: a request of the case went before it (its
 * message opens by undoing that one, NEXT_REQUEST). `last`: no request of the case follows it,
 * and the case's rollback ends it (runPlanned): it needs no savepoint to be undone to, and a kept
 * write nothing to end its settings for a next request.
 */
export interface RequestPlace {
  after: boolean;
  last: boolean;
}

/** Whether the message opens with a savepoint or the undo of the request before it (a case's only request needs neither). */
const opensRequest = (place: RequestPlace) => place.after || !place.last;

/**
 * One request's message: a savepoint (for a case's later request, `after`: the previous request
 * undone back to its savepoint, NEXT_REQUEST), PostgREST's pre-request settings (read-only mode
 * among them for reads), the statement (each as `sqlFor` sends it, prepared or not), and for a
 * write the end-of-request constraint check and what a kept write gets: its rows kept, its
 * settings (every name) and constraint modes ended, and a fresh savepoint. The next request's undo
 * then rolls back to that fresh savepoint (nothing) after a kept write, or to the request's own
 * after a failure or a read: the same text either way, so a request's message never depends on the
 * answer before it. The case's last request leaves out what only a next request needs (RequestPlace).
 */
export function requestMessage(
  caller: Caller,
  request: ApiRequest,
  statement: SqlStatement,
  cache: SchemaCache,
  options: SendOptions,
  sqlFor: (query: ParameterizedSql, runsAs?: string) => string,
  place: RequestPlace,
): string {
  const opener = place.after ? `${NEXT_REQUEST}; ` : opensRequest(place) ? `${FIRST_REQUEST}; ` : '';
  const kept = statement.readOnly ? '' : place.last ? endOfRequest(cache) : `${endOfRequest(cache)}; ${keepRequestSql(cache)}savepoint pf_request`;
  // What the request left for the next one on a pooled connection, read before anything ends it.
  const probe = cache.sessionState ? `; ${sqlFor(new SqlParams().statement(sessionProbeSql(cache.sessionState)))}` : '';
  const max = maxAffectedOf(request);
  const singular = (singularWrite(statement) ? `; ${SINGULAR_CHECK}` : '') + (max !== undefined ? `; ${maxAffectedCheck(max)}` : '');
  // After the settings (a read's read-only mode among them): PostgREST opens a read's transaction read-only before it calls the function.
  const hook = preRequestCall(cache, request);
  return `${opener}${sqlFor(preRequestQuery(caller, request, cache, options, statement.readOnly))}${hook ? `; ${hook}` : ''}; ${sqlFor(statement.query, apiRole(caller, options))}${probe}${singular}${kept}`;
}

/** Where the request's own statement (the one answering page_total, body) sits in the message's completed statements. */
const mainIndex = (step: Prepared) => (opensRequest(step.place) ? 1 : 0) + 1 + (preRequestCall(step.cache, step.request) ? 1 : 0);

interface Prepared {
  cache: SchemaCache;
  caller: Caller;
  request: ApiRequest;
  options: SendOptions;
  statement: SqlStatement;
  place: RequestPlace;
}

/** A database error as PostgREST answers it. */
function errorResponse(err: pg.DatabaseError, caller: Caller, options: SendOptions): ApiResponse {
  const { status, body } = postgrestErrorAnswer({ code: err.code!, message: err.message, details: err.detail ?? null, hint: err.hint ?? null }, credentialsFor(caller, options).role);
  return { status, body, affected: null, error: body, ...(err.routine ? { routine: err.routine } : {}) };
}

/** What PostgREST answers without asking the database. */
function refusalResponse(statement: Extract<Statement, { refusal: unknown }>): ApiResponse {
  const { status, code, message, details, hint } = statement.refusal;
  const error = { code, message, details: details ?? null, hint: hint ?? null };
  return { status, body: error, affected: null, error };
}

/**
 * A request's answer from its message's result. A failure after the request's savepoint is the
 * request's (PostgREST rolls it back, as the next message does); one before it is the harness's.
 */
function requestAnswer(step: Prepared, result: BatchResult): ApiResponse {
  return withTokenSent(step, result, answerOf(step, result));
}

function answerOf(step: Prepared, result: BatchResult): ApiResponse {
  if (result.error) {
    throwIfConnectionEnded(result.error);
    if (!requestOpened(step, result)) throw new Error(`harness: a request's message failed before its savepoint (${result.error.message})`);
    const main = result.completed[mainIndex(step)];
    if (result.error.code === 'PF116' && singularWrite(step.statement) && main) {
      const affected = Number(main.rows[0][0]);
      const error = { code: 'PGRST116', message: 'JSON object requested, multiple (or no) rows returned', details: `The result contains ${affected} rows`, hint: null };
      return { status: 406, body: error, affected, error };
    }
    if (result.error.code === 'PF124' && maxAffectedOf(step.request) !== undefined && main) {
      const affected = Number(main.rows[0][0]);
      const error = { code: 'PGRST124', message: 'Query result exceeds max-affected preference constraint', details: `The query affects ${affected} rows`, hint: null };
      return { status: 400, body: error, affected, error };
    }
    return errorResponse(result.error, step.caller, step.options);
  }
  const main = mainIndex(step);
  const [pageTotal, body, inserted] = result.completed[main].rows[0];
  const response = shapeResponse(step.request, step.statement, Number(pageTotal), body === null ? null : (JSON.parse(body) as Json), inserted);
  const watch = step.cache.sessionState;
  if (!watch) return response;
  const leftBehind = leftBehindFrom(watch, result.completed[main + 1].rows[0][0]);
  return leftBehind.length ? { ...response, leftBehind } : response;
}

/**
 * Whether the request's message got as far as the request: past its opener (SAVEPOINT, or ROLLBACK
 * to it: NEXT_REQUEST); with none (a case's only request), unless the transaction was aborted
 * before the message (25P02 on its first statement: the fixtures were refused).
 */
function requestOpened(step: Prepared, result: BatchResult): boolean {
  if (!opensRequest(step.place)) return result.completed.length > 0 || result.error?.code !== '25P02';
  const first = result.completed[0]?.command;
  return first === 'SAVEPOINT' || first === 'ROLLBACK';
}

/**
 * A FATAL error ends the session (the server shut down, the backend was terminated): no request
 * answered it, so it is the harness's error, never an answer to compare.
 */
function throwIfConnectionEnded(error: pg.DatabaseError): void {
  if (error.severity === 'FATAL' || error.severity === 'PANIC') throw new Error(`the database connection ended: ${error.message} (${error.code})`);
}

/** The connection's socket (pg keeps it as connection.stream), when it has one to cork. */
function socketOf(client: pg.Client): Writable | undefined {
  const stream = (client as unknown as { connection?: { stream?: unknown } }).connection?.stream;
  return stream instanceof Writable ? stream : undefined;
}

/**
 * A case's opening statements (the previous case's rollback, BEGIN, the fixtures): `statements`
 * of them, each completing as one (a fixture's PREPARE is not counted: batch-query.ts). Written
 * at the front of the first request's message when one goes to the database; `opened` is then
 * their part of its answer.
 */
interface CaseHead {
  sql: string;
  statements: number;
  opened?: Promise<BatchResult>;
}

/** How many statements the server runs for `sql`: one, unless its text holds a semicolon outside quotes. */
const statementCount = (sql: string): number => (sql.includes(';') ? Math.max(1, splitStatements(sql).length) : 1);

/** The opening statements' part of a message that also carries a request: failed if one of them did. */
function headPart(result: BatchResult, statements: number): BatchResult {
  if (result.completed.length >= statements) return { completed: result.completed.slice(0, statements), prepared: result.prepared };
  if (!result.error) throw new Error(`harness: a case's opening message completed ${result.completed.length} of its ${statements} statements with no error`);
  return result;
}

/** The request's part of a message the case's opening statements began (they all completed, or the request is never judged: headPart failed). */
function requestPart(result: BatchResult, statements: number): BatchResult {
  return { ...result, completed: result.completed.slice(statements) };
}

/**
 * A case opened with begin(): answers of its planned requests still to hand out, whether a request
 * of it went to the database, and its opening still being written (settled once begin() is done
 * writing, its fixtures row by row included: what flush() waits for).
 */
interface OpenCase {
  answered: { caller: Caller; request: ApiRequest; response: ApiResponse }[];
  requestSent: boolean;
  opening?: Promise<unknown>;
}

/**
 * The connection holds one case opened with begin() at a time, until its end(): a case written
 * beside it would share its transaction, or roll it back between its statements.
 */
function stillOpenError(what: string): Error {
  return new Error(`harness: ${what} while a case opened with begin() was still open on the connection (its end() not called yet); nothing of it was written`);
}

export class CaseTransaction implements Executor {
  /** The case opened by begin() and not ended yet (runPlanned cases keep no state here). */
  private current: OpenCase | undefined;
  /** A case's transaction may be open on the connection: the next case starts with a rollback. */
  private pendingRollback = false;
  /** Request and fixture shapes prepared on this connection. */
  private readonly prepared = new PreparedStatements();
  /** Tables outside the exposed schemas that the mapping sends as SQL (`via: "sql"`). */
  private readonly sqlRouted: ReadonlySet<string>;
  /** Tables the cases since the last VACUUM wrote (their rolled-back rows are dead tuples). */
  private readonly written = new Set<string>();
  private casesSinceVacuum = 0;

  constructor(
    private readonly client: pg.Client,
    /** The catalog it sends by (the failure note reads what reads user_metadata from it). */
    readonly cache: SchemaCache,
    /** How fixtures are written into this database (the reference one, or a project's own). */
    readonly fixturePlan: FixturePlan = REFERENCE_PLAN,
  ) {
    this.sqlRouted = sqlRoutedTables(fixturePlan.mapping);
  }

  /**
   * Opens the case and writes its fixtures as the server context (superuser, null auth.uid()).
   * `perRow` is asked for only when the fixtures were refused, to name the refused row. `ahead`:
   * the requests the case will send, in order; they are written at once, and send() must then
   * be given these very request objects, in this order.
   */
  async begin(fixtures: FixtureStatement[], perRow: () => FixtureStatement[] = () => fixtures, ahead: readonly PlannedRequest[] = []): Promise<void> {
    if (this.current) throw stillOpenError('a case was opened');
    const open: OpenCase = { answered: [], requestSent: false };
    this.current = open;
    const answers = this.writeCase(fixtures, perRow, ahead);
    open.opening = answers.responses.catch(() => {});
    const responses = await answers.responses;
    open.answered = ahead.map(({ caller, request }, k) => ({ caller, request, response: responses[k] }));
    open.requestSent = answers.requestSent;
  }

  /**
   * A case whose requests are all known: written at once, and the connection is free for the next
   * case as soon as this returns (it goes out behind this one; its rollback ends this one). The
   * answers, in order, or the FixtureError naming the table and constraint that refused a fixture.
   */
  runPlanned(fixtures: FixtureStatement[], perRow: () => FixtureStatement[], ahead: readonly PlannedRequest[]): Promise<ApiResponse[]> {
    if (this.current) return Promise.reject(stillOpenError('a planned case was run'));
    return this.writeCase(fixtures, perRow, ahead, true).responses;
  }

  /**
   * Writes the case's messages without waiting: the previous case's rollback and, when due, a
   * VACUUM; the fixtures; each planned request. If the fixtures were refused, the requests'
   * messages were refused too (aborted transaction). Opened alone (begin), the refused row is
   * found, and if the rows go in one by one the requests are written again after them; pipelined
   * (runPlanned), the database's error names the refusal (the next case is already behind it).
   */
  private writeCase(fixtures: FixtureStatement[], perRow: () => FixtureStatement[], ahead: readonly PlannedRequest[], pipelined = false): { responses: Promise<ApiResponse[]>; requestSent: boolean } {
    // The case's messages leave in one write (writev) instead of one system call each: a case
    // sends several, and the calls cost more of the harness's time than building the messages.
    const socket = socketOf(this.client);
    socket?.cork();
    try {
      return this.writeCaseMessages(fixtures, perRow, ahead, pipelined);
    } finally {
      socket?.uncork();
    }
  }

  private writeCaseMessages(fixtures: FixtureStatement[], perRow: () => FixtureStatement[], ahead: readonly PlannedRequest[], pipelined: boolean): { responses: Promise<ApiResponse[]>; requestSent: boolean } {
    const before: Promise<BatchResult>[] = [];
    let rollback = this.pendingRollback;
    if (++this.casesSinceVacuum >= VACUUM_EVERY && this.written.size) {
      // VACUUM runs outside a transaction and alone in its message.
      if (rollback) before.push(this.write('rollback'));
      rollback = false;
      before.push(this.write(`vacuum ${[...this.written].join(', ')}`));
      this.written.clear();
      this.casesSinceVacuum = 0;
    }
    this.pendingRollback = true;
    // Fixtures stand for committed rows: their deferred constraints are checked now, not by the first request.
    const committed = this.cache.initiallyDeferred.length ? [END_OF_REQUEST, deferAgainSql(this.cache)] : [];
    const reset = this.prepared.takeReset();
    for (const f of fixtures) if (f.target) this.written.add(f.target);
    const statements = [...(rollback ? ['rollback'] : []), ...(reset ? [reset] : []), 'begin', ...fixtures.map((f) => (f.query ? this.prepared.sqlFor(f.query) : f.sql)), ...committed];
    // The request's answers follow the head's in one message: counted as the server cuts them (a fixture's own text may hold several).
    // (A PREPARE the prepared statements add answers apart: result.prepared, not a completed statement.)
    const extra = fixtures.reduce((n, f) => n + (f.query ? 0 : statementCount(f.sql) - 1), 0);
    const head: CaseHead = { sql: statements.join(';\n'), statements: statements.length + extra };
    const answers = this.writeRequests(ahead, pipelined, head);
    // Written with the first request's message (writeRequests), or alone when no request goes to the database.
    const opened = head.opened ?? this.write(head.sql);
    // A request that reached the database leaves a savepoint the next one undoes first.
    const requestSent = answers.some((a) => a instanceof Promise);
    // A dead connection rejects every message at once: each is awaited below in turn, and the first rejection is what the caller gets.
    for (const m of [...before, opened, ...answers]) if (m instanceof Promise) m.catch(() => {});
    const responses = (async () => {
      for (const b of before) {
        const { error } = await b;
        if (error) throw error;
      }
      const { error } = await opened;
      if (!error) return Promise.all(answers);
      throwIfConnectionEnded(error);
      // The requests' messages ran in the aborted transaction: their answers mean nothing.
      // Written behind by now, the next case starts with its own rollback: anything sent here would
      // land inside it (its fixtures refused in turn by a transaction this one aborted). The refusal
      // is named by the database's error alone. So is a cancelled batch (a statement timeout, the
      // interrupt): written again row by row, the statement that hung would hang as long again.
      if (pipelined || (error as { code?: string }).code === QUERY_CANCELED) {
        const table = refusedTable(error);
        throw new FixtureError(`${table ? `fixture for ${table}` : 'fixtures'} refused: ${error.message}`, table ?? UNNAMED_FIXTURE, null, refusedBy(error), (error as { code?: string }).code);
      }
      await this.fixturesRowByRow(perRow, committed);
      return Promise.all(this.writeRequests(ahead, false));
    })();
    return { responses, requestSent };
  }

  /** After the fixtures were refused as a batch: rolls back and writes them row by row, so the report names the table, the row and the message. */
  private async fixturesRowByRow(perRow: () => FixtureStatement[], committed: string[]): Promise<void> {
    await this.client.query('rollback');
    await this.client.query('begin');
    for (const f of perRow()) {
      try {
        await this.client.query(f.sql);
      } catch (e) {
        await this.client.query('rollback');
        this.pendingRollback = false;
        throw new FixtureError(`fixture for ${f.table} refused: ${(e as Error).message}`, f.table, f.row, refusedBy(e), (e as { code?: string }).code);
      }
    }
    for (const sql of committed) {
      try {
        await this.client.query(sql);
      } catch (e) {
        await this.client.query('rollback');
        this.pendingRollback = false;
        throw new FixtureError(`fixtures refused by a deferred constraint: ${(e as Error).message}`, 'deferred constraint', null, refusedBy(e), (e as { code?: string }).code);
      }
    }
  }

  /**
   * Writes the messages of a case's planned requests at once, each undoing the one before it
   * (requestMessage); what PostgREST refuses itself is answered here, with no message.
   */
  private writeRequests(ahead: readonly PlannedRequest[], endsCase: boolean, head?: CaseHead): (Promise<ApiResponse> | ApiResponse)[] {
    const statements = ahead.map(({ request }) => buildStatement(request, this.cache, this.sqlRouted));
    // The last one the database gets (what PostgREST refuses itself sends nothing).
    let lastSent = -1;
    if (endsCase) for (let k = 0; k < statements.length; k++) if (!('refusal' in statements[k])) lastSent = k;
    let after = false;
    return ahead.map(({ caller, request }, k) => {
      const statement = statements[k];
      if ('refusal' in statement) return refusalResponse(statement);
      const answer = this.writeRequest({ cache: this.cache, caller, request, options: {}, statement, place: { after, last: k === lastSent } }, after ? undefined : head);
      after = true;
      return answer;
    });
  }

  /**
   * Writes one request's message now (see requestMessage); its answer once the database gives it.
   * `head`: the case's opening statements, written first in the same message (one message fewer
   * per case); what they answered becomes `head.opened`, the request gets the rest.
   */
  private writeRequest(step: Prepared, head?: CaseHead): Promise<ApiResponse> {
    const headSql = head ? `${head.sql};\n` : '';
    const sql = headSql + requestMessage(step.caller, step.request, step.statement, this.cache, step.options, (query, runsAs) => this.prepared.sqlFor(query, runsAs), step.place);
    const written = this.write(sql);
    if (!head) return written.then((result) => requestAnswer(step, result));
    head.opened = written.then((result) => headPart(result, head.statements));
    return written.then((result) => requestAnswer(step, requestPart(result, head.statements)));
  }

  /** One message, written now; afterwards the connection's prepared statements are what actually ran. */
  private write(sql: string): Promise<BatchResult> {
    const pending = this.prepared.takePending();
    return sendBatch(this.client, sql).then(
      (result) => {
        this.prepared.settle(pending, result.prepared);
        return result;
      },
      (error: unknown) => {
        this.prepared.settle(pending, 0);
        throw error;
      },
    );
  }

  async send(caller: Caller, request: ApiRequest, options: SendOptions = {}): Promise<ApiResponse> {
    const open = this.current;
    if (!open) throw new Error('harness: a request was sent with no case open');
    if (open.answered.length) {
      const next = open.answered.shift()!;
      if (next.request !== request || next.caller !== caller || options.withoutToken) {
        throw new Error('harness: a request other than the next one planned in begin() was sent after the planned ones had run');
      }
      return next.response;
    }
    const statement = buildStatement(request, this.cache, this.sqlRouted);
    if ('refusal' in statement) return refusalResponse(statement);
    const after = open.requestSent;
    open.requestSent = true;
    return this.writeRequest({ cache: this.cache, caller, request, options, statement, place: { after, last: false } });
  }

  /** Ends the case. Its rollback goes out with the next case's fixtures (or with flush()). */
  async end(): Promise<void> {
    this.current = undefined;
  }

  /**
   * Rolls back now: before the connection is used for anything but the next case. A case still
   * being opened is waited for first (its caller may have stopped waiting for it, as fast-check's
   * time limit did to a shrink's case): rolled back under it, the fixtures it still had to write
   * row by row after a refusal ran outside any transaction and committed, seen by every later case.
   * The case is ended: a request of it sent afterwards is refused (no case open).
   */
  async flush(): Promise<void> {
    await this.current?.opening;
    this.current = undefined;
    if (!this.pendingRollback) return;
    this.pendingRollback = false;
    await this.client.query('rollback');
  }

  /** Drops the statements prepared on this connection (the bench starts its recording from none). */
  async deallocatePrepared(): Promise<void> {
    await this.flush();
    await this.client.query('deallocate all');
    this.prepared.clear();
  }
}

/** A single-object write's representation: its one row as an object (the check held it to one). */
function singleObject(statement: SqlStatement, body: Json): Json {
  return statement.shape === 'single' && Array.isArray(body) ? body[0] : body;
}

function shapeResponse(request: ApiRequest, statement: SqlStatement, affected: number, body: Json, inserted?: unknown): ApiResponse {
  switch (request.kind) {
    case 'select':
      if (statement.shape === 'single') {
        if (affected !== 1) {
          const error = { code: 'PGRST116', message: 'JSON object requested, multiple (or no) rows returned', details: `The result contains ${affected} rows`, hint: null };
          return { status: 406, body: error, affected, error };
        }
        return { status: 200, body: (body as Json[])[0], affected };
      }
      return { status: 200, body, affected };
    case 'insert': {
      // Response.hs: a merge that inserted nothing (only updated) answers 200, else 201.
      const status = request.upsert?.resolution === 'merge-duplicates' && inserted !== undefined && inserted !== null && Number(inserted) <= 0 ? 200 : 201;
      return { status, body: request.returning === 'representation' ? singleObject(statement, body) : null, affected };
    }
    case 'update':
    case 'delete':
      return request.returning === 'representation' ? { status: 200, body: singleObject(statement, body), affected } : { status: 204, body: null, affected };
    case 'rpc':
      if (statement.shape === 'void') return { status: 204, body: null, affected };
      return statement.oneComposite && isObjectOfNulls(body) ? { status: 200, body, affected, nullComposite: statement.oneComposite } : { status: 200, body, affected };
  }
}

/** A JSON object with at least one field, every one null. */
const isObjectOfNulls = (body: Json): boolean => body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length > 0 && Object.values(body).every((v) => v === null);
