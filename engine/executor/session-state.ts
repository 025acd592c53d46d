/**
 * State a request can leave on PostgREST's pooled connection for the next request of anyone.
 *
 * PostgREST v12.2 runs each request as one transaction on a connection of its hasql-pool
 * (src/PostgREST/AppState.hs usePool; hasql-pool 1.0 hands connections back as they are) and
 * never resets a session between requests: its source has no DISCARD or RESET (a connection
 * lives up to db-pool-max-lifetime, 1800 s by default, Config.hs). What survives a committed
 * request transaction therefore reaches later requests: a setting written at session level
 * (`set_config(name, value, false)`, or `SET name …` without LOCAL, in a function body), a
 * statement PREPAREd in SQL, a cursor WITH HOLD, a temporary table.
 *
 * The harness runs a case in one transaction, so it cannot tell a session-level setting from a
 * transaction-local one at run time (Postgres tells them apart only at the top-level commit).
 * It reads the catalog instead: the names that some function body writes at session level are
 * watched, and after every request that reached its end, one probe reports those whose value the
 * request left set (non-empty and not their reset value), SQL-prepared statements, holdable
 * cursors and temporary tables (bar those a function creates ON COMMIT DROP). A catalog whose
 * functions do none of these gets no probe at all: the common path is unchanged.
 */

/** PostgREST sets these itself, transaction-locally, before every request: a leftover is overwritten. */
const SET_BY_POSTGREST = /^(role|search_path|request\..*|transaction_.*|default_transaction_.*)$/i;

export interface SessionStateWatch {
  /** Setting name → the functions that write it at session level. */
  settings: Map<string, string[]>;
  /**
   * Each watched setting's value on a fresh session (current_setting's text; '' for a custom
   * name), read when the schema cache is loaded: a value other than this after a request is left.
   */
  sessionValues?: Map<string, string>;
  prepared: boolean;
  holdableCursors: boolean;
  tempTables: boolean;
  /** Temporary tables a function creates ON COMMIT DROP: gone with the request's transaction. */
  droppedAtCommit: string[];
}

/** The arguments of a call starting at `open` (the index just past its `(`), split at top-level commas. */
function callArguments(src: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = open; i < src.length; i++) {
    const ch = src[i];
    if (ch === "'") {
      const end = src.indexOf("'", i + 1);
      const stop = end < 0 ? src.length : end;
      current += src.slice(i, stop + 1);
      i = stop;
      continue;
    }
    if (ch === '(') depth++;
    if (ch === ')') {
      if (depth === 0) {
        args.push(current.trim());
        return args;
      }
      depth--;
    }
    if (ch === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  return args;
}

const literal = (arg: string): string | undefined => /^'([^']*)'(::\w+)?$/.exec(arg)?.[1];

