/** Parsing of CLI values, with errors that name the option and what was wrong. */
import { InvalidArgumentError } from 'commander';
import { REPORT_FORMATS, type ReportFormat } from '../engine/report/formats.ts';
import { parseDuration, parseShard, PROFILE_NAMES, type ProfileName, type Shard } from './profiles.ts';
import { isPropertyId } from '../engine/property-id.ts';

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

/** `R02,R05,S03` for the option `name` (--only, --exclude). */
export function propertyIdList(name: string) {
  return (value: string): string[] => {
    const ids = value.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
    const bad = ids.find((id) => !isPropertyId(id));
    if (bad) throw new InvalidArgumentError(`${name} takes property ids like R02,R05 or S03 (got "${bad}")`);
    if (!ids.length) throw new InvalidArgumentError(`${name} takes property ids like R02,R05 or S03 (got "${value}")`);
    return ids;
  };
}

export const idList = propertyIdList('--only');

/** `--report junit,html,json,sarif,matrix`. */
export function reportFormats(value: string): ReportFormat[] {
  const names = value.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const bad = names.find((n) => !(REPORT_FORMATS as readonly string[]).includes(n));
  if (bad || !names.length) throw new InvalidArgumentError(`--report takes a comma-separated list of ${REPORT_FORMATS.join(', ')} (got "${bad ?? value}")`);
  return [...new Set(names)] as ReportFormat[];
}

export function freshSeed(): number {
  return (Date.now() ^ Math.floor(Math.random() * 2 ** 30)) & 0x7fffffff;
}

/** A positive duration option (`90s`, `20m`, bare seconds) → milliseconds; a bad one names the option and what it takes. */
function durationOption(option: string, takes: string): (value: string) => number {
  return (value) => {
    const ms = parseDuration(value);
    if (ms === undefined || ms <= 0) throw new InvalidArgumentError(`${option} takes ${takes} (got "${value}")`);
    return ms;
  };
}

export const durationValue = durationOption('--time-budget', 'a duration like 90s, 20m or 1h30m');
/** --migration-timeout: seconds (or a duration such as 10m). */
export const migrationTimeoutValue = durationOption('--migration-timeout', 'seconds (or a duration like 90s, 10m), e.g. --migration-timeout 600');

export function shardValue(value: string): Shard {
  const shard = parseShard(value);
  if (!shard) throw new InvalidArgumentError(`--shard takes i/n with 1 ≤ i ≤ n, e.g. 2/4 (got "${value}")`);
  return shard;
}

export function profileValue(value: string): ProfileName {
  if (!(PROFILE_NAMES as readonly string[]).includes(value)) throw new InvalidArgumentError(`--profile is one of ${PROFILE_NAMES.join(', ')} (got "${value}")`);
  return value as ProfileName;
}

export function providerValue(value: string): 'local' | 'testcontainers' {
  if (value !== 'local' && value !== 'testcontainers') throw new InvalidArgumentError(`--provider is testcontainers or local (got "${value}")`);
  return value;
}
