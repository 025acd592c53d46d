/**
 * Splits a SQL expression (a policy as Postgres prints it in pg_policies, a function's answer)
 * into its top-level AND conjuncts (or OR alternatives, CASE branches), respecting parentheses,
 * quoted strings and identifiers. Pure text, shared by the mutants (dropping one conjunct is the
 * commonest real policy bug: a forgotten `deleted_at is null`) and by init's reading of helpers.
 */
export function stripOuterParens(expr: string): string {
  let s = expr.trim();
  while (s.startsWith('(') && s.endsWith(')') && matchingParen(s, 0) === s.length - 1) s = s.slice(1, -1).trim();
  return s;
}

function matchingParen(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const ch = s[i];
    if (ch === "'" || ch === '"') {
      i = skipQuoted(s, i);
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return -1;
}

function skipQuoted(s: string, start: number): number {
  const quote = s[start];
  for (let i = start + 1; i < s.length; i++) {
    if (s[i] === quote) {
      if (s[i + 1] === quote) i++;
      else return i;
    }
  }
  return s.length;
}

const WORD = /[a-z_][\w$]*/iy;

/**
 * The words of `s` outside parentheses, CASE … END, strings and quoted names, with where each
 * starts (an AND inside a CASE's WHEN is that branch's, not the expression's); `balanced`: no
 * parenthesis or END closes what was not opened, and all are closed at the end.
 */
function topLevelWords(s: string): { words: { word: string; at: number }[]; balanced: boolean } {
  const words: { word: string; at: number }[] = [];
  let depth = 0;
  let balanced = true;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === "'" || ch === '"') {
      i = skipQuoted(s, i);
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')') balanced &&= --depth >= 0;
    else if (/[a-z_]/i.test(ch) && (i === 0 || !/[\w$.]/.test(s[i - 1]))) {
      WORD.lastIndex = i;
      const word = WORD.exec(s)![0];
      const lower = word.toLowerCase();
      if (lower === 'case') depth++;
      else if (lower === 'end') balanced &&= --depth >= 0;
      else if (depth === 0) words.push({ word: lower, at: i });
      i += word.length - 1;
    }
  }
  return { words, balanced: balanced && depth === 0 };
}

/** The top-level terms joined by `op` (AND or OR), outside parentheses, CASE … END, strings and quoted names. */
function topLevelTerms(expr: string, op: 'AND' | 'OR'): string[] {
  const s = stripOuterParens(expr);
  const joiner = op.toLowerCase();
  const parts: string[] = [];
  let start = 0;
  for (const { word, at } of topLevelWords(s).words) {
    if (word !== joiner || !/\s/.test(s[at - 1] ?? '') || !/\s/.test(s[at + word.length] ?? '')) continue;
    parts.push(s.slice(start, at).trim());
    start = at + word.length;
  }
  parts.push(s.slice(start).trim());
  return parts.filter(Boolean);
}

/**
 * The WHEN … THEN branches of an expression that is one searched CASE (`case when a then x when b
 * then y else z end`, parentheses around it or not), each condition with its result; undefined for
 * anything else (a simple `case v when …`, a CASE beside other terms).
 */
export function caseBranches(expr: string): { condition: string; result: string }[] | undefined {
  const parsed = caseParts(expr);
  return parsed && !parsed.operand ? parsed.branches : undefined;
}

/**
 * A simple CASE's operand and branches (`case current_user_role() when 'dev' then true when
 * 'vp_admin' then p_dept = current_user_dept() else … end`): each branch's WHEN values (as written)
 * with its result; undefined for anything else (a searched CASE, a CASE beside other terms).
 */
export function simpleCaseBranches(expr: string): { operand: string; branches: { values: string; result: string }[] } | undefined {
  const parsed = caseParts(expr);
  return parsed?.operand ? { operand: parsed.operand, branches: parsed.branches.map((b) => ({ values: b.condition, result: b.result })) } : undefined;
}

