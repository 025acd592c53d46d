/**
 * The simple, common CHECK forms read from a constraint's definition (pg_get_constraintdef), so
 * the fixture filler can write values a CHECK accepts and the realizability test can name a drawn
 * value one refuses: a format on text (`col ~ '^PR-[0-9]{6}$'`, negated classes `[^@\s]` too), a range (`col >= 0`, `between`),
 * a length cap or floor (`char_length(col) <= n`, `char_length(username) >= 3`) and a sum (`total = subtotal + fee`). A vocabulary
 * (`col in (...)`) is table-shapes.ts checkVocabulary. Literals are read through the casts Postgres
 * prints (`(0)::numeric`, `'-1'::integer`, `'^x$'::text`). Anything else is left to the database.
 * Pure (no I/O).
 */

import { likePatternSource } from '../regexp.ts';

export type CheckForm =
  | {
      kind: 'pattern';
      column: string;
      /** A POSIX regular expression (a LIKE pattern is read as one: `%@kku.ac.th` is `^.*@kku\.ac\.th$`). */
      pattern: string;
      /** `~*` or ILIKE: letters match either case. */
      caseInsensitive?: true;
      /** `lower(col) ~ …` or `lower(col) LIKE …`: the value is lower-cased before it is matched. */
      lowerCased?: true;
    }
  | { kind: 'range'; column: string; min?: number; max?: number; /** `>` or `<`: the bound itself refused (`price > 0` holds 0.5). */ strict?: true }
  | { kind: 'maxLength'; column: string; max: number }
  | { kind: 'minLength'; column: string; min: number }
  /** `cardinality(col) >= 1`: an array holding at least `min` elements (stranger-app-14's `roles app_role[]`). Not `array_length(col, 1) > 0`: it is null for an empty array, which the CHECK lets through. */
  | { kind: 'minItems'; column: string; min: number }
  | { kind: 'sum'; column: string; addends: string[] }
  /** `col = lower(btrim(col))` and the like: the column holds only its value lower-cased and/or trimmed of spaces. */
  | { kind: 'normalized'; column: string; lower: boolean; trim: boolean };

const IDENT = String.raw`"?([a-z_][a-z0-9_]*)"?`;

/** The forms a CHECK's definition is made of, joined by AND; undefined when any part is of another form (or an OR). */
export function checkForms(definition: string): CheckForm[] | undefined {
  const whole = /^CHECK \((.*)\)(?: NOT VALID)?$/is.exec(definition.trim())?.[1];
  if (whole === undefined) return undefined;
  const nullable = nullOr(withoutParens(whole));
  const body = nullable?.rest ?? whole;
  if (/\bOR\b/i.test(body)) return undefined;
  const forms: CheckForm[] = [];
  for (const part of operands(splitTopLevel(withoutParens(body), ['AND']))) {
    const form = oneForm(withoutParens(part));
    if (!form) return undefined;
    forms.push(...form);
  }
  if (nullable && forms.some((f) => f.column !== nullable.column || f.kind === 'sum')) return undefined;
  return forms.length ? forms : undefined;
}

/**
 * `(col IS NULL) OR (…)`: the forms after it, each of that column alone, are the CHECK (a CHECK
 * holds a null anyway, these forms being null on a null). stranger-app-10's
 * `student_id is null or student_id ~ '^[0-9]{9,10}(-[0-9])?$'` refused every team_members row.
 */
function nullOr(body: string): { column: string; rest: string } | undefined {
  const split = splitTopLevel(body, ['OR']);
  if (split.length !== 3) return undefined;
  const column = new RegExp(`^${IDENT} IS NULL$`, 'i').exec(withoutParens(split[0]))?.[1];
  return column === undefined ? undefined : { column, rest: split[2] };
}

function oneForm(part: string): CheckForm[] | undefined {
  const sides = splitTopLevel(part, ['~', '~*', '~~', '~~*', '>=', '<=', '>', '<', '=']);
  if (sides.length !== 3) return undefined;
  const [left, op, right] = sides;
  if (op.startsWith('~')) return patternForm(left, op, right);
  if (op === '=') {
    const column = columnOf(left);
    const normalized = column === undefined ? undefined : normalizedForm(column, right);
    if (normalized) return [normalized];
    const addends = operands(splitTopLevel(unwrapped(right), ['+'])).map(columnOf);
    return column !== undefined && addends.length > 1 && addends.every((a) => a !== undefined) ? [{ kind: 'sum', column, addends: addends as string[] }] : undefined;
  }
  const n = numberOf(right);
  if (n === undefined) return undefined;
  const strict = op.length === 1 ? ({ strict: true } as const) : {};
  const counted = countedArray(unwrapped(left));
  if (counted !== undefined) return op.startsWith('>') ? [{ kind: 'minItems', column: counted, min: n + (op === '>' ? 1 : 0) }] : undefined;
  const measured = /^(?:char_length|length)\((.*)\)$/is.exec(unwrapped(left))?.[1];
  if (measured !== undefined) {
    const column = columnOf(measured);
    if (column === undefined) return undefined;
    return op.startsWith('<') ? [{ kind: 'maxLength', column, max: n - (op === '<' ? 1 : 0) }] : [{ kind: 'minLength', column, min: n + (op === '>' ? 1 : 0) }];
  }
  const column = columnOf(left);
  if (column === undefined) return undefined;
  return [op.startsWith('>') ? { kind: 'range', column, min: n, ...strict } : { kind: 'range', column, max: n, ...strict }];
}

