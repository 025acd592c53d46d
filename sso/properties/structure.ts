/**
 * Looking for structure in values that must be random (codes, access tokens): text hidden in
 * them, identities, long shared prefixes, small numeric steps between consecutive values.
 * Random values of 64 bits or more show none of these except with negligible odds.
 */

/** A signed JWT's header and claims are public by design; only its signature must look random. */
export function randomPartOf(value: string): string {
  const jwt = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.([A-Za-z0-9_-]+)$/.exec(value);
  return jwt ? jwt[1]! : value;
}

/** The value's bytes under the encodings services use: hex (dashes ignored), then base64/base64url. */
export function decodings(value: string): Buffer[] {
  const out: Buffer[] = [];
  const hex = value.replace(/-/g, '');
  if (/^[0-9a-f]+$/i.test(hex) && hex.length % 2 === 0) out.push(Buffer.from(hex, 'hex'));
  if (/^[A-Za-z0-9_+/-]+=*$/.test(value)) out.push(Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
  return out.filter((b) => b.length > 0);
}

/** Text hidden in a value: a decoding that is (nearly) all printable ASCII, e.g. "u-20001:5". */
export function hiddenText(value: string): string | null {
  for (const bytes of decodings(value)) {
    if (bytes.length < 4) continue;
    const printable = [...bytes].filter((b) => b >= 0x20 && b <= 0x7e).length;
    if (printable >= bytes.length * 0.9) return bytes.toString('latin1');
  }
  return null;
}

/** Bits carried by one character of the value's alphabet (hex 4, otherwise base64's 6). */
export function bitsPerChar(value: string): number {
  return /^[0-9a-f-]+$/i.test(value) ? 4 : 6;
}

/** Bits of the prefix two values share (dashes count as characters carrying no bits). */
export function sharedPrefixBits(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i).replace(/-/g, '').length * Math.min(bitsPerChar(a), bitsPerChar(b));
}

/**
 * |a − b| as numbers, when both decode to bytes of one length; null otherwise. Consecutive
 * random values are about 2^(bits−1) apart; a counter or clock steps by small amounts.
 */
export function numericDistance(a: string, b: string): { bits: number; log2Distance: number } | null {
  const [x] = decodings(a);
  const [y] = decodings(b);
  if (!x || !y || x.length !== y.length) return null;
  const big = (buf: Buffer) => BigInt(`0x${buf.toString('hex') || '0'}`);
  const d = big(x) > big(y) ? big(x) - big(y) : big(y) - big(x);
  return { bits: x.length * 8, log2Distance: d === 0n ? 0 : d.toString(2).length };
}

/** Why a series of issued values (in issue order) is predictable, or null. `identities` are user fields that must not appear. */
export function structureIn(kind: string, values: readonly string[], identities: readonly string[]): { why: string; evidence: unknown } | null {
  const parts = values.map(randomPartOf);
  for (const [i, v] of parts.entries()) {
    const text = hiddenText(v);
    if (text !== null) return { why: `${kind} ${values[i]} decodes to text ${JSON.stringify(text)}`, evidence: { value: values[i], decoded: text } };
    const shown = [v, text ?? ''].join(' ').toLowerCase();
    const id = identities.find((x) => x.length >= 4 && shown.includes(x.toLowerCase()));
    if (id) return { why: `${kind} ${values[i]} contains the user identity ${JSON.stringify(id)}`, evidence: { value: values[i], identity: id } };
  }
  for (let i = 0; i < parts.length; i++) {
    for (let j = i + 1; j < parts.length; j++) {
      if (parts[i]!.length < 16 || parts[j]!.length < 16) continue;
      const shared = sharedPrefixBits(parts[i]!, parts[j]!);
      if (shared >= 32) return { why: `two ${kind}s share a ${shared}-bit prefix`, evidence: { a: values[i], b: values[j], sharedPrefixBits: shared } };
    }
  }
  for (let i = 1; i < parts.length; i++) {
    const d = numericDistance(parts[i - 1]!, parts[i]!);
    if (d && d.bits >= 64 && d.log2Distance <= d.bits / 2) {
      return { why: `consecutive ${kind}s differ by less than 2^${d.log2Distance} as ${d.bits}-bit numbers (a counter or clock)`, evidence: { previous: values[i - 1], next: values[i], log2Distance: d.log2Distance } };
    }
  }
  return null;
}
