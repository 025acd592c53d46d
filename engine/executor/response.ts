/** What PostgREST answers: an HTTP status and a JSON body, plus the row count it computed. */
import type { Json } from '../model/json.ts';

/** A type, not an interface: it is a JSON body as well (the index signature Json needs). */
export type PostgrestErrorBody = {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
};

export interface ApiResponse {
  status: number;
  body: Json;
  /** Rows read or written by the main statement (PostgREST's page_total); null on an error. */
  affected: number | null;
  error?: PostgrestErrorBody;
  /**
   * Not part of PostgREST's body: the Postgres routine that raised the error (pg's `routine`,
   * e.g. aclcheck_error, ExecWithCheckOptions, exec_stmt_raise), so a 42501 is told apart by
   * where it came from, not by its text.
   */
  routine?: string;
  /**
   * Not part of PostgREST's answer: session state the request left on its connection for the
   * next request (session-state.ts), when the catalog has functions that can leave any.
   */
  leftBehind?: string[];
  /**
   * Not part of PostgREST's answer: the signed-in token's app_metadata as the database composed it
   * (tokens.appMetadata's auth.users, an access token hook), where it is not the case's own.
   */
  tokenAppMetadata?: Json;
  /** Not part of PostgREST's answer: the role the request ran as, where a token hook answered another than `authenticated` (a project's own Postgres role). */
  tokenRole?: string;
  /**
   * Not part of PostgREST's answer: the called function returns one composite, not a set, and
   * answered an object whose every field is null: its NULL, as PostgREST v12.2 shows it (called in
   * FROM, QueryBuilder.hs callPlanToQuery; SqlFragment.hs asJsonF). `schema.fn returns one type`.
   */
  nullComposite?: string;
}
