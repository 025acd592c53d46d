/**
 * Comparing answers as structures, never as strings: member order in a JSON object means
 * nothing, so `{"ok":false,"error":"X"}` and `{"error":"X","ok":false}` are the same answer.
 */

export function sameJson(a: unknown, b: unknown): boolean {
  return structuralDiff(a, b).length === 0;
}

/**
 * Where `actual` differs from `expected`, one line per differing path, e.g.
 * `body.profile.firstname: expected "Somchai", observed (missing)`. Empty when they agree.
 */
export function structuralDiff(expected: unknown, actual: unknown, path = '', out: string[] = [], limit = 20): string[] {
  if (out.length >= limit) return out;
  const at = path || '(whole answer)';
  if (isObject(expected) && isObject(actual)) {
    for (const k of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      const p = path ? `${path}.${k}` : k;
      if (!Object.hasOwn(actual, k)) out.push(`${p}: expected ${show(expected[k])}, observed (missing)`);
      else if (!Object.hasOwn(expected, k)) out.push(`${p}: expected (absent), observed ${show(actual[k])}`);
      else structuralDiff(expected[k], actual[k], p, out, limit);
    }
    return out;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) out.push(`${at}: expected ${expected.length} items, observed ${actual.length}`);
    for (let i = 0; i < Math.min(expected.length, actual.length); i++) structuralDiff(expected[i], actual[i], `${path}[${i}]`, out, limit);
    return out;
  }
  if (!Object.is(expected, actual)) {
    out.push(`${at}: expected ${show(expected)}, observed ${show(actual)}`);
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function show(v: unknown): string {
  const s = v === undefined ? '(absent)' : JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
}
