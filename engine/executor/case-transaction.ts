/**
 * One case on one connection: fixtures written by the privileged server context, then each
 * request as PostgREST would run it, then everything rolled back.
 *
 * PostgREST gives every request its own transaction: whatever it set transaction-locally (the
 * role, request.jwt.claims, read-only for GET, and any set_config(name, value, true) a function
 * made, whatever the name) ends with it, and deferred constraints fire at its end. Here the case
 * is one transaction and each request one savepoint, made to end the same way:
 * - the request's batch ends with SET CONSTRAINTS ALL IMMEDIATE (what PostgREST sends before a
 *   tx=rollback end), so a deferred violation is that request's error;
 * - a failed request, a GET, or a call to a STABLE/IMMUTABLE function is rolled back to its
 *   savepoint, settings and constraint modes with it;
 * - a kept write is released, then RESET ROLE and RESET ALL return every setting, named or not,
 *   to its session value, and the initially deferred constraints are deferred again.
 * The cleanup travels at the front of the next request's batch: no extra round trip.
 *
 * When the case's requests are known before it opens (begin's `ahead`), they travel with the
 * fixtures in one round trip, each followed by the cleanup it gets if it succeeds. If one fails,
 * the ones before it are answered, it gets the failure, and the rest are sent one by one as
 * usual: the database runs the same statements in the same order either way.
 */
import type pg from 'pg';
import { sendBatch, type CompletedStatement } from './batch-query.ts';
import type { Caller } from '../model/caller.ts';
import type { Json } from '../model/json.ts';
import type { ApiRequest } from '../model/request.ts';
import { FixtureError } from '../errors.ts';
import { REFERENCE_PLAN, type FixturePlan, type FixtureStatement } from '../fixtures.ts';
import { credentialsFor } from './credentials.ts';
import { httpStatusForSqlState } from './http-status.ts';
import type { ApiResponse } from './response.ts';
import type { SchemaCache } from './schema-cache.ts';
import { ident, inlineSql, SqlParams, type ParameterizedSql } from './sql-text.ts';
import { buildStatement, type Statement } from './statement.ts';
import { PreparedStatements } from './prepared-statements.ts';
import type { Executor, PlannedRequest } from './executor.ts';

/** Cases between two VACUUMs of the tables they wrote (one costs about a millisecond). */
export const VACUUM_EVERY = 500;

const METHOD: Record<ApiRequest['kind'], string> = { select: 'GET', insert: 'POST', update: 'PATCH', delete: 'DELETE', rpc: 'POST' };
/** After a failed request or a read: undo it whole. */
export const ROLLBACK_REQUEST = 'rollback to savepoint pf_request; release savepoint pf_request; ';
/** Fires the request's deferred constraints, as its commit would. */
export const END_OF_REQUEST = 'set constraints all immediate';

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
  return `release savepoint pf_request; reset role; reset all; ${deferAgain ? `${deferAgain}; ` : ''}`;
}

export interface SendOptions {
  /** A request with no JWT at all (not even the anon key): no apikey or authorization header. */
  withoutToken?: boolean;
}

function requestPath(request: ApiRequest): string {
  return request.kind === 'rpc' ? `/rpc/${request.fn}` : `/${request.table}`;
}

/** The search_path PostgREST sets: the schema the request targets (Accept/Content-Profile, default the first exposed), then db-extra-search-path. */
export function requestSearchPath(cache: SchemaCache, request: ApiRequest): string {
  const target = request.schema ?? cache.exposedSchemas[0];
  return [...new Set([target, ...cache.extraSearchPath])].map(ident).join(', ');
}

/**
 * PostgREST's pre-request settings (one statement, prepared like the request: its values are
 * parameters). PostgREST discards what the set_config calls return; so does this statement, which
 * answers one short column instead of echoing the claims and headers back (set_config is volatile:
 * the planner keeps every call).
 */
