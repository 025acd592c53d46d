/**
 * An e-mail column holding one domain only (the spec's "kkumail-type e-mail column"): the CHECK
 * forms it is written in are read (`~`, `~*`, LIKE over `lower(col)`, as Postgres prints them),
 * a drawn e-mail in another domain is named as refused before anything is written, and `policyfuzz
 * init` proposes the domain every e-mail is drawn in (stranger-app-12: 2,263 of 7,686 cases dropped
 * by `team_members.kkumail ~ '@kkumail\.com$'`; stranger-app-11's LIKE, stranger-app-13's `~*`).
 */
import { describe, expect, it } from 'vitest';
import { checkForms, patternHolds } from '../introspection/check-forms.ts';
import { likePatternSource } from '../regexp.ts';
import type { ColumnShape } from '../introspection/table-shapes.ts';
import { unrealizableReason } from '../target/realizable.ts';
import { domainOfPattern, proposeEmailDomain } from './email-domain.ts';
import { proposeNormalizedDraws } from './normalized-draws.ts';

const column = (name: string, checks: ColumnShape['checks'] = []): ColumnShape => ({ name, type: 'text', notNull: true, hasDefault: false, generated: false, unique: false, checks });
const SAMPLE = 'ann.lee@uni.ac.th';

// The definitions as pg_get_constraintdef prints the three strangers' CHECKs (read off Postgres 17).
const S11 = `CHECK ((lower((kkumail)::text) ~~ '%@kkumail.com'::text)) NOT VALID`;
const S12 = `CHECK (((kkumail)::text ~ '@kkumail\\.com$'::text))`;
const S13 = `CHECK (((kkumail IS NULL) OR (kkumail ~* '^[a-z0-9._-]+@kkumail\\.com$'::text)))`;

describe('a domain CHECK as Postgres prints it', () => {
  it('reads LIKE and ILIKE as anchored patterns, ~* as either case, lower(col) as lower-cased first', () => {
    expect(checkForms(S11)).toEqual([{ kind: 'pattern', column: 'kkumail', pattern: '^.*@kkumail\\.com$', lowerCased: true }]);
    expect(checkForms(S12)).toEqual([{ kind: 'pattern', column: 'kkumail', pattern: '@kkumail\\.com$' }]);
    expect(checkForms(S13)).toEqual([{ kind: 'pattern', column: 'kkumail', pattern: '^[a-z0-9._-]+@kkumail\\.com$', caseInsensitive: true }]);
    expect(checkForms(`CHECK ((d ~~* '%@x.org'::text))`)).toEqual([{ kind: 'pattern', column: 'd', pattern: '^.*@x\\.org$', caseInsensitive: true }]);
    // A negated LIKE is another form: left to the database.
    expect(checkForms(`CHECK ((e !~~ '% %'::text))`)).toBeUndefined();
    expect(likePatternSource('a\\%b_c%')).toBe('^a%b.c.*$');
  });

  it('holds what Postgres holds: lower-cased before LIKE, either case under ~*', () => {
    const [s11] = checkForms(S11)! as Extract<ReturnType<typeof checkForms>, unknown[]>;
    const [s13] = checkForms(S13)! as Extract<ReturnType<typeof checkForms>, unknown[]>;
    if (s11.kind !== 'pattern' || s13.kind !== 'pattern') throw new Error('pattern forms expected');
    expect(patternHolds(s11, 'Ann.Lee@KKUMAIL.com')).toBe(true);
    expect(patternHolds(s11, 'ann.lee@kkumail.com ')).toBe(false);
    expect(patternHolds(s13, 'ANN.LEE@KKUMAIL.COM')).toBe(true);
    expect(patternHolds(s13, SAMPLE)).toBe(false);
  });

  it('names a world drawing another domain as refused before anything is written', () => {
    const shapes = new Map([['team_members', [column('kkumail', checkForms(S11)!.map((f) => ({ ...f, constraint: 'team_members_kkumail_domain' })))]]]);
    expect(unrealizableReason({ team_members: [{ kkumail: SAMPLE }] }, shapes, new Set(['team_members']))).toBe('team_members.kkumail is refused by CHECK team_members_kkumail_domain (format lower-cased ^.*@kkumail\\.com$)');
    expect(unrealizableReason({ team_members: [{ kkumail: 'Ann.Lee@kkumail.com' }] }, shapes, new Set(['team_members']))).toBeUndefined();
  });
});

