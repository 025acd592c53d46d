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