export function preRequestQuery(caller: Caller, request: ApiRequest, cache: SchemaCache, options: SendOptions = {}): ParameterizedSql {
  const creds = credentialsFor(caller, options, request);
  const p = new SqlParams();
  const discardingValues = (settings: string) => `select 1 as pf_settings from (${settings}) pf_settings`;
  return p.statement(discardingValues(
    `select set_config('search_path', ${p.bind(requestSearchPath(cache, request))}, true), set_config('role', ${p.bind(creds.role)}, true), ` +
      `set_config('request.jwt.claims', ${p.bind(JSON.stringify(creds.claims))}, true), ` +
      `set_config('request.method', ${p.bind(METHOD[request.kind])}, true), set_config('request.path', ${p.bind(requestPath(request))}, true), ` +
      `set_config('request.headers', ${p.bind(JSON.stringify(creds.headers))}, true), set_config('request.cookies', '{}', true)`),
  );
}

export function preRequestSql(caller: Caller, request: ApiRequest, cache: SchemaCache, options: SendOptions = {}): string {
  return inlineSql(preRequestQuery(caller, request, cache, options));
}

type SqlStatement = Exclude<Statement, { refusal: unknown }>;

/**
 * One request's batch after the previous request's cleanup: savepoint, PostgREST's pre-request
 * settings, read-only mode for reads, the statement, each as `sqlFor` sends it (prepared or not),
 * and (for a write) the end-of-request constraint check. Always REQUEST_STATEMENTS statements
 * (a PREPARE is not counted: batch-query.ts), the request's own at mainOffset.
 */
export function requestBatch(
  caller: Caller,
  request: ApiRequest,
  statement: SqlStatement,
  cache: SchemaCache,
  options: SendOptions = {},
  sqlFor: (query: ParameterizedSql) => string,
): string {
  const readOnly = statement.readOnly ? `; set local transaction_read_only = on` : '';
  const end = statement.readOnly ? '' : `; ${END_OF_REQUEST}`;
  return `savepoint pf_request; ${sqlFor(preRequestQuery(caller, request, cache, options))}${readOnly}; ${sqlFor(statement.query)}${end}`;
}

/** Statements in a requestBatch, its savepoint first. */
const REQUEST_STATEMENTS = 4;
/** Where the request's own statement (the one answering page_total, body) sits after the savepoint. */
const mainOffset = (statement: SqlStatement) => (statement.readOnly ? 3 : 2);
/** The cleanup a request gets when it succeeds: a read is undone, a write kept. */
const cleanupAfterSuccess = (statement: SqlStatement, cache: SchemaCache) => (statement.readOnly ? ROLLBACK_REQUEST : keepRequestSql(cache));

interface Prepared {
  caller: Caller;
  request: ApiRequest;
  options: SendOptions;
  statement: SqlStatement;
}

/** A database error as PostgREST answers it. */
function errorResponse(err: pg.DatabaseError, caller: Caller, options: SendOptions): ApiResponse {
  const body = { code: err.code!, message: err.message, details: err.detail ?? null, hint: err.hint ?? null };
  return { status: httpStatusForSqlState(err.code!, credentialsFor(caller, options).role, err.message), body, affected: null, error: body, ...(err.routine ? { routine: err.routine } : {}) };
}

/** A succeeded request's answer, read from its statements (its savepoint at `at`). */
function successResponse(completed: CompletedStatement[], at: number, step: Prepared): ApiResponse {
  const [pageTotal, body] = completed[at + mainOffset(step.statement)].rows[0];
  return shapeResponse(step.request, step.statement, Number(pageTotal), body === null ? null : (JSON.parse(body) as Json));
}

/**
 * The answers to a chain of requests sent in one batch (each after the previous one's cleanup):
 * every request up to the failing one, if any. `failed` is true when the last answer is a failure.
 * Undefined when the batch failed before the first request's savepoint (in what preceded it).
 */
