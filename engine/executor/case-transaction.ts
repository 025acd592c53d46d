/**
 * One case on one connection: fixtures written by the privileged server context, then each
 * request as PostgREST would run it, then everything rolled back.
 *
 * PostgREST gives every request its own transaction whose settings (role, request.jwt.claims,
 * read-only for GET) end with it. Here the case is one transaction and each request one
 * savepoint: a failed request or a GET is rolled back to its savepoint (undoing its settings
 * with it); a successful write is released and its settings reset before the next request, so
 * no two requests share settings PostgREST would not share. Statements are batched into one
 * round trip where the protocol allows.
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
import { literal } from './sql-text.ts';
import { buildStatement, type Statement } from './statement.ts';

const METHOD: Record<ApiRequest['kind'], string> = { select: 'GET', insert: 'POST', update: 'PATCH', delete: 'DELETE', rpc: 'POST' };
const KEEP_REQUEST = `release savepoint pf_request; reset role; select set_config('request.jwt.claims', '', true), set_config('request.method', '', true), set_config('request.path', '', true); `;
const ROLLBACK_REQUEST = 'rollback to savepoint pf_request; release savepoint pf_request; ';

export interface SendOptions {
  /** A request with no JWT at all (not even the anon key): 42501 then answers 401. */
  withoutToken?: boolean;
}

function requestPath(request: ApiRequest): string {
  return request.kind === 'rpc' ? `/rpc/${request.fn}` : `/${request.table}`;
}

export function preRequestSql(caller: Caller, request: ApiRequest, searchPath: string, options: SendOptions = {}): string {
  const creds = credentialsFor(caller, options);
  return (
    `select set_config('search_path', ${literal(searchPath)}, true), set_config('role', ${literal(creds.role)}, true), ` +
    `set_config('request.jwt.claims', ${literal(JSON.stringify(creds.claims))}, true), ` +
    `set_config('request.method', ${literal(METHOD[request.kind])}, true), set_config('request.path', ${literal(requestPath(request))}, true), ` +
    `set_config('request.headers', '{}', true), set_config('request.cookies', '{}', true)`
  );
}

/** The search_path PostgREST sets for a request: the exposed schemas, then extensions. */
export function requestSearchPath(cache: SchemaCache): string {
  return [...cache.exposedSchemas, 'extensions'].map((s) => `"${s}"`).join(', ');
}

export class CaseTransaction {
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

  private get searchPath(): string {
    return requestSearchPath(this.cache);
  }

  /**
   * Opens the case and writes its fixtures as the server context (superuser, null auth.uid()).
   * `perRow` is asked for only when the batch was refused, to name the refused row.
   */
  async begin(fixtures: FixtureStatement[], perRow: () => FixtureStatement[] = () => fixtures): Promise<void> {
    const rollback = this.pendingRollback ? ['rollback'] : [];
    this.pendingRollback = false;
    this.open = true;
    try {
      await this.client.query([...rollback, 'begin', ...fixtures.map((f) => f.sql)].join(';\n'));
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
    }
  }

  async send(caller: Caller, request: ApiRequest, options: SendOptions = {}): Promise<ApiResponse> {
    const statement = buildStatement(request, this.cache);
    if ('refusal' in statement) {
      const { status, code, message } = statement.refusal;
      return { status, body: { code, message, details: null, hint: null }, affected: null, error: { code, message, details: null, hint: null } };
    }
    const prefix = this.pendingCleanup;
    this.pendingCleanup = '';
    const readOnly = statement.readOnly ? `; set local transaction_read_only = on` : '';
    const batch = `${prefix}savepoint pf_request; ${preRequestSql(caller, request, this.searchPath, options)}${readOnly}; ${statement.sql}`;
    let result: pg.QueryResult | pg.QueryResult[];
    try {
      result = (await this.client.query(batch)) as pg.QueryResult | pg.QueryResult[];
    } catch (e) {
      const err = e as pg.DatabaseError;
      if (!err.code) throw e;
      // PostgREST rolls a failed request back; so do we, settings included.
      this.pendingCleanup = ROLLBACK_REQUEST;
      const body = { code: err.code, message: err.message, details: err.detail ?? null, hint: err.hint ?? null };
      return { status: httpStatusForSqlState(err.code, credentialsFor(caller, options).hasToken), body, affected: null, error: body, ...(err.routine ? { routine: err.routine } : {}) };
    }
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    const row = last.rows[0] as { page_total: string | number; body: string | null };
    const affected = Number(row.page_total);
    // A read leaves nothing to keep; a write is kept and its settings reset.
    this.pendingCleanup = statement.readOnly ? ROLLBACK_REQUEST : KEEP_REQUEST;
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
