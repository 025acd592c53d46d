/**
 * Realistic text from faker, chosen by fast-check so a run replays. Faker fills a fixed pool
 * once (its own seed is constant); fast-check picks from it, so picking and shrinking stay
 * cheap on the per-case path.
 *
 * The pools are the same in every run, so the build fills them once and keeps them beside this
 * module (faker-pools.json, written by writeKeptPools): a run of the built binary reads them and
 * never loads faker (about 0.1 s of CPU to load and 0.15–0.25 s to fill the pools, in every
 * process that draws a case). A pool the file does not hold (run from source, or its `make`
 * changed since the build) is filled from faker as before: the key is the label with a hash of
 * `make`'s own text, so a kept pool is never one another `make` would fill.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';
import fc from 'fast-check';

const POOL_SIZE = 512;
const KEPT_POOLS = new URL('./faker-pools.json', import.meta.url);

/** Every pool a loaded module declared, by key: what writeKeptPools fills. */
const declared = new Map<string, { make: (f: Faker) => unknown; seed: number }>();

/**
 * What a kept pool was filled under besides its `make`: the pool size and faker's version. A file
 * another build wrote (tsc run alone after POOL_SIZE changed, or faker updated) is not read: its
 * pools would pick other values, or none past their end.
 */
function fillingOf(): string {
  let fakerVersion = 'unknown';
  try {
    // Read as a file, not loaded: a run reading kept pools loads nothing of faker's.
    fakerVersion = (JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@faker-js/faker/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // Kept pools are then read only by a build that could not tell its faker either.
  }
  return `pool ${POOL_SIZE}, faker ${fakerVersion}`;
}

function readKeptPools(): Record<string, unknown[]> {
  try {
    const file = JSON.parse(readFileSync(KEPT_POOLS, 'utf8')) as { filling?: string; pools?: Record<string, unknown[]> };
    return file.filling === fillingOf() && file.pools ? file.pools : {};
  } catch {
    return {};
  }
}
const kept = readKeptPools();

let fakerModule: Faker | undefined;
/**
 * The English locale's own entry point: the package root loads all ~70 locales, about 0.2 s of
 * CPU. Its pools are the ones `new Faker({ locale: [en] })` made, value for value. Loaded only
 * when a pool must be filled (require of an ES module: Node 20.19 and later).
 */
function faker(): Faker {
  fakerModule ??= (createRequire(import.meta.url)('@faker-js/faker/locale/en') as { faker: Faker }).faker;
  return fakerModule;
}

function fill<T>(make: (f: Faker) => T, seed: number): T[] {
  const f = faker();
  f.seed(seed);
  return Array.from({ length: POOL_SIZE }, () => make(f));
}

export function fakerValue<T>(make: (f: Faker) => T, label: string): fc.Arbitrary<T> {
  let seed = 0;
  for (const ch of label) seed = (seed * 31 + ch.charCodeAt(0)) | 0;
  const key = `${label}:${createHash('sha256').update(String(make)).digest('hex').slice(0, 12)}`;
  declared.set(key, { make, seed });
  // Filled on first use, not when the pack loads: a run that never draws it (bad input, other
  // rules) skips the work; the seed set just before makes it the same pool either way.
  let pool = kept[key] as T[] | undefined;
  const filled = (): T[] => (pool ??= fill(make, seed));
  return fc.integer({ min: 0, max: POOL_SIZE - 1 }).map((i) => filled()[i]);
}

/**
 * Fills every pool the loaded modules declared and writes them where fakerValue reads them (the
 * build runs it on dist/, scripts/build.mjs). Only pools of text: another value would not come
 * back from JSON as it was made, so it is filled at run time. Returns the labels kept.
 */
export function writeKeptPools(): string[] {
  const pools = [...declared].map(([key, { make, seed }]) => [key, fill(make, seed)] as const).filter(([, pool]) => pool.every((v) => typeof v === 'string'));
  writeFileSync(KEPT_POOLS, JSON.stringify({ filling: fillingOf(), pools: Object.fromEntries(pools) }));
  return pools.map(([key]) => key.split(':')[0]);
}

/** The kept pools (by key) that differ from what faker fills for their `make` now: none, or the build wrote another faker's or another `make`'s. */
export function keptPoolsNotAsFilled(): { checked: number; differing: string[] } {
  const checked = [...declared].filter(([key]) => kept[key]);
  return { checked: checked.length, differing: checked.filter(([key, { make, seed }]) => JSON.stringify(kept[key]) !== JSON.stringify(fill(make, seed))).map(([key]) => key) };
}

export const personName = fakerValue((f) => f.person.fullName(), 'personName');
export const emailAddress = fakerValue((f) => f.internet.email().toLowerCase(), 'emailAddress');
export const phoneNumber = fakerValue((f) => f.phone.number(), 'phoneNumber');
/** E.164 (`+17453189368`): drawn as phoneNumber is (one integer), so a case differs from it only in the phone's text. */
export const internationalPhoneNumber = fakerValue((f) => f.phone.number({ style: 'international' }), 'internationalPhoneNumber');
/** The phone drawn for users.phone under settings.phoneStyle. */
export function phoneNumberFor(style: 'any' | 'international'): fc.Arbitrary<string> {
  return style === 'international' ? internationalPhoneNumber : phoneNumber;
}
export const avatarUrl = fakerValue((f) => f.image.avatar(), 'avatarUrl');