/** The array column a count of elements measures: `cardinality(col)` (`array_length` is null on an empty array, so a CHECK on it refuses none). */
function countedArray(expression: string): string | undefined {
  const call = /^cardinality\((.*)\)$/is.exec(expression);
  return call ? columnOf(call[1]) : undefined;
}

/**
 * `col ~ 're'`, `col ~* 're'` and LIKE/ILIKE (Postgres prints them `~~`, `~~*`), of the column or
 * of `lower(col)`: stranger-app-11's `lower(kkumail) LIKE '%@kkumail.com'`, stranger-app-13's
 * `kkumail ~* '^[a-z0-9._-]+@kkumail\.com$'`.
 */
function patternForm(left: string, op: string, right: string): CheckForm[] | undefined {
  const lowered = /^lower\((.*)\)$/is.exec(unwrapped(left))?.[1];
  const column = columnOf(lowered ?? left);
  const literal = /^'((?:[^']|'')*)'$/s.exec(unwrapped(right))?.[1]?.replace(/''/g, "'");
  if (column === undefined || literal === undefined) return undefined;
  const like = op.startsWith('~~');
  const pattern = like ? likePatternSource(literal) : literal;
  return [{ kind: 'pattern', column, pattern, ...(op.endsWith('*') ? { caseInsensitive: true as const } : {}), ...(lowered !== undefined ? { lowerCased: true as const } : {}) }];
}

/** Whether a pattern CHECK holds `value` as Postgres matches it (lower-cased first, or either case); undefined when it cannot say. */
export function patternHolds(check: Extract<CheckForm, { kind: 'pattern' }>, value: string): boolean | undefined {
  return matchesPattern(check.pattern, check.lowerCased ? value.toLowerCase() : value, check.caseInsensitive === true);
}

/** `lower(btrim(col))`, `lower(col)`, `btrim(col)`, `TRIM(BOTH FROM col)` (casts aside) of `column` itself: the normalized form, or undefined. */
function normalizedForm(column: string, expression: string): CheckForm | undefined {
  let rest = unwrapped(expression);
  let lower = false;
  let trim = false;
  for (let step = 0; step < 3; step++) {
    const call = /^(lower|btrim|TRIM\(BOTH FROM)\s*\(?(.*)\)$/is.exec(rest);
    if (!call) break;
    if (/^lower$/i.test(call[1])) lower = true;
    else trim = true;
    rest = unwrapped(call[2]);
  }
  return (lower || trim) && columnOf(rest) === column ? { kind: 'normalized', column, lower, trim } : undefined;
}

/** A column, or a varchar one cast to text (`(code)::text`): a cast to a number type may round, and is another form. */
function columnOf(text: string): string | undefined {
  const t = withoutParens(text);
  const asText = /^(.*)::(?:text|character varying)$/is.exec(t)?.[1];
  return new RegExp(`^${IDENT}$`, 'i').exec(withoutParens(asText ?? t))?.[1];
}

/** A number, however quoted and cast (`(0)::numeric`, `('-1'::integer)::numeric`, `'-0.25'::numeric`). */
function numberOf(text: string): number | undefined {
  const m = /^'?(-?[0-9]+(?:\.[0-9]+)?)'?$/.exec(unwrapped(text));
  return m ? Number(m[1]) : undefined;
}

/**
 * A value without the casts and parentheses Postgres prints around it (`((x)::text)` is `x`;
 * `('^a$'::character varying)::text` is `'^a$'`): casts change no value these forms read.
 */
function unwrapped(text: string): string {
  const t = withoutParens(text);
  const cast = /^(.*)::[a-z][a-z ]*(?:\([0-9, ]*\))?$/is.exec(t);
  return cast && balanced(cast[1]) ? unwrapped(cast[1]) : t;
}

/** `text` without the parentheses enclosing all of it. */
function withoutParens(text: string): string {
  let t = text.trim();
  while (t.startsWith('(') && t.endsWith(')') && balanced(t.slice(1, -1))) t = t.slice(1, -1).trim();
  return t;
}

/** Parentheses that close in order, outside quoted text. */
function balanced(text: string): boolean {
  let depth = 0;
  let quoted = false;
  for (const c of text) {
    if (c === "'") quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')' && --depth < 0) return false;
  }
  return depth === 0 && !quoted;
}

