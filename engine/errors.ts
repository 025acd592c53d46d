/**
 * Errors a user can act on: bad input or a broken environment. The CLI prints their message
 * (never a stack trace) and exits 2. Anything else escaping is a bug in policyfuzz itself.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export class EnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvironmentError';
  }
}

/** FixtureError's table when the database's error names none (a guard raising in a batch of fixtures). */
export const UNNAMED_FIXTURE = '(fixtures)';

/** A fixture the harness wrote was refused by the database: a harness problem, never a rule verdict. */
export class FixtureError extends Error {
  /** `constraint`: what refused it, as the database names it (`users_role_check`, `users.role NOT NULL`). */
  constructor(
    message: string,
    readonly table: string,
    readonly row: unknown,
    readonly constraint?: string,
    /** The SQLSTATE (23505: a row with that key was already there, made by a trigger or seeded). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'FixtureError';
  }
}

/** A pack's own model (a rule, trigger or prediction) threw: its author's to fix; the property's note says where (engine/config/pack-model-blame.ts). */
export class PackModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PackModelError';
  }
}

/**
 * A case the target cannot hold (engine/target/realizable.ts): a run drops it and counts `reason`;
 * replaying a saved one on such a target says so.
 */
export class NotRealizable extends Error {
  constructor(readonly reason: string) {
    super(`not realizable on this target: ${reason}`);
    this.name = 'NotRealizable';
  }
}

export function isUserFacingError(e: unknown): e is UsageError | EnvironmentError | FixtureError | NotRealizable {
  return e instanceof UsageError || e instanceof EnvironmentError || e instanceof FixtureError || e instanceof NotRealizable;
}

/** How pg and Postgres say the connection to the server is gone (it stopped, crashed, was killed or restarted). */
const CONNECTION_LOST = /Connection terminated|not queryable|ECONNREFUSED|ECONNRESET|EPIPE|server closed the connection|terminating connection due to administrator command|the database system is (shutting down|in recovery mode)/i;
/** SQLSTATE query_canceled: what a statement_timeout or a cancel request (pg_cancel_backend) raises. */
export const QUERY_CANCELED = '57014';
const CONNECTION_LOST_CODES = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE']);

/** Whether `error` says the connection to the server is gone (it stopped, crashed, was killed or restarted). */
export function connectionLost(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return CONNECTION_LOST.test(message) || (typeof code === 'string' && CONNECTION_LOST_CODES.has(code));
}

/**
 * A harness error in one line for the note of the property it ended: a connection the server
 * dropped says so and what to do, since pg's own words ("Client has encountered a connection
 * error and is not queryable") name neither.
 */
export function harnessErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (connectionLost(error)) {
    return `the database server closed the connection (it stopped, crashed or was restarted: ${message.split('\n')[0]}); the findings made before it are kept: run again, and if it recurs read the server's log (out of memory, a crash)`;
  }
  // The workers' statement bound (db/client.ts CASE_STATEMENT_TIMEOUT_MS) cancelled a fixture write or a request with no timeout of its own.
  if (code === QUERY_CANCELED || /canceling statement due to statement timeout/.test(message)) {
    return `${message.split('\n')[0]}: a statement of the case ran past the bound policyfuzz sets on one statement (a trigger or function waiting on pg_sleep or a lock, or looping); the findings made before it are kept`;
  }
  return message;
}
