/**
 * Realistic text from faker, chosen by fast-check so a run replays. Faker fills a fixed pool
 * once (its own seed is constant); fast-check picks from it, so picking and shrinking stay
 * cheap on the per-case path.
 */
import type { Faker } from '@faker-js/faker';
// The English locale's own entry point: the package root loads all ~70 locales, about 0.2 s of
// CPU in every process that loads the pack (each run of the binary). Its pools are the ones
// `new Faker({ locale: [en] })` made, value for value. This module is its only user, and seeds
// it right before it fills a pool.
import { faker } from '@faker-js/faker/locale/en';
import fc from 'fast-check';

const POOL_SIZE = 512;

export function fakerValue<T>(make: (f: Faker) => T, label: string): fc.Arbitrary<T> {
  let seed = 0;
  for (const ch of label) seed = (seed * 31 + ch.charCodeAt(0)) | 0;
  // Filled on first use, not when the pack loads: a run that never draws it (bad input, other
  // rules) skips the work; the seed set just before makes it the same pool either way.
  let pool: T[] | undefined;
  const filled = (): T[] => {
    if (!pool) {
      faker.seed(seed);
      pool = Array.from({ length: POOL_SIZE }, () => make(faker));
    }
    return pool;
  };
  return fc.integer({ min: 0, max: POOL_SIZE - 1 }).map((i) => filled()[i]);
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
