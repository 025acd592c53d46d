import { describe, it, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { parseStrictJson } from './strict-json.ts';

describe('parseStrictJson', () => {
  it('rejects duplicate keys that JSON.parse would accept', () => {
    const r = parseStrictJson('{"code":"a","code":"b"}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/duplicate key "code"/);
  });

  it('keeps __proto__ as an ordinary own key', () => {
    const r = parseStrictJson('{"__proto__":{"x":1}}');
    expect(r.ok).toBe(true);
    if (r.ok) expect(Object.keys(r.value as object)).toEqual(['__proto__']);
  });

  it('rejects non-JSON', () => {
    for (const t of ['', 'code=x', '{', '{"a":1,}', "{'a':1}", '{"a":"\u0001"}', '[1] 2']) {
      expect(parseStrictJson(t).ok, t).toBe(false);
    }
  });

  test.prop([fc.jsonValue()], { numRuns: 200 })('agrees with JSON.parse on generated JSON', (v) => {
    const text = JSON.stringify(v);
    const r = parseStrictJson(text);
    expect(r.ok).toBe(true);
    if (r.ok) expect(JSON.stringify(r.value)).toBe(JSON.stringify(JSON.parse(text)));
  });
});
