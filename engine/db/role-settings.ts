/**
 * A migration's role-wide setting (`alter role authenticator set pgrst.db_pre_request = …`,
 * `alter role anon set statement_timeout = …`) is the cluster's, not the database's: on a server
 * shared by several projects' databases (a `--database-url` server, the test suite's one server,
 * kept templates of other projects) it would reach every other database's requests (stranger-app-13's
 * pre-request hook made every other database's requests call `authz.check_request()`: 3F000).
 * On Supabase a project has one database, so the setting confined to it is the same to the app:
 * it is applied `in database` the one being migrated (copied to each clone: databases.ts).
 */
import { ident } from '../executor/sql-text.ts';

/** `alter role|user <name> set|reset …` with no `in database`, past leading comments and blanks. */
const ROLE_WIDE_SETTING = /^((?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*alter\s+(?:role|user)\s+(?:"(?:[^"]|"")+"|[\w$]+))(\s+(?:set|reset)\b)/i;

/** The statement with a role-wide setting confined to `database`; any other statement as it is. */
export function confinedToDatabase(statement: string, database: string): string {
  return statement.replace(ROLE_WIDE_SETTING, (_, head: string, verb: string) => `${head} in database ${ident(database)}${verb}`);
}
