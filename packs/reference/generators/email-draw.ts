/** The e-mail the generators draw, in the domain the settings name (apart from faker.ts, which the build copies alone). */
import type fc from 'fast-check';
import { inEmailDomain, type ModelSettings } from '../model/settings.ts';
import { emailAddress } from './faker.ts';

/** An e-mail drawn as emailAddress is, in settings.emailDomain where one is named (the same draw: only the domain differs). */
export function emailAddressFor(settings: Pick<ModelSettings, 'emailDomain'> | undefined): fc.Arbitrary<string> {
  return settings?.emailDomain ? emailAddress.map((e) => inEmailDomain(settings, e)) : emailAddress;
}
