/** A server the user names (--database-url or DATABASE_URL). policyfuzz only creates and drops its own scratch databases there. */
import pg from 'pg';
import { EnvironmentError, UsageError } from '../../errors.ts';
import type { DatabaseServer } from './server.ts';

export async function connectExplicitServer(url: string): Promise<DatabaseServer> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--database-url is not a connection URL: ${JSON.stringify(url)} (expected postgresql://user:password@host:port/database)`);
  }
  if (!/^postgres(ql)?:$/.test(parsed.protocol)) {
    throw new UsageError(`--database-url must start with postgresql:// (got ${parsed.protocol}//)`);
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (e) {
    throw new EnvironmentError(`cannot reach the database at ${redact(parsed)}: ${(e as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
  return {
    kind: 'explicit',
    description: `the server at ${redact(parsed)}`,
    adminUrl: url,
    ownsServer: false,
    async stop() {},
  };
}

export function redact(url: URL): string {
  const copy = new URL(url.toString());
  if (copy.password) copy.password = '***';
  return copy.toString();
}