describe('proposeEmailDomain', () => {
  const draws = [
    { path: 'normalizedColumns.team_members', table: 'team_members', columns: ['email'], sample: SAMPLE, domainSetting: 'emailDomain' },
    { path: 'normalizedColumns.users', table: 'users', columns: ['email'], sample: SAMPLE, domainSetting: 'emailDomain' },
  ];
  const shapesWith = (kkumail: string, users: ColumnShape['checks'] = [{ kind: 'pattern', column: 'email', pattern: '^[^@\\s]+@[^@\\s]+$', constraint: 'users_email_format' }]) =>
    new Map([
      ['team_members', [column('kkumail', checkForms(kkumail)!.map((f) => ({ ...f, constraint: 'team_members_kkumail_domain' })))]],
      ['users', [column('email', users)]],
    ]);
  const propose = (shapes: Map<string, ColumnShape[]>) => proposeEmailDomain(draws, (t) => t, (t, c) => (t === 'team_members' ? 'kkumail' : c), (t) => shapes.get(t));

  it("reads the domain off each stranger's CHECK, with a note naming the constraint", () => {
    for (const definition of [S11, S12, S13]) {
      expect(propose(shapesWith(definition))).toEqual([{ path: 'emailDomain', domain: 'kkumail.com', note: 'model.emailDomain: kkumail.com (team_members.kkumail by team_members_kkumail_domain holds e-mails in that domain only: every e-mail is drawn there)' }]);
    }
  });

  it('proposes nothing where no CHECK names a domain; a to-do note where two name different ones or the domain is still refused', () => {
    expect(propose(shapesWith(`CHECK ((kkumail ~ '^[^@\\s]+@[^@\\s]+$'::text))`))).toEqual([]);
    const two = propose(shapesWith(S12, [{ kind: 'pattern', column: 'email', pattern: '@kku\\.ac\\.th$', constraint: 'users_email_domain' }]));
    expect(two).toHaveLength(1);
    expect(two[0].domain).toBeUndefined();
    expect(two[0].note).toMatch(/^to do: e-mail CHECKs name several domains \(kkumail\.com in team_members\.kkumail by team_members_kkumail_domain, kku\.ac\.th in users\.email/);
    const refused = propose(shapesWith(S12, [{ kind: 'maxLength', column: 'email', max: 10, constraint: 'users_email_short' }]));
    expect(refused[0].domain).toBeUndefined();
    expect(refused[0].note).toMatch(/users\.email by users_email_short refuses ann\.lee@kkumail\.com: model\.emailDomain is left unset/);
  });

  it('reads a domain among alternatives as their first', () => {
    expect(domainOfPattern({ kind: 'pattern', column: 'e', pattern: '^[a-z]+@(kkumail\\.com|kku\\.ac\\.th)$' })).toBe('kkumail.com');
    expect(domainOfPattern({ kind: 'pattern', column: 'e', pattern: '^[^@]+@[^@]+$' })).toBeUndefined();
    // A format after the @ names no domain (a sample of it, a.com, was proposed as the one domain).
    expect(domainOfPattern({ kind: 'pattern', column: 'e', pattern: '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.(com|net|org)$' })).toBeUndefined();
    expect(domainOfPattern({ kind: 'pattern', column: 'e', pattern: '^.*@kkumail\\.com$' })).toBe('kkumail.com');
  });

  it("makes the normalized draws' sample an e-mail in that domain: a variant the domain CHECK refuses is then seen", () => {
    // Without the domain, the sample itself breaks the CHECK and no variant is judged; in it, its capitals and padding are.
    const shapes = shapesWith(S12);
    const normalized = (sample: string) => proposeNormalizedDraws([{ ...draws[0], sample }], (t) => t, () => 'kkumail', (t) => shapes.get(t));
    expect(normalized(SAMPLE)).toEqual([]);
    expect(normalized('ann.lee@kkumail.com').map((d) => d.columns)).toEqual([['email']]);
  });
});
