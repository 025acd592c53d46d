/**
 * Every connection policyfuzz opens to Postgres. A pg client emits 'error' when its server ends
 * the connection while it is open (a fast shutdown's FATAL 57P01, a backend killed, the server
 * stopped by a signal's clean-up): with no listener that is an uncaught exception, and the process
 * exits 1 with a stack trace instead of 130 or the run's verdict. The query in flight, and any
 * after it, still fail with the cause; the listener only keeps the event from killing the process.
 */
import pg from 'pg';

/**
 * The workers' sessions' statement_timeout: a fixture write (as the connecting role) or a
 * service_role request (Supabase gives it none) waiting on a trigger's pg_sleep or a lock would
 * otherwise hold its lane, and the run, past any time budget. An API role's own timeout (anon 3 s,
 * authenticated 8 s on Supabase) is set per request and overrides it, as PostgREST does; one a
 * migration reset runs under this bound in its database, as one with none (role-settings.ts).
 */
export const CASE_STATEMENT_TIMEOUT_MS = 60_000;

export function newClient(config: pg.ClientConfig): pg.Client {
  const client = new pg.Client(config);
  client.on('error', () => {});
  return client;
}

/** Cancels what `client` is running, from a connection of its own (node-postgres has no cancel request). */
export async function cancelRunning(client: pg.Client): Promise<void> {
  const pid = (client as unknown as { processID?: number }).processID;
  const { user, password, host, port, database, ssl } = (client as unknown as { connectionParameters: pg.ClientConfig }).connectionParameters;
  const other = newClient({ user, password, host, port, database, ssl });
  try {
    await other.connect();
    await other.query('select pg_cancel_backend($1)', [pid]);
  } catch {
    // The statement ends with the connection anyway, or the run is being stopped.
  } finally {
    await other.end().catch(() => {});
  }
}