function chainAnswers(chain: Prepared[], completed: CompletedStatement[], failure: pg.DatabaseError | undefined): { answers: ApiResponse[]; failed: boolean } | undefined {
  const savepoints: number[] = [];
  completed.forEach((c, i) => c.command === 'SAVEPOINT' && savepoints.push(i));
  if (!failure) return { answers: chain.map((step, k) => successResponse(completed, savepoints[k], step)), failed: false };
  if (!savepoints.length) return undefined;
  // The failing statement is the first not completed. Past the last started request's own
  // statements it is in the cleanup that prefixes the next request: that request's failure, as
  // when it is sent on its own.
  let failing = savepoints.length - 1;
  if (completed.length >= savepoints[failing] + REQUEST_STATEMENTS) failing++;
  if (failing >= chain.length) throw new Error(`harness: a batch failed after its last request (${failure.message})`);
  const answers = chain.slice(0, failing).map((step, k) => successResponse(completed, savepoints[k], step));
  answers.push(errorResponse(failure, chain[failing].caller, chain[failing].options));
  return { answers, failed: true };
}

export class CaseTransaction implements Executor {
  /** Cleanup of the previous request, sent at the front of the next batch (or dropped by the final rollback). */
  private pendingCleanup = '';
  private open = false;
  /** The previous case's rollback, sent with the next case's fixtures to save a round trip. */
  private pendingRollback = false;
  /** Answers to planned requests that went with the fixtures, handed out by send() in order. */
  private answered: { caller: Caller; request: ApiRequest; response: ApiResponse }[] = [];
  /** Request and fixture shapes prepared on this connection. */
  private readonly prepared = new PreparedStatements();
  /** Tables the cases since the last VACUUM wrote (their rolled-back rows are dead tuples). */
  private readonly written = new Set<string>();
  private casesSinceVacuum = 0;

  constructor(
    private readonly client: pg.Client,
    private readonly cache: SchemaCache,
    /** How fixtures are written into this database (the reference one, or a project's own). */
    readonly fixturePlan: FixturePlan = REFERENCE_PLAN,
  ) {}

  /**
   * Opens the case and writes its fixtures as the server context (superuser, null auth.uid()).
   * `perRow` is asked for only when the batch was refused, to name the refused row. `ahead`: the
   * requests the case will send, in order; they go in the same round trip, and send() must then
   * be given these very request objects, in this order.
   */
  async begin(fixtures: FixtureStatement[], perRow: () => FixtureStatement[] = () => fixtures, ahead: readonly PlannedRequest[] = []): Promise<void> {
    if (++this.casesSinceVacuum >= VACUUM_EVERY && this.written.size) await this.vacuum();
    const rollback = this.pendingRollback ? ['rollback'] : [];
    this.pendingRollback = false;
    this.open = true;
    this.answered = [];
    this.pendingCleanup = '';
    // Fixtures stand for committed rows: their deferred constraints are checked now, not by the first request.
    const committed = this.cache.initiallyDeferred.length ? [END_OF_REQUEST, deferAgainSql(this.cache)] : [];
    // The planned requests up to the first PostgREST answers without the database.
    const chain: Prepared[] = [];
    for (const { caller, request } of ahead) {
      const statement = buildStatement(request, this.cache);
      if ('refusal' in statement) break;
      chain.push({ caller, request, options: {}, statement });
    }
    const reset = this.prepared.takeReset();
    for (const f of fixtures) if (f.target) this.written.add(f.target);
    const head = [...rollback, ...(reset ? [reset] : []), 'begin', ...fixtures.map((f) => (f.query ? this.prepared.sqlFor(f.query) : f.sql)), ...committed].join(';\n');
    const sql = chain.length ? `${head};\n${this.chainSql(chain)}` : head;
    const { completed, error: failure } = await this.sendBatch(sql);
    const chained = chain.length ? chainAnswers(chain, completed, failure) : failure ? undefined : { answers: [], failed: false };
    if (chained) {
      this.answered = chained.answers.map((response, k) => ({ caller: chain[k].caller, request: chain[k].request, response }));
      if (chained.answers.length) this.pendingCleanup = chained.failed ? ROLLBACK_REQUEST : cleanupAfterSuccess(chain[chain.length - 1].statement, this.cache);
      return;
    }
    // Find which fixture was refused, so the report names the table, the row and the message.
    await this.client.query('rollback');
    await this.client.query('begin');
    for (const f of perRow()) {
      try {
        await this.client.query(f.sql);
      } catch (e) {
        await this.client.query('rollback');
        this.open = false;
        throw new FixtureError(`fixture for ${f.table} refused: ${(e as Error).message}`, f.table, f.row);
      }
    }
    for (const sql of committed) {
      try {
        await this.client.query(sql);
      } catch (e) {
        await this.client.query('rollback');
        this.open = false;
        throw new FixtureError(`fixtures refused by a deferred constraint: ${(e as Error).message}`, 'deferred constraint', null);
      }
    }
  }

