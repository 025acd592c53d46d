/** Parsing of CLI values, with errors that name the option and what was wrong. */
import { InvalidArgumentError } from 'commander';

export function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a whole number ≥ 1 (got "${value}")`);
    return n;
  };
}

export function seedValue(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || Math.abs(n) > 2 ** 31) throw new InvalidArgumentError(`--seed must be an integer (got "${value}")`);
  return n;
}

export function idList(value: string): string[] {
  const ids = value.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
  const bad = ids.find((id) => !/^[RS]\d\d$/.test(id));
  if (bad) throw new InvalidArgumentError(`--only takes property ids like R02,R05 (got "${bad}")`);
  return ids;
}

export function freshSeed(): number {
  return (Date.now() ^ Math.floor(Math.random() * 2 ** 30)) & 0x7fffffff;
}
