/** Whether a world can exist on a target, from its catalog alone (no database). */
import { describe, expect, it } from 'vitest';
import { uniqueFold, type ColumnShape, type TableShapes } from '../introspection/table-shapes.ts';
import type { World } from '../model/world.ts';
import { ALREADY_THERE, CALLER_DEFAULT_LEFT_NULL, NO_PARENT, remedyFor, unrealizableReason } from './realizable.ts';
import { droppedColumnReason } from './fixtures.ts';

const col = (name: string, more: Partial<ColumnShape> = {}): ColumnShape => ({ name, type: 'text', notNull: false, hasDefault: false, generated: false, unique: false, ...more });

/** The real app: role and display_name NOT NULL, a unique index on lower(email), tickets referencing users. */
const shapes: TableShapes = new Map([
  ['users', [col('id', { type: 'uuid', notNull: true, primaryKey: true, unique: true }), col('role', { notNull: true, vocabulary: ['user', 'admin'], vocabularyConstraint: 'users_role_check' }), col('email', { uniqueIndexes: [{ name: 'users_email_lower_key', fold: { lower: true, trim: false } }] }), col('display_name', { notNull: true })]],
  ['vs_tickets', [col('id', { primaryKey: true }), col('submitter_id', { type: 'uuid', references: { table: 'users', column: 'id' } }), col('category', { references: { table: 'categories', column: 'id' } }), col('is_duplicate', { type: 'boolean', notNull: true, generated: true })]],
]);
const modelTables = new Set(['users', 'vs_tickets']);
const person = (id: string, more: Record<string, string | null> = {}) => ({ id, role: 'user', email: `${id}@x.test`, display_name: id, ...more });
const reason = (world: World) => unrealizableReason(world, shapes, modelTables);