/** One CASE expression's parts: the simple form's operand (empty for a searched CASE) and each WHEN's text with its THEN's. */
function caseParts(expr: string): { operand: string; branches: { condition: string; result: string }[] } | undefined {
  const s = stripOuterParens(expr);
  if (!/^case\s/i.test(s) || !/\send$/i.test(s)) return undefined;
  const inner = s.slice('case'.length, -'end'.length);
  const { words, balanced } = topLevelWords(inner);
  if (!balanced) return undefined;
  const keywords = words.filter((w) => w.word === 'when' || w.word === 'then' || w.word === 'else');
  if (keywords[0]?.word !== 'when') return undefined;
  const operand = inner.slice(0, keywords[0].at).trim();
  const branches: { condition: string; result: string }[] = [];
  for (let k = 0; k < keywords.length; k++) {
    const [when, then] = [keywords[k], keywords[k + 1]];
    if (when.word === 'else') return k === keywords.length - 1 ? { operand, branches } : undefined;
    if (when.word !== 'when' || then?.word !== 'then') return undefined;
    const next = keywords[k + 2]?.at ?? inner.length;
    branches.push({ condition: inner.slice(when.at + 'when'.length, then.at).trim(), result: inner.slice(then.at + 'then'.length, next).trim() });
    k++;
  }
  return { operand, branches };
}

/** A CASE expression's ELSE result at its top level (`case when … then … else <this> end`), or undefined where it has none. */
export function caseElse(expr: string): string | undefined {
  const s = stripOuterParens(expr);
  if (!caseBranches(s)) return undefined;
  const inner = s.slice('case'.length, -'end'.length);
  const otherwise = topLevelWords(inner).words.filter((w) => w.word === 'else').at(-1);
  return otherwise ? inner.slice(otherwise.at + 'else'.length).trim() : undefined;
}

export function topLevelConjuncts(expr: string): string[] {
  return topLevelTerms(expr, 'AND');
}

/** The top-level OR alternatives: `owner_id = auth.uid() OR is_public` has two. */
export function topLevelDisjuncts(expr: string): string[] {
  return topLevelTerms(expr, 'OR');
}

/** The expression without its `index`-th top-level alternative (a stricter policy). */
export function withoutDisjunct(expr: string, index: number): string {
  return topLevelDisjuncts(expr).filter((_, i) => i !== index).map((p) => `(${stripOuterParens(p)})`).join(' OR ');
}

/** The expression with its `index`-th top-level conjunct removed (a looser policy). */
export function withoutConjunct(expr: string, index: number): string {
  const parts = topLevelConjuncts(expr);
  return parts.filter((_, i) => i !== index).map((p) => `(${stripOuterParens(p)})`).join(' AND ');
}

/** Where the comment starting at `i` (a line comment or a block comment) ends, if one starts there. */
function commentEnd(sql: string, i: number): number | undefined {
  if (sql[i] === '-' && sql[i + 1] === '-') {
    const nl = sql.indexOf('\n', i);
    return nl < 0 ? sql.length : nl;
  }
  if (sql[i] === '/' && sql[i + 1] === '*') {
    const end = sql.indexOf('*/', i + 2);
    return end < 0 ? sql.length : end + 1;
  }
  return undefined;
}

/** Words that end a WHERE condition at its own depth (the clause after it, or a plpgsql keyword). */
const AFTER_WHERE = /^(group|order|limit|offset|returning|union|intersect|except|window|having|for|into|loop|on)\b/i;

/**
 * The WHERE conditions of a function's SQL (`where` outside strings, quoted names and comments),
 * as [start, end) offsets of the condition text: it ends at `;`, at a closing parenthesis of an
 * enclosing level, or at a clause keyword of its own level.
 */
