/**
 * The simple, common CHECK forms read from a constraint's definition (pg_get_constraintdef), so
 * the fixture filler can write values a CHECK accepts and the realizability test can name a drawn
 * value one refuses: a format on text (`col ~ '^PR-[0-9]{6}$'`), a range (`col >= 0`, `between`),
 * a length cap or floor (`char_length(col) <= n`, `char_length(username) >= 3`) and a sum (`total = subtotal + fee`). A vocabulary
 * (`col in (...)`) is table-shapes.ts checkVocabulary. Anything else is left to the database.
 * Pure (no I/O).
 */

export type CheckForm =
  | { kind: 'pattern'; column: string; pattern: string }
  | { kind: 'range'; column: string; min?: number; max?: number; /** `>` or `<`: the bound itself refused (`price > 0` holds 0.5). */ strict?: true }
  | { kind: 'maxLength'; column: string; max: number }
  | { kind: 'minLength'; column: string; min: number }
  | { kind: 'sum'; column: string; addends: string[] };

const IDENT = String.raw`"?([a-z_][a-z0-9_]*)"?`;
const NUMBER = String.raw`'?(-?[0-9]+(?:\.[0-9]+)?)'?(?:::[a-z ]+)?`;

/** The forms a CHECK's definition is made of, joined by AND; undefined when any part is of another form (or an OR). */
export function checkForms(definition: string): CheckForm[] | undefined {
  const body = /^CHECK \((.*)\)(?: NOT VALID)?$/is.exec(definition.trim())?.[1];
  if (body === undefined || /\bOR\b/i.test(body)) return undefined;
  const forms: CheckForm[] = [];
  for (const raw of body.split(/\s+AND\s+/i)) {
    const part = raw.replace(/^\(+|\)+$/g, '').trim();
    const form = oneForm(part);
    if (!form) return undefined;
    forms.push(...form);
  }
  return forms.length ? forms : undefined;
}

function oneForm(part: string): CheckForm[] | undefined {
  let m = new RegExp(`^${IDENT}(?:::text)?\\s*~\\s*'((?:[^']|'')*)'(?:::text)?$`, 'i').exec(part);
  if (m) return [{ kind: 'pattern', column: m[1], pattern: m[2].replace(/''/g, "'") }];
  m = new RegExp(`^(?:char_length|length)\\(\\(?${IDENT}\\)?(?:::text)?\\)\\s*(<=|<|>=|>)\\s*${NUMBER}$`, 'i').exec(part);
  if (m && m[2].startsWith('<')) return [{ kind: 'maxLength', column: m[1], max: Number(m[3]) - (m[2] === '<' ? 1 : 0) }];
  if (m) return [{ kind: 'minLength', column: m[1], min: Number(m[3]) + (m[2] === '>' ? 1 : 0) }];
  m = new RegExp(`^${IDENT}\\s*(>=|>|<=|<)\\s*${NUMBER}$`, 'i').exec(part);
  if (m) {
    const n = Number(m[3]);
    const op = m[2];
    const strict = op.length === 1 ? ({ strict: true } as const) : {};
    return [op.startsWith('>') ? { kind: 'range', column: m[1], min: n, ...strict } : { kind: 'range', column: m[1], max: n, ...strict }];
  }
  m = new RegExp(`^${IDENT}\\s*=\\s*\\(*((?:"?[a-z_][a-z0-9_]*"?\\s*\\+\\s*)+"?[a-z_][a-z0-9_]*"?)\\)*$`, 'i').exec(part);
  if (m) return [{ kind: 'sum', column: m[1], addends: m[2].split('+').map((s) => s.trim().replace(/^\(+|\)+$|"/g, '')) }];
  return undefined;
}

interface Token {
  chars: string[];
  min: number;
  max: number;
}

/** An anchored pattern of literals, classes (`[0-9A-Z]`, `[[:digit:]]`) and quantifiers (`{n}`, `{n,m}`, `{n,}`, `+`, `*`, `?`) as tokens; undefined for anything else. */
function tokens(pattern: string): Token[] | undefined {
  if (!pattern.startsWith('^') || !pattern.endsWith('$') || pattern.endsWith('\\$')) return undefined;
  const src = pattern.slice(1, -1).replace(/\[:digit:\]/g, '0-9').replace(/\[:alpha:\]|\[:lower:\]/g, 'a-z').replace(/\[:upper:\]/g, 'A-Z').replace(/\[:alnum:\]/g, 'a-z0-9');
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    let chars: string[];
    const c = src[i];
    if (c === '[') {
      const end = src.indexOf(']', i + 2);
      if (end < 0 || src[i + 1] === '^') return undefined;
      const inner = src.slice(i + 1, end);
      if (inner.includes('[')) return undefined;
      chars = [];
      for (let j = 0; j < inner.length; j++) {
        if (inner[j + 1] === '-' && j + 2 < inner.length) {
          for (let code = inner.charCodeAt(j); code <= inner.charCodeAt(j + 2); code++) chars.push(String.fromCharCode(code));
          j += 2;
        } else chars.push(inner[j] === '\\' ? inner[++j] : inner[j]);
      }
      i = end + 1;
    } else if (c === '\\') {
      const e = src[i + 1];
      if (e === undefined) return undefined;
      chars = e === 'd' ? [...'0123456789'] : /[a-zA-Z]/.test(e) ? [] : [e];
      if (!chars.length) return undefined;
      i += 2;
    } else if ('()|.*+?{}^$'.includes(c)) return undefined;
    else {
      chars = [c];
      i++;
    }
    let min = 1;
    let max = 1;
    const q = src[i];
    if (q === '+' || q === '*' || q === '?') {
      min = q === '+' ? 1 : 0;
      max = q === '?' ? 1 : Infinity;
      i++;
    } else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
      if (!m) return undefined;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      i += m[0].length;
    }
    out.push({ chars, min, max });
  }
  return out;
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

/** Whether `value` matches the pattern, as far as JavaScript's regex reads a POSIX one; undefined when it cannot say. */
export function matchesPattern(pattern: string, value: string): boolean | undefined {
  const js = pattern.replace(/\[:digit:\]/g, '0-9').replace(/\[:alpha:\]/g, 'a-zA-Z').replace(/\[:alnum:\]/g, 'a-zA-Z0-9').replace(/\[:space:\]/g, '\\s').replace(/\[:upper:\]/g, 'A-Z').replace(/\[:lower:\]/g, 'a-z');
  // A class JavaScript does not know, or a Postgres-only escape: no answer.
  if (/\[:|\\[mMyYAZ]/.test(js)) return undefined;
  try {
    return new RegExp(js).test(value);
  } catch {
    return undefined;
  }
}
