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
 */
import type pg from 'pg';
import type { Caller } from '../model/caller.ts';
import type { Json } from '../model/json.ts';
import type { ApiRequest } from '../model/request.ts';
import { FixtureError } from '../errors.ts';
import { REFERENCE_PLAN, type FixturePlan, type FixtureStatement } from '../fixtures.ts';
import { credentialsFor } from './credentials.ts';
import { httpStatusForSqlState } from './http-status.ts';
import type { ApiResponse } from './response.ts';
import type { SchemaCache } from './schema-cache.ts';
import { ident, literal } from './sql-text.ts';
import { buildStatement, type Statement } from './statement.ts';
import type { Executor } from './executor.ts';

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

export function preRequestSql(caller: Caller, request: ApiRequest, cache: SchemaCache, options: SendOptions = {}): string {
  const creds = credentialsFor(caller, options, request);
  return (
    `select set_config('search_path', ${literal(requestSearchPath(cache, request))}, true), set_config('role', ${literal(creds.role)}, true), ` +
    `set_config('request.jwt.claims', ${literal(JSON.stringify(creds.claims))}, true), ` +
    `set_config('request.method', ${literal(METHOD[request.kind])}, true), set_config('request.path', ${literal(requestPath(request))}, true), ` +
    `set_config('request.headers', ${literal(JSON.stringify(creds.headers))}, true), set_config('request.cookies', '{}', true)`
  );
}

/**
 * One request's batch after the previous request's cleanup: savepoint, PostgREST's pre-request
 * settings, read-only mode for reads, the statement, and (for a write) the end-of-request
 * constraint check (so the statement's result is the last but one, see mainResult).
 */
export function requestBatch(caller: Caller, request: ApiRequest, statement: Exclude<Statement, { refusal: unknown }>, cache: SchemaCache, options: SendOptions = {}): string {
  const readOnly = statement.readOnly ? `; set local transaction_read_only = on` : '';
  const end = statement.readOnly ? '' : `; ${END_OF_REQUEST}`;
  return `savepoint pf_request; ${preRequestSql(caller, request, cache, options)}${readOnly}; ${statement.sql}${end}`;
}

function mainResult(result: pg.QueryResult | pg.QueryResult[], statement: Exclude<Statement, { refusal: unknown }>): pg.QueryResult {
  if (!Array.isArray(result)) return result;
  return result[result.length - (statement.readOnly ? 1 : 2)];
}

export class CaseTransaction implements Executor {
  /** Cleanup of the previous request, sent at the front of the next batch (or dropped by the final rollback). */
  private pendingCleanup = '';
  private open = false;
  /** The previous case's rollback, sent with the next case's fixtures to save a round trip. */
  private pendingRollback = false;

  constructor(
    private readonly client: pg.Client,
    private readonly cache: SchemaCache,
    /** How fixtures are written into this database (the reference one, or a project's own). */
    readonly fixturePlan: FixturePlan = REFERENCE_PLAN,
  ) {}

  /**
   * Opens the case and writes its fixtures as the server context (superuser, null auth.uid()).
   * `perRow` is asked for only when the batch was refused, to name the refused row.
   */
  async begin(fixtures: FixtureStatement[], perRow: () => FixtureStatement[] = () => fixtures): Promise<void> {
    const rollback = this.pendingRollback ? ['rollback'] : [];
    this.pendingRollback = false;
    this.open = true;
    // Fixtures stand for committed rows: their deferred constraints are checked now, not by the first request.
    const committed = this.cache.initiallyDeferred.length ? [END_OF_REQUEST, deferAgainSql(this.cache)] : [];
    try {
      await this.client.query([...rollback, 'begin', ...fixtures.map((f) => f.sql), ...committed].join(';\n'));
    } catch {
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
  }

  async send(caller: Caller, request: ApiRequest, options: SendOptions = {}): Promise<ApiResponse> {
    const statement = buildStatement(request, this.cache);
    if ('refusal' in statement) {
      const { status, code, message, hint } = statement.refusal;
      const error = { code, message, details: null, hint: hint ?? null };
      return { status, body: error, affected: null, error };
    }
    const prefix = this.pendingCleanup;
    this.pendingCleanup = '';
    const batch = `${prefix}${requestBatch(caller, request, statement, this.cache, options)}`;
    let result: pg.QueryResult | pg.QueryResult[];
    try {
      result = (await this.client.query(batch)) as pg.QueryResult | pg.QueryResult[];
    } catch (e) {
      const err = e as pg.DatabaseError;
      if (!err.code) throw e;
      // PostgREST rolls a failed request back; so do we, settings included.
      this.pendingCleanup = ROLLBACK_REQUEST;
      const body = { code: err.code, message: err.message, details: err.detail ?? null, hint: err.hint ?? null };
      return { status: httpStatusForSqlState(err.code, credentialsFor(caller, options).role, err.message), body, affected: null, error: body, ...(err.routine ? { routine: err.routine } : {}) };
    }
    const row = mainResult(result, statement).rows[0] as { page_total: string | number; body: string | null };
    const affected = Number(row.page_total);
    // A read leaves nothing to keep; a write is kept and its settings reset.
    this.pendingCleanup = statement.readOnly ? ROLLBACK_REQUEST : keepRequestSql(this.cache);
    return shapeResponse(request, statement, affected, row.body === null ? null : (JSON.parse(row.body) as Json));
  }

  /** Ends the case. Its rollback goes out with the next case's fixtures (or with flush()). */
  async end(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    this.pendingCleanup = '';
    this.pendingRollback = true;
  }

  /** Rolls back now: before the connection is used for anything but the next case. */
  async flush(): Promise<void> {
    if (!this.pendingRollback) return;
    this.pendingRollback = false;
    await this.client.query('rollback');
  }
}

function shapeResponse(request: ApiRequest, statement: Exclude<Statement, { refusal: unknown }>, affected: number, body: Json): ApiResponse {
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
