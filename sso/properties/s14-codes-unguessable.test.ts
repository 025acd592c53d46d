import { randomUUID } from 'node:crypto';
import { describe, it, expect } from 'vitest';
import { hexBitDistance, minBitDistance } from './s14-codes-unguessable.ts';

describe('S14 closeness of issued codes', () => {
  it('counts differing bits of hex codes, dashes ignored', () => {
    expect(hexBitDistance('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002')).toBe(2);
    expect(hexBitDistance('ff', '00')).toBe(8);
    expect(hexBitDistance('abc', 'abcd')).toBeNull();
    expect(hexBitDistance('xyz0', 'abcd')).toBeNull();
  });

  it('never flags random UUIDv4s as close', () => {
    const codes = Array.from({ length: 200 }, () => randomUUID());
    let closest = Infinity;
    for (let i = 0; i < codes.length; i++) for (let j = 0; j < i; j++) closest = Math.min(closest, hexBitDistance(codes[i]!, codes[j]!)!);
    expect(closest).toBeGreaterThanOrEqual(minBitDistance(32));
  });
});
