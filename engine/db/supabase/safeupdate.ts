/**
 * pg-safeupdate inside database functions. Supabase loads pg-safeupdate for `authenticator`: its
 * post_parse_analyze hook refuses every UPDATE or DELETE with no WHERE clause that the session
 * parses, and plpgsql and SQL functions parse their statements in the same session (SPI), so a
 * function called by rpc (or a trigger a request fires) that runs `delete from t` fails with 21000
 * "DELETE requires a WHERE clause" (PostgREST: 400). The executor refuses the top-level request
 * itself (statement.ts); this covers the statements inside functions:
 * - at set-up, every plpgsql and SQL function body is read once, and each UPDATE or DELETE in it
 *   with no WHERE at its own level is recorded (its text, or its number in a SQL function);
 * - its table gets a BEFORE ... FOR EACH STATEMENT trigger that, during a request (PostgREST's
 *   request.method is set), reads the call stack (PG_CONTEXT): when the statement that fired it
 *   is a recorded one, it raises safeupdate's 21000 before any row is touched.
 * - a plpgsql function that runs dynamic SQL (EXECUTE) may write any table: then every table
 *   gets the trigger, and a statement the call stack shows that is not recorded is judged from
 *   its text as pg-safeupdate judges its parse tree: an UPDATE or DELETE (the statement itself,
 *   or a data-modifying CTE of it) with no WHERE at its own level is refused; a WHERE inside a
 *   subquery or another CTE does not count.
 * Only tables such a statement can write get the trigger, so a schema without one pays nothing.
 */
import type pg from 'pg';
import { ident, literal } from '../../executor/sql-text.ts';

export interface UnfilteredWrite {
  command: 'UPDATE' | 'DELETE';
  /** The table written, as named (unqualified names resolve through the function's search_path). */
  table: string;
  /** The statement's text (plpgsql reports it in PG_CONTEXT as `SQL statement "…"`). */
  text: string;
  /** 1-based number of the statement in a SQL function (PG_CONTEXT: `SQL function "f" statement n`). */
  statementNo: number;
}

type Token = { word: string; start: number; end: number; depth: number } | { punct: string; start: number; depth: number };

/** Words and the punctuation that matters, outside comments, strings and quoted identifiers. */
function tokens(body: string): Token[] {
  const out: Token[] = [];
  let depth = 0;
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    const rest = body.slice(i);
    if (rest.startsWith('--')) {
      const nl = body.indexOf('\n', i);
      i = nl < 0 ? body.length : nl + 1;
    } else if (rest.startsWith('/*')) {
      const close = body.indexOf('*/', i + 2);
      i = close < 0 ? body.length : close + 2;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < body.length && !(body[j] === c && body[j + 1] !== c)) j += body[j] === c ? 2 : 1;
      if (c === '"') out.push({ word: body.slice(i, j + 1), start: i, end: j + 1, depth });
      i = j + 1;
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(rest)) {
      const tag = rest.match(/^\$[A-Za-z_]*\$/)![0];
      const close = body.indexOf(tag, i + tag.length);
      i = close < 0 ? body.length : close + tag.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = rest.match(/^[A-Za-z_][A-Za-z0-9_$]*(\.("[^"]*"|[A-Za-z_][A-Za-z0-9_$]*))*/)!;
      out.push({ word: m[0], start: i, end: i + m[0].length, depth });
      i += m[0].length;
    } else {
      if (c === '(') depth++;
      if (c === '(' || c === ')' || c === ';') out.push({ punct: c, start: i, depth });
      if (c === ')') depth--;
      i++;
    }
  }
  return out;
}

const isWord = (t: Token | undefined, w?: string): t is Extract<Token, { word: string }> => t !== undefined && 'word' in t && (w === undefined || t.word.toLowerCase() === w);

/** Every UPDATE or DELETE in a function body that has no WHERE at its own level. */
/** Whether a plpgsql body runs dynamic SQL (EXECUTE, outside strings and comments). */
export function runsDynamicSql(body: string): boolean {
  return tokens(body).some((t, i, all) => isWord(t, 'execute') && !(all[i + 1] && (isWord(all[i + 1], 'function') || isWord(all[i + 1], 'procedure'))));
}

