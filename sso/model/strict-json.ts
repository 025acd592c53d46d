/**
 * JSON.parse silently keeps the last of duplicate keys, so `{"code":"a","code":"b"}` would look
 * valid. The token endpoint must refuse such bodies, so model and emulator share this parser,
 * which accepts exactly RFC 8259 JSON and rejects duplicate object keys anywhere.
 */
export type StrictJsonResult = { ok: true; value: unknown } | { ok: false; reason: string };

export function parseStrictJson(text: string): StrictJsonResult {
  let i = 0;
  const fail = (reason: string): never => {
    throw new StrictJsonError(`${reason} at offset ${i}`);
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const value = (depth: number): unknown => {
    if (depth > 64) fail('nesting too deep');
    ws();
    const c = text[i];
    if (c === '{') return object(depth);
    if (c === '[') return array(depth);
    if (c === '"') return string();
    if (c === 't' && text.startsWith('true', i)) return (i += 4), true;
    if (c === 'f' && text.startsWith('false', i)) return (i += 5), false;
    if (c === 'n' && text.startsWith('null', i)) return (i += 4), null;
    return number();
  };
  const object = (depth: number) => {
    i++;
    // Own-property map without a prototype, so "__proto__" is an ordinary key.
    const out: Record<string, unknown> = Object.create(null);
    const seen = new Set<string>();
    ws();
    if (text[i] === '}') return i++, out;
    for (;;) {
      ws();
      if (text[i] !== '"') fail('expected a key');
      const key = string();
      if (seen.has(key)) fail(`duplicate key ${JSON.stringify(key)}`);
      seen.add(key);
      ws();
      if (text[i] !== ':') fail('expected ":"');
      i++;
      out[key] = value(depth + 1);
      ws();
      if (text[i] === ',') { i++; continue; }
      if (text[i] === '}') { i++; return out; }
      fail('expected "," or "}"');
    }
  };
  const array = (depth: number) => {
    i++;
    const out: unknown[] = [];
    ws();
    if (text[i] === ']') return i++, out;
    for (;;) {
      out.push(value(depth + 1));
      ws();
      if (text[i] === ',') { i++; continue; }
      if (text[i] === ']') { i++; return out; }
      fail('expected "," or "]"');
    }
  };
  const string = () => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const ch = text.charCodeAt(i);
      if (ch < 0x20) fail('control character in string');
      if (ch === 0x22) break;
      if (ch === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape');
          i += 6;
          continue;
        }
        if (!e || !'"\\/bfnrt'.includes(e)) fail('bad escape');
        i += 2;
        continue;
      }
      i++;
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0].length === 0) fail('unexpected character');
    i += m![0].length;
    return Number(m![0]);
  };
  try {
    const v = value(0);
    ws();
    if (i !== text.length) fail('trailing characters');
    return { ok: true, value: v };
  } catch (e) {
    if (e instanceof StrictJsonError) return { ok: false, reason: e.message };
    return { ok: false, reason: String(e) };
  }
}

class StrictJsonError extends Error {}
