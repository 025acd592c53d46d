/**
 * A Postgres role of the project's own that requests run as (`create role app_admin nologin;
 * grant app_admin to authenticator`): the token's `role` claim, given by the pack (Caller.role) or
 * answered by a custom access token hook. PostgREST switches to it as it does to anon. A leaf:
 * the caller, table and function models all name it.
 */
export type ProjectRole = string;