describe('a world the target cannot hold', () => {
  it('holds a world that keeps every constraint (and ignores what the target computes or the model does not write)', () => {
    expect(reason({ users: [person('a'), person('b')], vs_tickets: [{ id: 't', submitter_id: 'A', category: 'no-such-category', is_duplicate: null }] })).toBeUndefined();
  });

  it('names a null in a NOT NULL column', () => {
    expect(reason({ users: [person('a', { role: null })] })).toBe('users.role is NOT NULL');
  });

  it('names a list holding a value outside the labels of an array of an enum (Prisma’s `"Permission"[]`, stranger-app-8)', () => {
    const orm: TableShapes = new Map([['users', [col('id', { primaryKey: true }), col('permissions', { type: '"Permission"[]', elementEnumLabels: ['vs', 'pr'] })]]]);
    expect(unrealizableReason({ users: [{ id: 'a', permissions: ['vs', 'https://x.test'] }] }, orm, modelTables)).toBe('users.permissions is outside its enum');
    expect(unrealizableReason({ users: [{ id: 'a', permissions: ['vs', 'pr'] }, { id: 'b', permissions: [] }] }, orm, modelTables)).toBeUndefined();
  });

  it('names a value outside a CHECK vocabulary', () => {
    expect(reason({ users: [person('a', { role: 'root' })] })).toBe('users.role is outside CHECK users_role_check');
  });

  it('names a row whose foreign key needs a row of a model table the world lacks (a submitter without a users row)', () => {
    expect(reason({ users: [person('a')], vs_tickets: [{ id: 't', submitter_id: 'b' }] })).toBe('vs_tickets.submitter_id needs a users row the case lacks (foreign key)');
    expect(reason({ vs_tickets: [{ id: 't', submitter_id: 'b' }] })).toMatch(/needs a users row/);
  });

  it("names a reference to another key of a row the world holds (stranger-app-17's change requests naming a record by its student number, the model by its id): not a missing row", () => {
    const records: TableShapes = new Map([
      ['records', [col('student_no', { primaryKey: true, unique: true }), col('member_id', { type: 'uuid', notNull: true, unique: true }), col('note')]],
      ['requests', [col('id', { primaryKey: true }), col('student_no', { notNull: true, references: { table: 'records', column: 'student_no' } })]],
    ]);
    const tables = new Set(['records', 'requests']);
    const world = (named: string): World => ({ records: [{ student_no: '600000001-1', member_id: 'm-1', note: 'm-2' }], requests: [{ id: 'r', student_no: named }] });
    expect(unrealizableReason(world('m-1'), records, tables)).toBe('requests.student_no names its records row by member_id, where the foreign key reads student_no (another key of the row: not translated)');
    expect(remedyFor(unrealizableReason(world('m-1'), records, tables)!)).toMatch(/^the target's foreign key reads a key of the parent row the model's column does not hold \(a natural key/);
    // A value another row's column (no key of it) happens to hold: the row is missing.
    expect(unrealizableReason(world('m-2'), records, tables)).toBe('requests.student_no needs a records row the case lacks (foreign key)');
    expect(unrealizableReason(world('600000001-1'), records, tables)).toBeUndefined();
  });

  it('after a step (`holds`: the world before it): a table left as it was is not gone through again, unless a table its foreign keys name changed', () => {
    const tickets = [{ id: 't', submitter_id: 'b' }];
    const users = [person('a'), person('b')];
    const before: World = { users, vs_tickets: tickets };
    // A step that deleted the submitter: the tickets are the same array, their parent table is not.
    expect(unrealizableReason({ users: [users[0]], vs_tickets: tickets }, shapes, modelTables, before)).toBe('vs_tickets.submitter_id needs a users row the case lacks (foreign key)');
    // A step that broke the changed table itself.
    expect(unrealizableReason({ users: [...users, person('c', { role: null })], vs_tickets: tickets }, shapes, modelTables, before)).toBe('users.role is NOT NULL');
    // The same arrays as a world known to hold: nothing gone through (a table it could not hold is taken on its word).
    const unheld = [person('x', { role: null })];
    expect(unrealizableReason({ users: unheld }, shapes, modelTables, { users: unheld })).toBeUndefined();
  });

  it('names two values equal under a unique index on lower(email), and only under it', () => {
    expect(reason({ users: [person('a', { email: 'Ann@x.test' }), person('b', { email: 'ann@x.test' })] })).toBe('users.email values collide under unique index users_email_lower_key');
    expect(reason({ users: [person('a', { email: null }), person('b', { email: null })] })).toBeUndefined();
  });

  // A real app's integrations table: unique (user_id, provider_id, scope). Before, two such rows
  // were written and the 23505 blamed on a signup trigger or seeded rows.
  it('names two rows equal on every column of a unique constraint over several columns, and only then', () => {
    const integrations: TableShapes = new Map([['integrations', [col('id', { primaryKey: true, unique: true }), col('user_id', { uniqueTogether: [{ name: 'integrations_user_provider_scope_key', columns: ['user_id', 'provider_id', 'scope'] }] }), col('provider_id'), col('scope', { type: 'jsonb' })]]]);
    const held = (rows: World[string]) => unrealizableReason({ integrations: rows }, integrations, new Set(['integrations']));
    const row = (id: string, provider_id: number | null, scope = {}) => ({ id, user_id: 'u', provider_id, scope });
    expect(held([row('1', 1), row('2', 1)])).toBe('integrations (user_id, provider_id, scope) values collide under unique index integrations_user_provider_scope_key');
    expect(held([row('1', 1), row('2', 2)])).toBeUndefined();
    expect(held([row('1', 1), row('2', 1, { n: 1 })])).toBeUndefined();
    expect(held([row('1', null), row('2', null)])).toBeUndefined();
  });

  // PG15+ `UNIQUE NULLS NOT DISTINCT`: two nulls collide (23505). Read as distinct, such a world
  // was written and its 23505 was a false alarm.
  it('names two nulls under a unique index or constraint with NULLS NOT DISTINCT, one column or several', () => {
    const single: TableShapes = new Map([['users', [col('id', { primaryKey: true, unique: true }), col('phone', { uniqueIndexes: [{ name: 'users_phone_key', fold: { lower: false, trim: false }, nullsNotDistinct: true }] })]]]);
    const users = (...phones: (string | null)[]) => unrealizableReason({ users: phones.map((phone, i) => ({ id: String(i), phone })) }, single, new Set(['users']));
    expect(users(null, null)).toBe('users.phone values collide under unique index users_phone_key (NULLS NOT DISTINCT: two nulls collide)');
    expect(users(null, '1', '2')).toBeUndefined();
    const pair: TableShapes = new Map([['slots', [col('id', { primaryKey: true, unique: true }), col('room', { uniqueTogether: [{ name: 'slots_room_day_key', columns: ['room', 'day'], nullsNotDistinct: true }] }), col('day')]]]);
    const slots = (...rows: [string, string | null][]) => unrealizableReason({ slots: rows.map(([room, day], i) => ({ id: String(i), room, day })) }, pair, new Set(['slots']));
    expect(slots(['a', null], ['a', null])).toBe('slots (room, day) values collide under unique index slots_room_day_key (NULLS NOT DISTINCT: two nulls collide)');
    expect(slots(['a', null], ['b', null])).toBeUndefined();
  });
});

describe('how a one-column unique index compares', () => {
  it('follows lower(), upper(), trim() and btrim() of the column, and nothing else', () => {
    expect(uniqueFold('email', 'email')).toEqual({ lower: false, trim: false });
    expect(uniqueFold('lower(email)', 'email')).toEqual({ lower: true, trim: false });
    expect(uniqueFold('lower(TRIM(BOTH FROM email))', 'email')).toEqual({ lower: true, trim: true });
    expect(uniqueFold('upper(btrim(email::text))', 'email')).toEqual({ lower: true, trim: true });
    expect(uniqueFold('lower(email)', 'email_verified')).toBeUndefined();
    // Trimmed of other characters, or another function: left to the database.
    expect(uniqueFold("btrim(email, ' x'::text)", 'email')).toBeUndefined();
    expect(uniqueFold('md5(email)', 'email')).toBeUndefined();
  });
});

describe('the remedy a drop note gives', () => {
  it("a fixture whose foreign key found no row: the world's rows name a table the worlds do not write", () => {
    // After Capgo: deploy_history rows gave app_id 'com.demo.app', an apps row no world wrote; the
    // note said only "the target refuses what the model writes".
    expect(remedyFor(`deploy_history_app_id_fkey refused a fixture row (deploy_history): ${NO_PARENT}`)).toMatch(/^the world's rows give a value to a column that references a table the worlds do not write: leave the column out of the rows \(the fixtures then make a parent row/);
  });

  it('a null in a NOT NULL column: names the setting that draws none (97–99% of some rules\' cases on a stranger\'s schema)', () => {
    expect(remedyFor('users.role is NOT NULL')).toMatch(/draw none: the reference's model\.notNullColumns\.users, which `policyfuzz init` writes; or map users\.role to a column that allows null/);
  });

  it("a CHECK the model does not have: names the values mapping, not the catch-all 'the target refuses what the model writes'", () => {
    expect(remedyFor('shop_orders_phone_check refused a value the model writes (a CHECK the model does not have)')).toMatch(/^a CHECK of the project's refuses values .*mapping\.tables\.<table>\.values/);
  });

  it("a request naming a column mapped to null was never sent: names the column mapping, not the catch-all 'the target refuses what the model writes' (stranger-app-9's R02, stranger-app-10's R05, R10)", () => {
    const remedy = remedyFor(droppedColumnReason('project_files.project_id'));
    expect(remedy).toMatch(/^requests naming a column the target does not have cannot be sent: where the target keeps it under another name, map it \(mapping\.tables\.<table>\.columns\)/);
    expect(remedy).not.toMatch(/refuses/);
  });

  it("a key already there: the case's own rows repeating a key only the target holds unique come first, beside a trigger's or a seed's row (stranger-app-9's project_sign_requests (document_id, professor_id))", () => {
    const remedy = remedyFor(`project_sign_requests_document_id_professor_id_key refused a fixture row (project_sign_requests): ${ALREADY_THERE}`);
    expect(remedy).toMatch(/^two of the case's own rows share that key, which the target holds unique and the model does not \(cases it cannot hold: nothing to configure\), or a trigger made that row/);
  });

  it("a column whose default reads the caller, null for this caller: names tokens.appMetadata, not the catch-all (stranger-app-10's pr_tickets.org_id)", () => {
    expect(remedyFor(`pr_tickets.org_id ${CALLER_DEFAULT_LEFT_NULL}`)).toMatch(/^where the project copies that claim into auth\.users\.raw_app_meta_data, "tokens": \{ "appMetadata": "auth\.users" \} sends it/);
  });

  it('a guard in code refusing a fixture: names bypassTriggers, whatever its message says', () => {
    expect(remedyFor('public.enforce_email_otp_for_mfa() raising "a foreign key is NOT NULL"')).toMatch(/^a guard in code \(a trigger\) refuses even the server's fixture rows: .*"bypassTriggers"/);
  });
});