  /** The requests as one batch, each after the cleanup the previous one gets if it succeeds. */
  private chainSql(chain: Prepared[]): string {
    return chain
      .map((step, k) => `${k ? cleanupAfterSuccess(chain[k - 1].statement, this.cache) : ''}${requestBatch(step.caller, step.request, step.statement, this.cache, step.options, (query) => this.prepared.sqlFor(query))}`)
      .join('; ');
  }

  /** One batch; afterwards the connection's prepared statements are what actually ran. */
  private async sendBatch(sql: string) {
    let ran = 0;
    try {
      const result = await sendBatch(this.client, sql);
      ran = result.prepared;
      return result;
    } finally {
      this.prepared.settle(ran);
    }
  }

  async send(caller: Caller, request: ApiRequest, options: SendOptions = {}): Promise<ApiResponse> {
    if (this.answered.length) {
      const next = this.answered.shift()!;
      if (next.request !== request || next.caller !== caller || options.withoutToken) {
        throw new Error('harness: a request other than the next one planned in begin() was sent after the planned ones had run');
      }
      return next.response;
    }
    const statement = buildStatement(request, this.cache);
    if ('refusal' in statement) {
      const { status, code, message, hint } = statement.refusal;
      const error = { code, message, details: null, hint: hint ?? null };
      return { status, body: error, affected: null, error };
    }
    const step: Prepared = { caller, request, options, statement };
    const prefix = this.pendingCleanup;
    this.pendingCleanup = '';
    const { completed, error } = await this.sendBatch(`${prefix}${this.chainSql([step])}`);
    if (error) {
      // PostgREST rolls a failed request back; so do we, settings included.
      this.pendingCleanup = ROLLBACK_REQUEST;
      return errorResponse(error, caller, options);
    }
    // A read leaves nothing to keep; a write is kept and its settings reset.
    this.pendingCleanup = cleanupAfterSuccess(statement, this.cache);
    return chainAnswers([step], completed, undefined)!.answers[0];
  }

  /** Ends the case. Its rollback goes out with the next case's fixtures (or with flush()). */
  async end(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    this.pendingCleanup = '';
    this.answered = [];
    this.pendingRollback = true;
  }

  /** Rolls back now: before the connection is used for anything but the next case. */
  async flush(): Promise<void> {
    if (!this.pendingRollback) return;
    this.pendingRollback = false;
    await this.client.query('rollback');
  }

  /**
   * Every case's rows are rolled back, which leaves them as dead tuples: without a VACUUM the
   * tables and their indexes grow for the whole run and every scan slows down (measured: +25% of
   * the database's time per case after 18,000 cases of R02). Between two cases, outside any
   * transaction, the tables written since the last time are vacuumed.
   */
  private async vacuum(): Promise<void> {
    await this.flush();
    const tables = [...this.written];
    this.written.clear();
    this.casesSinceVacuum = 0;
    await this.client.query(`vacuum ${tables.join(', ')}`);
  }

  /** Drops the statements prepared on this connection (the bench starts its recording from none). */
  async deallocatePrepared(): Promise<void> {
    await this.flush();
    await this.client.query('deallocate all');
    this.prepared.clear();
  }
}

function shapeResponse(request: ApiRequest, statement: SqlStatement, affected: number, body: Json): ApiResponse {
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
    case 'insert':
      return { status: 201, body: request.returning === 'representation' ? body : null, affected };
    case 'update':
    case 'delete':
      return request.returning === 'representation' ? { status: 200, body, affected } : { status: 204, body: null, affected };
    case 'rpc':
      return statement.shape === 'void' ? { status: 204, body: null, affected } : { status: 200, body, affected };
  }
}