export function unfilteredWrites(body: string): UnfilteredWrite[] {
  const ts = tokens(body);
  const out: UnfilteredWrite[] = [];
  let statementNo = 1;
  let statementStart = 0;
  for (let k = 0; k < ts.length; k++) {
    const t = ts[k];
    if ('punct' in t) {
      if (t.punct === ';' && t.depth === 0) {
        if (ts.slice(statementStart, k).length) statementNo++;
        statementStart = k + 1;
      }
      continue;
    }
    const w = t.word.toLowerCase();
    const next = ts[k + 1];
    let target: number;
    if (w === 'delete' && isWord(ts[k + 1], 'from')) target = k + 2;
    else if (w === 'update' && isWord(next) && !['set', 'of', 'nowait', 'skip'].includes(next.word.toLowerCase())) target = k + 1;
    else continue;
    if (isWord(ts[target], 'only')) target++;
    const table = ts[target];
    if (!isWord(table)) continue;
    // The statement ends at a ';' or a ')' closing its level; a WHERE at its level filters it.
    let end = target + 1;
    let filtered = false;
    while (end < ts.length) {
      const e = ts[end];
      if ('punct' in e && e.depth === t.depth && (e.punct === ';' || e.punct === ')')) break;
      if (isWord(e, 'where') && e.depth === t.depth) filtered = true;
      end++;
    }
    if (filtered) continue;
    const stop = end < ts.length ? ts[end].start : body.length;
    out.push({ command: w === 'delete' ? 'DELETE' : 'UPDATE', table: table.word, text: body.slice(t.start, stop).trim(), statementNo });
  }
  return out;
}

export const SAFEUPDATE_SCHEMA = 'policyfuzz_safeupdate';

/**
 * Records the unfiltered writes of every plpgsql and SQL function of the database and puts the
 * statement trigger on the tables they write. Run once on the template, after the migrations.
 */