/** What one function body may leave on the session (pure: read from its source text). */
export function sessionWrites(src: string): { settings: string[]; prepared: boolean; holdableCursors: boolean; tempTables: boolean; droppedAtCommit: string[] } {
  const settings: string[] = [];
  for (const m of src.matchAll(/\bset_config\s*\(/gi)) {
    const [name, , local] = callArguments(src, m.index! + m[0].length);
    const n = name === undefined ? undefined : literal(name);
    if (n !== undefined && /^(false|'f'|'false'|'off')$/i.test((local ?? '').trim())) settings.push(n.toLowerCase());
  }
  // A SET statement (not SET LOCAL, not an UPDATE's SET list): at the start of a statement.
  for (const m of src.matchAll(/(?:^|;|\bbegin|\bthen|\belse|\bloop)\s*set\s+(session\s+)?(?!local\b)([a-z_][\w$]*(?:\.[a-z_][\w$]*)?)\s*(?:=|\bto\b)/gi)) {
    settings.push(m[2].toLowerCase());
  }
  const droppedAtCommit = [...src.matchAll(/\bcreate\s+(?:global\s+|local\s+)?temp(?:orary)?\s+table\s+(?:if\s+not\s+exists\s+)?"?([\w$]+)"?[^;]*?\bon\s+commit\s+drop\b/gi)].map((m) => m[1].toLowerCase());
  return {
    settings: settings.filter((n) => !SET_BY_POSTGREST.test(n)),
    prepared: /\bprepare\s+[a-z_"]/i.test(src),
    holdableCursors: /\bwith\s+hold\b/i.test(src),
    tempTables: /\bcreate\s+(?:global\s+|local\s+)?temp(?:orary)?\s+table\b/i.test(src),
    droppedAtCommit,
  };
}

/** The watch over a catalog's function bodies, or undefined when none can leave anything behind. */
export function sessionStateWatch(functions: readonly { name: string; src: string }[]): SessionStateWatch | undefined {
  const watch: SessionStateWatch = { settings: new Map(), prepared: false, holdableCursors: false, tempTables: false, droppedAtCommit: [] };
  for (const f of functions) {
    const w = sessionWrites(f.src);
    for (const n of w.settings) watch.settings.set(n, [...new Set([...(watch.settings.get(n) ?? []), f.name])]);
    watch.prepared ||= w.prepared;
    watch.holdableCursors ||= w.holdableCursors;
    watch.tempTables ||= w.tempTables;
    watch.droppedAtCommit.push(...w.droppedAtCommit);
  }
  return watch.settings.size || watch.prepared || watch.holdableCursors || watch.tempTables ? watch : undefined;
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
const textArray = (xs: readonly string[]) => `array[${xs.map(quote).join(', ')}]::text[]`;

/** Reads each watched setting's fresh-session value (sessionValues) on a connection that has set none. */
export function sessionValuesSql(watch: SessionStateWatch): string {
  return `select n, coalesce(current_setting(n, true), '') as v from unnest(${textArray([...watch.settings.keys()])}) n`;
}

/**
 * The probe: one row, one column, a JSON list of what the request left (empty: nothing). A
 * setting counts when its value differs from its fresh-session one (no pg_settings scan: the
 * probe stays a few function calls); temporary tables are looked for only once a temporary
 * schema exists on the session.
 */
export function sessionProbeSql(watch: SessionStateWatch): string {
  const parts: string[] = [];
  if (watch.settings.size) {
    const names = [...watch.settings.keys()];
    const fresh = names.map((n) => watch.sessionValues?.get(n) ?? '');
    parts.push(`select format('setting %s = %L', n, v) from (select n, coalesce(current_setting(n, true), '') as v, e from unnest(${textArray(names)}, ${textArray(fresh)}) as w(n, e)) s where v <> e`);
  }
  // The harness's own prepared statements are pf_<n> (prepared-statements.ts).
  if (watch.prepared) parts.push(`select format('prepared statement %s', name) from pg_prepared_statements where from_sql and name !~ '^pf_[0-9]+$'`);
  if (watch.holdableCursors) parts.push(`select format('cursor %s (WITH HOLD)', name) from pg_cursors where is_holdable`);
  if (watch.tempTables) {
    parts.push(`select format('temporary table %s', relname) from pg_class where pg_my_temp_schema() <> 0 and relnamespace = pg_my_temp_schema() and relkind in ('r', 'p') and relname <> all (${textArray(watch.droppedAtCommit)})`);
  }
  return `select coalesce(json_agg(pf_left), '[]')::text as pf_left from (${parts.join(' union all ')}) as pf_probe(pf_left)`;
}

/** The probe's answer, with the functions that write each setting named. */
export function leftBehindFrom(watch: SessionStateWatch, answer: string | null): string[] {
  const items = answer ? (JSON.parse(answer) as string[]) : [];
  return items.map((item) => {
    const name = /^setting (\S+) = /.exec(item)?.[1];
    const writers = name ? watch.settings.get(name) : undefined;
    return writers ? `${item} (written at session level by ${writers.join(', ')})` : item;
  });
}
