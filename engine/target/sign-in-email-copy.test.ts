/**
 * A signup trigger copying the sign-in e-mail, as signed up, into a column that keeps e-mails
 * lower-cased (stranger-app-17's `members.email app.email_address`, a domain of `value =
 * lower(value)`: the domain is checked before the row's own BEFORE trigger could lower-case it).
 * Re-created under other names: `public.accounts.email lower_email`, `on_signup` inserting
 * `new.email`. The generators draw a sign-in e-mail with capitals now and then (the model's person
 * link is lower(trim(…)) on both sides), and every world holding one was refused while its
 * auth.users row was written (stranger-app-17: 111 fixture drops, `email_address_check`).
 *
 * `policyfuzz init` now proposes `normalizedColumns['auth.users']: ['email']` there (only where a
 * trigger copies `new.email` unchanged into the users rows), and under it the sign-in e-mail is
 * drawn lower-cased: the same draw, so the same cases otherwise (e-mails are case-insensitive;
 * either draw is a secure reading).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../runner/environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';
import { fixtureStatements } from './fixtures.ts';
import { FixtureError } from '../errors.ts';
import { dataProperties } from '../../packs/reference/properties.ts';
import { ModelSettingsSchema } from '../../packs/reference/model/settings.ts';
import { copiesSignInEmailUnchanged, proposeNormalizedDraws } from '../config/normalized-draws.ts';
import type { ColumnShape } from '../introspection/table-shapes.ts';
import type { World } from '../model/world.ts';

const SCHEMA = `
create domain public.lower_email as text check (value = lower(value) and value ~ '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$');
create table public.accounts (id uuid primary key references auth.users (id) on delete cascade, email public.lower_email unique, display_name text);
create function public.on_signup() returns trigger language plpgsql security definer set search_path = '' as $$
begin
  insert into public.accounts (id, email) values (new.id, new.email);
  return new;
end;
$$;
create trigger on_signup after insert on auth.users for each row execute function public.on_signup();
`;

const copied = ModelSettingsSchema.parse({ normalizedColumns: { users: ['email'], 'auth.users': ['email'] } });
const usersOnly = ModelSettingsSchema.parse({ normalizedColumns: { users: ['email'] } });

/** R17's worlds (people whose sign-in e-mails are drawn by student.ts signInEmail), reduced to their identities. */
const identities = (settings: typeof copied): World[] =>
  fc.sample(dataProperties.find((p) => p.id === 'R17')!.cases(settings), { seed: 5, numRuns: 30 }).map((c) => ({ 'auth.users': c.world['auth.users'] ?? [] }));

let env: Environment;
beforeAll(async () => {
  env = await sqlEnvironment('sign-in-email-copy', SCHEMA, { users: 'auth-trigger', bypassTriggers: false, mapping: { tables: { users: { name: 'accounts' } } } });
});
afterAll(() => env?.close());

/** How many of the worlds' identities the target refused as the fixtures signed them up. */
async function refused(worlds: World[]): Promise<number> {
  let count = 0;
  for (const world of worlds) {
    try {
      await runCase(env, fixtureStatements(world, ['auth.users'], env.workers[0].tx.fixturePlan), []);
    } catch (e) {
      // A refused fixture leaves the case open (runCase ends only what began).
      await env.workers[0].tx.end();
      if (!(e instanceof FixtureError)) throw e;
      expect(e.message).toMatch(/lower_email_check/);
      count++;
    }
  }
  return count;
}

describe('a sign-in e-mail a signup trigger copies into a lower-case column', () => {
  it('under normalizedColumns[auth.users], every identity drawn is signed up; with users alone, some are refused', async () => {
    expect(await refused(identities(copied))).toBe(0);
    expect(await refused(identities(usersOnly))).toBeGreaterThan(0);
  });

  it('is drawn lower-cased, the same cases otherwise', () => {
    const lower = identities(copied);
    const drawn = identities(usersOnly);
    expect(lower.map((w) => w['auth.users'].map((r) => r.id))).toEqual(drawn.map((w) => w['auth.users'].map((r) => r.id)));
    expect(lower.flatMap((w) => w['auth.users'].map((r) => r.email))).toEqual(drawn.flatMap((w) => w['auth.users'].map((r) => (typeof r.email === 'string' ? r.email.toLowerCase() : r.email))));
  });

  it('init proposes it where the trigger copies new.email unchanged, and not where it lower-cases it', () => {
    expect(copiesSignInEmailUnchanged('insert into public.accounts (id, email) values (new.id, new.email);')).toBe(true);
    expect(copiesSignInEmailUnchanged('insert into app.users (id, email) values (new.id, lower(new.email));')).toBe(false);
    // Lowered through another call, or only compared (stranger-app-11's link-or-create trigger): no unchanged copy.
    expect(copiesSignInEmailUnchanged("update public.users set auth_user_id = new.id where lower(email) = lower(NEW.email); insert into public.users (auth_user_id, email) values (NEW.id, lower(coalesce(NEW.email, NEW.id::text || '@users.invalid')));")).toBe(false);
    expect(copiesSignInEmailUnchanged("insert into public.users (email, name) values (coalesce(new.email, ''), lower(new.raw_user_meta_data ->> 'name'));")).toBe(true);
    const domain: ColumnShape = { name: 'email', type: 'text', notNull: true, hasDefault: false, generated: false, unique: true, checks: [{ kind: 'normalized', column: 'email', lower: true, trim: false, constraint: 'lower_email_check' }] };
    const caseInsensitive: ColumnShape = { ...domain, checks: [{ kind: 'pattern', column: 'email', pattern: '^[^@\\s]+@[^@\\s]+$', constraint: 'email_format' }] };
    const draw = { path: 'normalizedColumns.auth.users', table: 'users', columns: ['email'], sample: 'ann.lee@uni.ac.th', copiedAtSignup: true };
    expect(proposeNormalizedDraws([draw], () => 'accounts', (_t, c) => c, () => [domain])).toEqual([
      { path: 'normalizedColumns.auth.users', columns: ['email'], note: 'model.normalizedColumns.auth.users: email (a trigger on auth.users copies the sign-in e-mail as signed up into accounts.email, whose lower_email_check refuses it with capitals: the sign-in e-mail drawn lower-cased, no variant)' },
    ]);
    // A format refusing spaces only: a sign-in e-mail is never padded, so nothing to propose.
    expect(proposeNormalizedDraws([draw], () => 'accounts', (_t, c) => c, () => [caseInsensitive])).toEqual([]);
  });
});
