/**
 * settings.emailDomain: a target whose team seat holds e-mails in one domain only (stranger-app-12's
 * `kkumail ~ '@kkumail\.com$'`: 2,263 of 7,686 cases dropped; stranger-app-11's LIKE, -13's `~*`)
 * refused every world drawing faker's domains, and a seat matches its person by e-mail, so every
 * e-mail a world or a step draws is in the domain under the setting. Without it, the draws are
 * faker's as before: the same seed, the same cases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DataCase } from '../../../engine/runner/data-case.ts';
import { dataProperties } from '../properties.ts';
import { defaultSettings, ModelSettingsSchema, type ModelSettings } from '../model/settings.ts';

const SAMPLES = 30;
const EMAIL_COLUMNS: Record<string, string> = { 'auth.users': 'email', users: 'email', team_members: 'email', student_records: 'email' };

/** Every e-mail the cases hold: their worlds' e-mail columns, the callers' sign-in e-mails, the e-mails their PATCHes write. */
function emailsOf(cases: DataCase[]): string[] {
  return cases.flatMap((c) => [
    ...Object.entries(EMAIL_COLUMNS).flatMap(([table, column]) => (c.world[table] ?? []).map((r) => r[column])),
    ...c.steps.flatMap((s) => [s.caller.kind === 'user' ? s.caller.email : undefined, s.request.kind === 'update' ? s.request.patch.email : undefined]),
  ]).filter((e): e is string => typeof e === 'string' && e !== '');
}

const drawn = (settings: ModelSettings) => emailsOf(dataProperties.flatMap((p) => fc.sample(p.cases(settings), { seed: 7, numRuns: SAMPLES })));
const outside = (emails: string[], domain: string) => emails.filter((e) => !e.trim().toLowerCase().endsWith(`@${domain}`));

describe('emailDomain: every e-mail drawn in the one domain the target holds', () => {
  it('draws none in another domain under the setting, and some of each kind of e-mail', () => {
    const emails = drawn(ModelSettingsSchema.parse({ emailDomain: 'kkumail.com' }));
    expect(emails.length).toBeGreaterThan(500);
    expect(outside(emails, 'kkumail.com')).toEqual([]);
  });

  it("without it draws faker's domains, none of them the setting's", () => {
    const emails = drawn(defaultSettings);
    expect(outside(emails, 'kkumail.com')).toEqual(emails);
  });

  it("changes only the domain of a person's e-mail: the same seed draws the same local parts (R01's any-table rows aside, whose e-mail columns hold words without the setting)", () => {
    const local = (settings: ModelSettings) => emailsOf(dataProperties.filter((p) => p.id !== 'R01').flatMap((p) => fc.sample(p.cases(settings), { seed: 7, numRuns: SAMPLES }))).map((e) => e.replace(/@[^@]*$/, ''));
    expect(local(ModelSettingsSchema.parse({ emailDomain: 'kkumail.com' }))).toEqual(local(defaultSettings));
  });

  it('refuses a domain that is not one, naming the form', () => {
    expect(() => ModelSettingsSchema.parse({ emailDomain: '@kkumail.com' })).toThrow(/a lower-case domain such as kkumail.com/);
  });
});