export function whereConditions(sql: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  /** Open conditions, innermost last: where they start and the depth they live at. */
  const open: { start: number; depth: number }[] = [];
  let depth = 0;
  const close = (at: number, until: (o: { depth: number }) => boolean) => {
    while (open.length && until(open[open.length - 1])) {
      const o = open.pop()!;
      if (sql.slice(o.start, at).trim()) found.push({ start: o.start, end: at });
    }
  };
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      i = skipQuoted(sql, i);
      continue;
    }
    const comment = commentEnd(sql, i);
    if (comment !== undefined) {
      i = comment;
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')') {
      close(i, (o) => o.depth >= depth);
      depth--;
    } else if (ch === ';') close(i, () => true);
    else if (/[a-z_]/i.test(ch) && (i === 0 || !/[\w$]/.test(sql[i - 1]))) {
      const word = /^[a-z_][\w$]*/i.exec(sql.slice(i))![0];
      if (AFTER_WHERE.test(word) && word.length === AFTER_WHERE.exec(word)![0].length) close(i, (o) => o.depth === depth);
      if (word.toLowerCase() === 'where') open.push({ start: i + word.length, depth });
      i += word.length - 1;
    }
  }
  close(sql.length, () => true);
  return found.sort((a, b) => a.start - b.start);
}

/** Words after which a plpgsql statement starts (so an `if` there opens an IF, not `drop … if exists`). */
const STATEMENT_BEFORE = /^(begin|then|else|loop)$/i;

/**
 * The conditions of a plpgsql body's IF and ELSIF statements (outside strings, quoted names and
 * comments), as [start, end) offsets of the text between the keyword and its THEN. A CASE inside
 * a condition keeps its own THENs.
 */
export function ifConditions(sql: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  let previous = ';';
  /** The open condition: where it starts, its parenthesis depth, the CASEs open inside it. */
  let open: { start: number; depth: number; cases: number } | undefined;
  let depth = 0;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      i = skipQuoted(sql, i);
      previous = 'value';
      continue;
    }
    const comment = commentEnd(sql, i);
    if (comment !== undefined) {
      i = comment;
      continue;
    }
    if (/\s/.test(ch)) continue;
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    if (/[a-z_]/i.test(ch) && (i === 0 || !/[\w$]/.test(sql[i - 1]))) {
      const word = /^[a-z_][\w$]*/i.exec(sql.slice(i))![0];
      const lower = word.toLowerCase();
      if (open) {
        if (depth === open.depth && lower === 'case') open.cases++;
        else if (depth === open.depth && lower === 'end') open.cases--;
        else if (depth === open.depth && open.cases === 0 && lower === 'then') {
          found.push({ start: open.start, end: i });
          open = undefined;
        }
      } else if ((lower === 'if' && (previous === ';' || STATEMENT_BEFORE.test(previous))) || lower === 'elsif') {
        open = { start: i + word.length, depth, cases: 0 };
      }
      previous = lower;
      i += word.length - 1;
    } else previous = ch;
  }
  return found;
}

/**
 * The WHERE condition of `EXISTS ( SELECT … FROM … WHERE cond )` as Postgres prints it, when
 * the subquery is nothing more (no UNION, GROUP BY, LIMIT…): the EXISTS is false wherever that
 * condition is. Undefined for anything else (NOT EXISTS, no WHERE).
 */
export function existsCondition(expr: string): string | undefined {
  const s = stripOuterParens(expr);
  const head = /^EXISTS\s*\(/i.exec(s);
  if (!head || matchingParen(s, head[0].length - 1) !== s.length - 1) return undefined;
  const body = s.slice(head[0].length, -1);
  let depth = 0;
  let where = -1;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === "'" || ch === '"') {
      i = skipQuoted(body, i);
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0 && /\s/.test(ch)) {
      const rest = body.slice(i + 1);
      if (where >= 0 && AFTER_WHERE.test(rest)) return undefined; // more than the condition (a UNION, a GROUP BY)
      if (where < 0 && /^WHERE\b/i.test(rest)) where = i + 1 + 'WHERE'.length;
    }
  }
  return where < 0 ? undefined : body.slice(where).trim();
}
