/**
 * A migration file cut into its statements where psql would cut it (psqlscan.l): at a semicolon
 * outside quotes ('…', E'…', "…", $tag$…$tag$), comments (-- and nested block comments), parentheses
 * (CREATE RULE … DO (a; b)) and the BEGIN … END body of a CREATE FUNCTION/PROCEDURE
 * (BEGIN ATOMIC). Applied one by one in the file's transaction, each runs as it would in the
 * whole file; the one under way is known, so a timeout can name it.
 */
export interface SqlStatement {
  text: string;
  /** Where the statement starts in the file (a string index). */
  offset: number;
}

const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
const IDENT_PART = /[A-Za-z0-9_$\u0080-\uffff]/;

/** The statements of `sql`, blank ones left out; one that cannot be cut (an unclosed quote) is the whole file. */
export function splitStatements(sql: string): SqlStatement[] {
  const out: SqlStatement[] = [];
  let start = 0;
  let parens = 0;
  let beginDepth = 0;
  // The first identifiers of the statement (create, or, replace, function, procedure): psql's heuristic.
  let words: string[] = [];
  const push = (end: number) => {
    const text = sql.slice(start, end);
    if (!isBlank(text)) out.push({ text, offset: start });
  };
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      const eol = sql.indexOf('\n', i);
      i = eol < 0 ? n : eol + 1;
    } else if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') (depth++, (i += 2));
        else if (sql[i] === '*' && sql[i + 1] === '/') (depth--, (i += 2));
        else i++;
      }
      if (depth > 0) return whole(sql);
    } else if (c === "'") {
      const escapes = i > 0 && /[eE]/.test(sql[i - 1]!) && !(i > 1 && IDENT_PART.test(sql[i - 2]!));
      const end = endOfQuoted(sql, i, "'", escapes);
      if (end < 0) return whole(sql);
      i = end;
    } else if (c === '"') {
      const end = endOfQuoted(sql, i, '"', false);
      if (end < 0) return whole(sql);
      i = end;
    } else if (c === '$') {
      const tag = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(sql.slice(i, i + 64));
      if (tag) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        if (close < 0) return whole(sql);
        i = close + tag[0].length;
      } else i++;
    } else if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < n && IDENT_PART.test(sql[j]!)) j++;
      const word = sql.slice(i, j).toLowerCase();
      words.push(word);
      if (parens === 0 && routineDefinition(words)) {
        if (word === 'begin') beginDepth++;
        else if (word === 'case' && beginDepth > 0) beginDepth++;
        else if (word === 'end' && beginDepth > 0) beginDepth--;
      }
      i = j;
    } else if (/[0-9]/.test(c)) {
      // A number (and any identifier characters glued to it) is no keyword.
      let j = i + 1;
      while (j < n && IDENT_PART.test(sql[j]!)) j++;
      i = j;
    } else if (c === '(') (parens++, i++);
    else if (c === ')') ((parens = Math.max(0, parens - 1)), i++);
    else if (c === ';' && parens === 0 && beginDepth === 0) {
      push(i + 1);
      start = i + 1;
      words = [];
      i++;
    } else i++;
  }
  push(n);
  return out;
}

/** CREATE [OR REPLACE] FUNCTION|PROCEDURE: only there do BEGIN … END hold semicolons. */
function routineDefinition(words: string[]): boolean {
  const [a, b, c, d] = words;
  if (a !== 'create') return false;
  return b === 'function' || b === 'procedure' || (b === 'or' && c === 'replace' && (d === 'function' || d === 'procedure'));
}

/** The index after the closing quote (a doubled quote is one inside), or -1 when it never closes. */
function endOfQuoted(sql: string, open: number, quote: string, backslashEscapes: boolean): number {
  for (let i = open + 1; i < sql.length; i++) {
    const c = sql[i];
    if (backslashEscapes && c === '\\') i++;
    else if (c === quote) {
      if (sql[i + 1] === quote) i++;
      else return i + 1;
    }
  }
  return -1;
}

function whole(sql: string): SqlStatement[] {
  return isBlank(sql) ? [] : [{ text: sql, offset: 0 }];
}

/** Only whitespace and comments. */
function isBlank(text: string): boolean {
  return text.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '').trim() === '';
}
