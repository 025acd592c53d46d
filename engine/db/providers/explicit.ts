/** A server the user names (--database-url or DATABASE_URL). policyfuzz only creates and drops its own scratch databases there. */
import pg from 'pg';
import { newClient } from '../client.ts';
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
  const client = newClient({ connectionString: url, connectionTimeoutMillis: 5000 });
  let missing: string | undefined;
  try {
    try {
      await client.connect();
      await client.query('select 1');
    } catch (e) {
      throw new EnvironmentError(`cannot reach the database at ${redact(parsed)}: ${(e as Error).message}`);
    }
    missing = await missingPrivileges(client);
  } finally {
    await client.end().catch(() => {});
  }
  if (missing) throw new EnvironmentError(`${missing} (${redact(parsed)}); nothing was run`);
  return {
    kind: 'explicit',
    description: `the server at ${redact(parsed)}`,
    adminUrl: url,
    ownsServer: false,
    async stop() {},
  };
}

/** The roles a request runs as (SET ROLE, as PostgREST does). */
export const API_ROLES = ['anon', 'authenticated', 'service_role'] as const;

/**
 * What a run needs of the connecting role, checked before anything is created: create its scratch
 * databases, and SET ROLE to each API role (or create them, when the server lacks them). Without
 * it the first request fails with Postgres's "permission denied to set role", which would read as
 * a finding. Returns what is missing and the grant that fixes it, or undefined.
 */
async function missingPrivileges(client: pg.Client): Promise<string | undefined> {
  const me = (await client.query<{ name: string; rolsuper: boolean; rolcreatedb: boolean; rolcreaterole: boolean; rolbypassrls: boolean; version: number }>(
    `select current_user as name, rolsuper, rolcreatedb, rolcreaterole, rolbypassrls, current_setting('server_version_num')::int as version from pg_roles where rolname = current_user`,
  )).rows[0]!;
  if (me.rolsuper) return undefined;
  const who = quoteRole(me.name);
  if (!me.rolcreatedb) return `role ${me.name} cannot create databases, and policyfuzz runs in scratch databases of its own: as a superuser, run \`alter role ${who} createdb\` (and grant the API roles: \`grant ${API_ROLES.join(', ')} to ${who}\`), or connect as a superuser`;
  // Postgres 16 separates SET ROLE from membership.
  const right = me.version >= 160000 ? 'SET' : 'MEMBER';
  const roles = (await client.query<{ rolname: string; can_set: boolean }>(`select rolname, pg_has_role(current_user, oid, '${right}') as can_set from pg_roles where rolname = any($1)`, [[...API_ROLES]])).rows;
  const absent = API_ROLES.filter((r) => !roles.some((x) => x.rolname === r));
  if (absent.length) return `role ${me.name} is not a superuser and the server lacks the API role(s) ${absent.join(', ')}: as a superuser, create them (\`create role ${absent.join(' nologin; create role ')} nologin\`${absent.includes('service_role') ? ', service_role with bypassrls' : ''}) and run \`grant ${API_ROLES.join(', ')} to ${who}\`, or connect as a superuser`;
  const unset = roles.filter((r) => !r.can_set).map((r) => r.rolname);
  if (unset.length) return `role ${me.name} cannot SET ROLE to ${unset.join(', ')}, as every request does: as a superuser, run \`grant ${unset.join(', ')} to ${who}\`, or connect as a superuser`;
  // The migrations run as this role and own what they create. Supabase's postgres is no superuser
  // but has BYPASSRLS (supabase/postgres 10000000000000_demote-postgres.sql): a SECURITY DEFINER
  // function it owns reads a FORCE ROW LEVEL SECURITY table whole. Without BYPASSRLS, row rules
  // would filter it here and not on Supabase (cli/reliability.test.ts shows both).
  if (!me.rolbypassrls) return `role ${me.name} has no BYPASSRLS, which Supabase's postgres role has: the security definer functions its migrations create would be held to FORCE ROW LEVEL SECURITY here and not on Supabase; as a superuser, run \`alter role ${who} bypassrls\`, or connect as a superuser`;
  return undefined;
}

function quoteRole(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

export function redact(url: URL): string {
  const copy = new URL(url.toString());
  if (copy.password) copy.password = '***';
  return copy.toString();
}
