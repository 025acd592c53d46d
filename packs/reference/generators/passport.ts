/** passport.profiles (rules 19, 20): points around the tier thresholds, for some of the people. */
import fc from 'fast-check';
import type { Row } from '../../../engine/model/json.ts';
import { holdsNotNull, inEmailDomain, type ModelSettings } from '../model/settings.ts';
import { personName } from './faker.ts';
import { authUserRow, type Person } from './identities.ts';

const fixedId = fc.noShrink(fc.uuid({ version: 4 }));

export function passportProfiles(settings: ModelSettings, list: Person[]): fc.Arbitrary<Row[]> {
  const edges = settings.passport.tiers.flatMap((t) => [t.minPoints, t.minPoints + 1, Math.max(0, t.minPoints - 1)]);
  const points = fc.oneof(fc.constantFrom(...edges), fc.integer({ min: 0, max: 2000 }));
  // A target holding displayName NOT NULL (settings.notNullColumns, stranger-app-8): drawn without its null.
  const displayName = holdsNotNull(settings, 'passport.profiles', 'display_name') ? personName : fc.option(personName, { nil: null });
  return fc
    .tuple(...list.map(() => fc.option(fc.record({ display_name: displayName, points }), { nil: undefined, freq: 5 })))
    .map((profiles) => profiles.flatMap((p, i) => (p ? [{ user_id: list[i].id, ...p }] : [])));
}

/** More profiles than the leaderboard shows, owned by extra signed-up identities. */
export function extraProfiles(settings: ModelSettings, max = 12): fc.Arbitrary<{ auth: Row[]; profiles: Row[] }> {
  return fc
    .uniqueArray(fc.noShrink(fc.record({ id: fixedId, points: fc.integer({ min: 0, max: 2000 }) })), { maxLength: max, selector: (r) => r.id })
    .map((list) => ({
      auth: list.map((r) => authUserRow({ id: r.id, email: inEmailDomain(settings, `extra-${r.id.slice(0, 8)}@example.org`) })),
      profiles: list.map((r) => ({ user_id: r.id, display_name: holdsNotNull(settings, 'passport.profiles', 'display_name') ? `Extra ${r.id.slice(0, 8)}` : null, points: r.points })),
    }));
}
