/**
 * Policies that read a session setting of the app's own (`current_setting('app.current_user_id',
 * true)`, set by an app server before its queries) instead of the caller's token. No API request
 * sets it: PostgREST sets `role`, `request.jwt.claims`, `request.headers` … and calls the
 * project's db-pre-request hook, so unless that hook sets it, such a policy reads null for every
 * caller and the rule it decides is closed to the API. `init` names them, and the way to state
 * what the app's server does (a pre-request hook setting it from the claims: docs/config.md).
 */
import type pg from 'pg';
import { MANAGED_SCHEMAS } from '../db/supabase/managed-schemas.ts';
import { escapeRegExp } from '../regexp.ts';

/** Settings PostgREST or Postgres itself set for every request: reading them is reading the caller. */
const SET_PER_REQUEST = /^(request\.|role$|search_path$|pgrst\.)/;

export interface AppSettingRead {
  /** The setting's name, or the header's (`header`). */
  setting: string;
  /** `table.policy`, each policy that reads it. */
  policies: string[];
  /** A request header the policies read (`current_setting('request.headers', true)::json ->> 'lumkey'`): PostgREST sets it from what the client sends. */
  header?: true;
}

/** The app's own settings the project's policies read and its db-pre-request hook (if any) does not set. */
export async function appSettingsReadByPolicies(client: pg.Client): Promise<AppSettingRead[]> {
  const { rows } = await client.query<{ at: string; expr: string }>(
    `select format('%s.%s', c.relname, p.polname) as at, concat_ws(' ', pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid)) as expr
       from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname <> all($1::text[])
      order by 1`,
    [[...MANAGED_SCHEMAS, 'pgmq']],
  );
  // The hook PostgREST calls in this database: the authenticator's setting here, else its role-wide
  // one (a database's own wins). Another database's (another project on a shared server) is not this one's.
  const hook = await client.query<{ source: string }>(
    `select coalesce((select p.prosrc
       from pg_db_role_setting s join pg_roles r on r.oid = s.setrole, unnest(s.setconfig) cfg, pg_proc p
      where r.rolname = 'authenticator' and cfg like 'pgrst.db_pre_request=%' and p.oid = to_regproc(split_part(cfg, '=', 2))::oid
        and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
      order by s.setdatabase desc limit 1), '') as source`,
  );
  return settingsNotSetByHook(rows, hook.rows[0]?.source ?? '');
}

/** The app's settings the policies (`at`: `table.policy`, `expr`: its USING and WITH CHECK) read that the hook's source does not name. */
export function settingsNotSetByHook(policies: readonly { at: string; expr: string }[], hookSource: string): AppSettingRead[] {
  const read = new Map<string, string[]>();
  const headers = new Map<string, string[]>();
  const add = (into: Map<string, string[]>, name: string, at: string) => {
    const at_ = into.get(name) ?? [];
    if (!at_.includes(at)) at_.push(at);
    into.set(name, at_);
  };
  for (const { at, expr } of policies) {
    for (const m of expr.matchAll(/current_setting\(\s*'([^']+)'/g)) {
      const setting = m[1];
      if (SET_PER_REQUEST.test(setting) || namesSetting(hookSource, setting)) continue;
      add(read, setting, at);
    }
    // As pg_get_expr prints it: ((current_setting('request.headers'::text, true))::json ->> 'lumkey'::text)
    for (const m of expr.matchAll(/current_setting\('request\.headers'(?:::text)?(?:,\s*true)?\)\)?::jsonb?\s*->>\s*'([^']+)'/g)) add(headers, m[1].toLowerCase(), at);
  }
  return [...[...read].map(([setting, policies]) => ({ setting, policies })), ...[...headers].map(([setting, policies]) => ({ setting, policies, header: true as const }))];
}

/** `source` names `setting` whole: `app.user` is not in `app.user_id` nor in `myapp.user`. */
function namesSetting(source: string, setting: string): boolean {
  return new RegExp(`(^|[^\\w.])${escapeRegExp(setting)}($|[^\\w.])`).test(source);
}
const listed = (policies: string[]) => `${policies.slice(0, 4).join(', ')}${policies.length > 4 ? `, and ${policies.length - 4} more` : ''}`;

/** One line for init's notes, or none. */
export function appSettingsNote(reads: AppSettingRead[]): string | undefined {
  const settings = reads.filter((r) => !r.header);
  if (!settings.length) return undefined;
  const each = settings.map((r) => `current_setting('${r.setting}') (${listed(r.policies)})`);
  return `policies read ${each.join('; ')}, which no API request sets: through PostgREST they read null, closed to every caller; if your server sets it per request, state that with a db-pre-request hook setting it from the caller's claims (docs/config.md "Policies reading the app's own settings")`;
}

/** One line naming the request headers policies read (feedbase's project API key), or none: a caller sends them only when given them. */
export function requestHeadersNote(reads: AppSettingRead[]): string | undefined {
  const headers = reads.filter((r) => r.header);
  if (!headers.length) return undefined;
  const each = headers.map((r) => `${r.setting} (${listed(r.policies)})`);
  return `policies read the request header${headers.length > 1 ? 's' : ''} ${each.join('; ')}: a caller sends ${headers.length > 1 ? 'them' : 'it'} only when its pack gives it \`headers: { ${headers[0]!.setting}: … }\`, read by rules as requestHeaderOf(ctx.caller, '${headers[0]!.setting}') (docs/write-your-own-rule.md §1)`;
}
