/**
 * PATCH bodies for a users row: any subset of its columns, with values that are sometimes the
 * same as the stored ones (a no-op write is no change) and sometimes outside the vocabulary.
 */
import fc from 'fast-check';
import type { Json, Row } from '../../../engine/model/json.ts';
import type { ModelSettings } from '../model/settings.ts';
import { avatarUrl, personName, phoneNumberFor } from './faker.ts';
import { emailAddressFor } from './email-draw.ts';

export function userColumnValue(settings: ModelSettings, column: string, current: Row | undefined): fc.Arbitrary<Json> {
  const same = current && column in current ? [fc.constant(current[column])] : [];
  const fresh: Record<string, fc.Arbitrary<Json>> = {
    email: emailAddressFor(settings),
    display_name: fc.option(personName, { nil: null }),
    avatar_url: fc.option(avatarUrl, { nil: null }),
    phone: fc.option(phoneNumberFor(settings.phoneStyle), { nil: null }),
    role: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...settings.roles) }, { weight: 1, arbitrary: fc.constantFrom('superuser', 'Admin', ' admin', '') }),
    department: fc.option(fc.constantFrom(...settings.departments), { nil: null }),
    permissions: fc.subarray(settings.permissions),
    managed_permissions: fc.subarray(settings.permissions),
  };
  return same.length ? fc.oneof({ weight: 1, arbitrary: same[0] }, { weight: 3, arbitrary: fresh[column] }) : fresh[column];
}

export const USER_PATCHABLE = ['email', 'display_name', 'avatar_url', 'phone', 'role', 'department', 'permissions', 'managed_permissions'] as const;

/** A patch over `columns` (always including `focus` when given). */
export function userPatch(settings: ModelSettings, current: Row | undefined, focus?: string): fc.Arbitrary<Row> {
  return fc
    .subarray([...USER_PATCHABLE], { minLength: focus ? 0 : 1 })
    .map((cols) => (focus && !cols.includes(focus as never) ? [focus, ...cols] : cols))
    .chain((cols) => fc.tuple(...cols.map((c) => userColumnValue(settings, c, current))).map((values) => Object.fromEntries(cols.map((c, i) => [c, values[i]]))));
}