/**
 * `text` split at `ops` found outside parentheses and quoted text (an operator as Postgres prints
 * it, between spaces): operands with the operator between each two. A comparison's (no AND, no
 * `+` among `ops`) at its first operator only: `[left, op, right]`; `[text]` when none is there.
 */
export function splitTopLevel(text: string, ops: readonly string[]): string[] {
  const out: string[] = [];
  const repeats = ops.includes('AND') || ops.includes('+');
  let depth = 0;
  let quoted = false;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") quoted = !quoted;
    else if (quoted) continue;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && c === ' ') {
      const op = ops.find((o) => text.startsWith(` ${o} `, i));
      if (op === undefined) continue;
      out.push(text.slice(from, i), op);
      from = i + op.length + 2;
      i = from - 1;
      if (!repeats) break;
    }
  }
  out.push(text.slice(from));
  return out;
}

/** The operands of splitTopLevel's answer (the operators left out). */
const operands = (split: readonly string[]): string[] => split.filter((_, i) => i % 2 === 0);

interface Token {
  chars: string[];
  min: number;
  max: number;
}

/** Letters and digits a negated class (`[^@\s]`) is drawn from, less what it excludes. */
const NEGATED_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * An anchored pattern of literals, classes (`[0-9A-Z]`, `[[:digit:]]`, negated `[^@\s]`, `.`), groups
 * (`(-[0-9])?`, `(kkumail\.com|kku\.ac\.th)`, `(?:…)`) and quantifiers (`{n}`, `{n,m}`, `{n,}`,
 * `+`, `*`, `?`) as tokens; undefined for anything else. A group is sampled as its first
 * alternative repeated its least count (none for `?`): a string the whole pattern matches. A
 * pattern anchored at its start only (a storage path's `^projects/[0-9a-f-]{36}/`) is a prefix:
 * its tokens alone match it, whatever would follow.
 */
function tokens(pattern: string): Token[] | undefined {
  if (!pattern.startsWith('^')) return undefined;
  const anchoredEnd = pattern.endsWith('$') && !pattern.endsWith('\\$');
  const src = pattern.slice(1, anchoredEnd ? -1 : undefined).replace(/\[:digit:\]/g, '0-9').replace(/\[:alpha:\]|\[:lower:\]/g, 'a-z').replace(/\[:upper:\]/g, 'A-Z').replace(/\[:alnum:\]/g, 'a-z0-9').replace(/\[:space:\]/g, ' ');
  const read = sequence(src, 0);
  return read && read.end === src.length ? read.tokens : undefined;
}

/**
 * The tokens of `src` from `from` up to the `|` or `)` ending its alternative (or the end), and
 * where it stopped. A group's alternatives are each read so (a malformed one is no pattern), its
 * first stands for the group.
 */
function sequence(src: string, from: number): { tokens: Token[]; end: number } | undefined {
  const out: Token[] = [];
  let i = from;
  while (i < src.length && src[i] !== '|' && src[i] !== ')') {
    let atom: Token[];
    const c = src[i];
    if (c === '(') {
      let at = src.startsWith('(?:', i) ? i + 3 : i + 1;
      if (src[at] === '?') return undefined;
      const alternatives: Token[][] = [];
      for (;;) {
        const alt = sequence(src, at);
        if (!alt) return undefined;
        alternatives.push(alt.tokens);
        if (src[alt.end] === ')') {
          i = alt.end + 1;
          break;
        }
        if (src[alt.end] !== '|') return undefined;
        at = alt.end + 1;
      }
      atom = alternatives[0];
    } else {
      const one = oneAtom(src, i);
      if (!one) return undefined;
      atom = [{ chars: one.chars, min: 1, max: 1 }];
      i = one.end;
    }
    const quantity = quantifier(src, i);
    if (!quantity) return undefined;
    i = quantity.end;
    if (c === '(') for (let n = 0; n < quantity.min; n++) out.push(...atom);
    else out.push({ chars: atom[0].chars, min: quantity.min, max: quantity.max });
  }
  return { tokens: out, end: i };
}

/** One literal, escape or class at `i`: the characters it stands for, and where it ends. */
function oneAtom(src: string, i: number): { chars: string[]; end: number } | undefined {
  const c = src[i];
  if (c === '[') {
    const negated = src[i + 1] === '^';
    const end = src.indexOf(']', i + (negated ? 3 : 2));
    if (end < 0) return undefined;
    const inner = src.slice(i + (negated ? 2 : 1), end);
    if (inner.includes('[')) return undefined;
    let chars: string[] = [];
    for (let j = 0; j < inner.length; j++) {
      if (inner[j + 1] === '-' && j + 2 < inner.length) {
        for (let code = inner.charCodeAt(j); code <= inner.charCodeAt(j + 2); code++) chars.push(String.fromCharCode(code));
        j += 2;
      } else chars.push(inner[j] === '\\' ? inner[++j] : inner[j]);
    }
    // Negated: drawn from letters and digits it does not exclude (an escape such as `\s` excludes its letter too: fewer to draw from, never a wrong one).
    if (negated) chars = [...NEGATED_ALPHABET].filter((c) => !chars.includes(c) && !chars.includes(c.toUpperCase()));
    return chars.length ? { chars, end: end + 1 } : undefined;
  }
  if (c === '\\') {
    const e = src[i + 1];
    if (e === undefined) return undefined;
    const chars = e === 'd' ? [...'0123456789'] : /[a-zA-Z]/.test(e) ? [] : [e];
    return chars.length ? { chars, end: i + 2 } : undefined;
  }
  // Any character: drawn from letters and digits, as a negated class is.
  if (c === '.') return { chars: [...NEGATED_ALPHABET], end: i + 1 };
  if ('()|*+?{}^$'.includes(c)) return undefined;
  return { chars: [c], end: i + 1 };
}

/** The quantifier at `i` (none: once): its least and most counts, and where it ends. */
function quantifier(src: string, i: number): { min: number; max: number; end: number } | undefined {
  const q = src[i];
  if (q === '+' || q === '*' || q === '?') return { min: q === '+' ? 1 : 0, max: q === '?' ? 1 : Infinity, end: i + 1 };
  if (q !== '{') return { min: 1, max: 1, end: i };
  const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
  if (!m) return undefined;
  const min = Number(m[1]);
  return { min, max: m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]), end: i + m[0].length };
}

