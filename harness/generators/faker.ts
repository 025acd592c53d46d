/**
 * Realistic text from faker, seeded by fast-check so a run replays: the arbitrary draws a seed,
 * faker turns it into a value. Shrinking shrinks the seed.
 */
import { Faker, en } from '@faker-js/faker';
import fc from 'fast-check';

const faker = new Faker({ locale: [en] });

export function fakerValue<T>(make: (f: Faker) => T): fc.Arbitrary<T> {
  return fc.noBias(fc.integer({ min: 0, max: 2 ** 31 - 1 })).map((seed) => {
    faker.seed(seed);
    return make(faker);
  });
}

export const personName = fakerValue((f) => f.person.fullName());
export const emailAddress = fakerValue((f) => f.internet.email().toLowerCase());
export const phoneNumber = fakerValue((f) => f.phone.number());
export const avatarUrl = fakerValue((f) => f.image.avatar());