export async function installSafeUpdate(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ oid: number; name: string; lang: string; body: string; path: string | null }>(
    `select p.oid, p.proname as name, l.lanname as lang, p.prosrc as body,
            (select substr(c, 13) from unnest(p.proconfig) c where c like 'search_path=%') as path
       from pg_proc p join pg_language l on l.oid = p.prolang join pg_namespace n on n.oid = p.pronamespace
      where l.lanname in ('plpgsql', 'sql') and n.nspname not in ('pg_catalog', 'information_schema', '${SAFEUPDATE_SCHEMA}')`,
  );
  const found = rows.flatMap((f) => unfilteredWrites(f.body).map((w) => ({ ...w, fn: f.name, lang: f.lang, path: f.path })));
  const dynamic = rows.some((f) => f.lang === 'plpgsql' && runsDynamicSql(f.body));
  if (!found.length && !dynamic) return 0;
  const tables = new Set<string>();
  if (dynamic) {
    const all = await client.query<{ name: string }>(
      `select c.oid::regclass::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and not c.relispartition and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast', '${SAFEUPDATE_SCHEMA}')`,
    );
    for (const r of all.rows) tables.add(r.name);
  }
  for (const w of found) {
    // Resolved as the function would: qualified, or through its search_path, else public.
    const schemas = w.table.includes('.') ? [''] : [...(w.path ?? '').split(',').map((s) => s.trim().replace(/^"|"$/g, '')).filter(Boolean), 'public'];
    for (const s of schemas) {
      const r = await client.query<{ name: string | null }>(`select to_regclass($1)::text as name`, [s ? `${ident(s)}.${w.table}` : w.table]);
      if (r.rows[0].name) {
        tables.add(r.rows[0].name);
        break;
      }
    }
  }
  const records = found.map((w) => `(${literal(w.command)}, ${literal(w.text.replace(/\s+/g, ' '))}, ${w.lang === 'sql' ? literal(w.fn) : 'null'}, ${w.statementNo})`).join(', ');
  await client.query(`
    create schema if not exists ${SAFEUPDATE_SCHEMA};
    revoke all on schema ${SAFEUPDATE_SCHEMA} from public;
    create table ${SAFEUPDATE_SCHEMA}.unfiltered (command text, statement text, sql_function text, statement_no int);
    ${records ? `insert into ${SAFEUPDATE_SCHEMA}.unfiltered values ${records};` : ''}
    create or replace function ${SAFEUPDATE_SCHEMA}.refuse() returns trigger language plpgsql security definer set search_path = '' as $f$
    declare
      stack text;
      caller text;
      stmt text;
      flat text;
      fn text[];
      hit text;
    begin
      if coalesce(current_setting('request.method', true), '') = '' then return null; end if;
      get diagnostics stack = pg_context;
      -- The frame under this trigger's own: the statement that fired it (none: the request itself).
      if strpos(stack, chr(10)) = 0 then return null; end if;
      caller := substr(stack, strpos(stack, chr(10)) + 1);
      if caller like 'SQL statement "%' and strpos(caller, '"' || chr(10) || 'PL/pgSQL function ') > 0 then
        stmt := substr(caller, 16, strpos(caller, '"' || chr(10) || 'PL/pgSQL function ') - 16);
        select u.command into hit from ${SAFEUPDATE_SCHEMA}.unfiltered u where u.statement = btrim(regexp_replace(stmt, '[[:space:]]+', ' ', 'g')) limit 1;
        if hit is null then
          -- Not in any body: built for EXECUTE. As pg-safeupdate reads the parse tree: the UPDATE or
          -- DELETE itself, and each data-modifying CTE, needs a WHERE at its own level (one in a
          -- subquery does not count). Strings, quoted names and comments are blanked, then the
          -- innermost parentheses are judged and removed until none is left.
          flat := regexp_replace(stmt, '''([^'']|'''')*''|"([^"]|"")*"', ' x ', 'g');
          flat := regexp_replace(flat, '--[^' || chr(10) || ']*', ' ', 'g');
          flat := regexp_replace(flat, '/\\*([^*]|\\*+[^*/])*\\*+/', ' ', 'g');
          while hit is null and flat ~ '\\([^()]*\\)' loop
            select upper(substring(m[1] from '^[[:space:]]*([A-Za-z]+)')) into hit from regexp_matches(flat, '\\(([^()]*)\\)', 'g') m
             where m[1] ~* '^[[:space:]]*(update|delete)\\M' and m[1] !~* '\\mwhere\\M' limit 1;
            flat := regexp_replace(flat, '\\([^()]*\\)', ' ', 'g');
          end loop;
          -- The statement's own command, after its WITH list (each CTE now only its name and AS).
          flat := regexp_replace(flat, '^[[:space:]]*with[[:space:]]+(recursive[[:space:]]+)?([^[:space:],]+[[:space:]]+as[[:space:]]+((not[[:space:]]+)?materialized[[:space:]]+)?,?[[:space:]]*)+', '', 'i');
          if hit is null and flat ~* '^[[:space:]]*(update|delete)\\M' and flat !~* '\\mwhere\\M' then
            hit := upper(substring(flat from '^[[:space:]]*([A-Za-z]+)'));
          end if;
        end if;
      else
        fn := regexp_match(caller, '^SQL function "([^"]+)" statement ([0-9]+)');
        if fn is not null then
          select u.command into hit from ${SAFEUPDATE_SCHEMA}.unfiltered u where u.sql_function = fn[1] and u.statement_no = fn[2]::int limit 1;
        end if;
      end if;
      if hit is not null then
        raise exception '% requires a WHERE clause', hit using errcode = '21000',
          hint = format('To %s all rows, use "WHERE true" or similar.', lower(hit));
      end if;
      return null;
    end
    $f$;
    ${[...tables].map((t, i) => `create trigger policyfuzz_safeupdate_${i} before update or delete on ${t} for each statement execute function ${SAFEUPDATE_SCHEMA}.refuse();`).join('\n')}
  `);
  return found.length;
}