/**
 * A string matching `pattern` (a simple anchored one: tokens above), distinct for each `n` where
 * the pattern has room for it (n written in the alphabet of its first repeatable class, most
 * room first), or undefined when the pattern is of another form.
 */
export function sampleMatching(pattern: string, n: number): string | undefined {
  const parts = tokens(pattern);
  if (!parts) return undefined;
  const roomOf = (t: Token) => (t.chars.length < 2 ? 0 : t.max === Infinity ? Infinity : t.max);
  const widest = parts.reduce((best, t, i) => (roomOf(t) > (best < 0 ? 0 : roomOf(parts[best])) ? i : best), -1);
  return parts
    .map((t, i) => {
      if (i !== widest) return t.chars[0].repeat(t.min);
      const base = t.chars.length;
      let digits = '';
      let rest = Math.max(0, Math.floor(n));
      do {
        digits = t.chars[rest % base] + digits;
        rest = Math.floor(rest / base);
      } while (rest > 0);
      if (digits.length > t.max) digits = digits.slice(-t.max);
      return digits.padStart(t.min, t.chars[0]);
    })
    .join('');
}

/** `value` as a normalized CHECK (kind `normalized`) keeps it: lower-cased and/or trimmed of spaces, as Postgres's lower() and btrim() do. */
export function normalizedValue(check: { lower: boolean; trim: boolean }, value: string): string {
  const trimmed = check.trim ? value.replace(/^ +| +$/g, '') : value;
  return check.lower ? trimmed.toLowerCase() : trimmed;
}

/** Whether `value` matches the pattern, as far as JavaScript's regex reads a POSIX one; undefined when it cannot say. */
export function matchesPattern(pattern: string, value: string, caseInsensitive = false): boolean | undefined {
  const js = pattern.replace(/\[:digit:\]/g, '0-9').replace(/\[:alpha:\]/g, 'a-zA-Z').replace(/\[:alnum:\]/g, 'a-zA-Z0-9').replace(/\[:space:\]/g, '\\s').replace(/\[:upper:\]/g, 'A-Z').replace(/\[:lower:\]/g, 'a-z');
  // A class JavaScript does not know, or a Postgres-only escape: no answer.
  if (/\[:|\\[mMyYAZ]/.test(js)) return undefined;
  try {
    // `s`: Postgres' `.` takes a newline too (its regular expressions are not newline-sensitive by default).
    return new RegExp(js, caseInsensitive ? 'is' : 's').test(value);
  } catch {
    return undefined;
  }
}
