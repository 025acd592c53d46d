import { describe, expect, it } from 'vitest';
import { checkForms, matchesPattern, sampleMatching } from '../introspection/check-forms.ts';
import { fillWorld } from './fill-row.ts';
import { refusesValue, remedyFor, unrealizableReason } from './realizable.ts';
import { sendableCase, worldAsStored, type FixturePlan } from './fixtures.ts';
import type { ColumnShape, TableShapes } from '../introspection/table-shapes.ts';

// After stranger-app-6 (R17 an ERROR: every case dropped): `kkumail = lower(btrim(kkumail))` was no form
// policyfuzz read, so a case-flipped or padded e-mail was refused only once written, under the constraint's bare name.
describe('a CHECK keeping a column lower-cased or trimmed (col = lower(btrim(col)))', () => {
  it('is read with the forms beside it, as Postgres prints lower(), btrim() and trim()', () => {
    expect(checkForms(`CHECK (((kkumail = lower(btrim(kkumail))) AND (kkumail ~ '^[^@\\s]+@[^@\\s]+$'::text)))`)).toEqual([
      { kind: 'normalized', column: 'kkumail', lower: true, trim: true },
      { kind: 'pattern', column: 'kkumail', pattern: '^[^@\\s]+@[^@\\s]+$' },
    ]);
    expect(checkForms(`CHECK ((email = lower(TRIM(BOTH FROM email))))`)).toEqual([{ kind: 'normalized', column: 'email', lower: true, trim: true }]);
    expect(checkForms(`CHECK ((email = lower((email)::text)))`)).toEqual([{ kind: 'normalized', column: 'email', lower: true, trim: false }]);
    expect(checkForms(`CHECK ((code = TRIM(BOTH FROM code)))`)).toEqual([{ kind: 'normalized', column: 'code', lower: false, trim: true }]);
    // Another column's value is no normalization of this one.
    expect(checkForms(`CHECK ((a = lower(b)))`)).toBeUndefined();
  });

  it('names a drawn value it refuses before the case is written, with the setting that draws it as stored', () => {
    const shapes: TableShapes = new Map([['team_members', [{ name: 'email', type: 'text', notNull: true, hasDefault: false, generated: false, unique: false, checks: [{ kind: 'normalized', column: 'email', lower: true, trim: true, constraint: 'team_members_email_check' }] }]]]);
    const world = (email: string) => ({ team_members: [{ email }] });
    expect(unrealizableReason(world('ann@uni.ac'), shapes, new Set(['team_members']))).toBeUndefined();
    for (const variant of ['Ann@uni.ac', ' ann@uni.ac', 'ann@uni.ac ']) {
      const reason = unrealizableReason(world(variant), shapes, new Set(['team_members']));
      expect(reason).toBe('team_members.email is refused by CHECK team_members_email_check (kept lower-cased and trimmed)');
      expect(remedyFor(reason!)).toMatch(/model\.normalizedColumns\.<model table>, which `policyfuzz init` writes/);
    }
  });
});

describe('reading simple CHECK forms (as pg_get_constraintdef prints them)', () => {
  it('reads a format, a range, a between, a length cap and floor and a sum', () => {
    expect(checkForms(`CHECK ((id ~ '^PR-[0-9A-Z]{4,}$'::text))`)).toEqual([{ kind: 'pattern', column: 'id', pattern: '^PR-[0-9A-Z]{4,}$' }]);
    expect(checkForms(`CHECK ((subtotal >= 0))`)).toEqual([{ kind: 'range', column: 'subtotal', min: 0 }]);
    expect(checkForms(`CHECK (((year >= 1) AND (year <= 8)))`)).toEqual([{ kind: 'range', column: 'year', min: 1 }, { kind: 'range', column: 'year', max: 8 }]);
    expect(checkForms(`CHECK ((price > 0.5))`)).toEqual([{ kind: 'range', column: 'price', min: 0.5, strict: true }]);
    expect(checkForms(`CHECK ((char_length(name) <= 80))`)).toEqual([{ kind: 'maxLength', column: 'name', max: 80 }]);
    expect(checkForms(`CHECK ((char_length(username) >= 3))`)).toEqual([{ kind: 'minLength', column: 'username', min: 3 }]);
    // An array that must hold an element (stranger-app-14's `roles app_role[] check (cardinality(roles) >= 1)`): an empty one is refused, named.
    expect(checkForms(`CHECK ((cardinality(roles) >= 1))`)).toEqual([{ kind: 'minItems', column: 'roles', min: 1 }]);
    // array_length('{}', 1) is null, so this CHECK stores an empty array: no minimum read.
    expect(checkForms(`CHECK ((array_length(tags, 1) > 0))`)).toBeUndefined();
    expect(refusesValue({ kind: 'minItems', column: 'roles', min: 1 }, [])).toBe(true);
    expect(refusesValue({ kind: 'minItems', column: 'roles', min: 1 }, ['user'])).toBe(false);
    expect(checkForms(`CHECK ((total = (subtotal + fee)))`)).toEqual([{ kind: 'sum', column: 'total', addends: ['subtotal', 'fee'] }]);
  });
  it('reads literals and columns through the casts Postgres 17 prints (numeric, double, bigint, negative, varchar columns)', () => {
    expect(checkForms(`CHECK ((price > (0)::numeric))`)).toEqual([{ kind: 'range', column: 'price', min: 0, strict: true }]);
    expect(checkForms(`CHECK ((score > (0)::double precision))`)).toEqual([{ kind: 'range', column: 'score', min: 0, strict: true }]);
    expect(checkForms(`CHECK ((b >= '-1'::integer))`)).toEqual([{ kind: 'range', column: 'b', min: -1 }]);
    expect(checkForms(`CHECK ((o > ('-2'::integer)::numeric))`)).toEqual([{ kind: 'range', column: 'o', min: -2, strict: true }]);
    expect(checkForms(`CHECK ((ab <= '-0.25'::numeric))`)).toEqual([{ kind: 'range', column: 'ab', max: -0.25 }]);
    expect(checkForms(`CHECK ((q >= '3000000000'::bigint))`)).toEqual([{ kind: 'range', column: 'q', min: 3000000000 }]);
    expect(checkForms(`CHECK (((i >= (1)::numeric) AND (i <= (10)::numeric)))`)).toEqual([{ kind: 'range', column: 'i', min: 1 }, { kind: 'range', column: 'i', max: 10 }]);
    expect(checkForms(`CHECK ((char_length((code)::text) <= (5)::bigint))`)).toEqual([{ kind: 'maxLength', column: 'code', max: 5 }]);
    expect(checkForms(`CHECK (((code)::text ~ '^A[0-9]+$'::text))`)).toEqual([{ kind: 'pattern', column: 'code', pattern: '^A[0-9]+$' }]);
    expect(checkForms(`CHECK (((s)::text ~ ('^x$'::character varying)::text))`)).toEqual([{ kind: 'pattern', column: 's', pattern: '^x$' }]);
    expect(checkForms(`CHECK ((note ~ 'a AND b'::text))`)).toEqual([{ kind: 'pattern', column: 'note', pattern: 'a AND b' }]);
    // A column cast to a number type may round: another form.
    expect(checkForms(`CHECK (((price)::integer > 0))`)).toBeUndefined();
  });
  it('leaves other forms to the database', () => {
    expect(checkForms(`CHECK (((file_url IS NULL) OR (brief ~ '^https://'::text)))`)).toBeUndefined();
    expect(checkForms(`CHECK (((a IS NULL) OR (a ~ '^x$'::text) OR (a ~ '^y$'::text)))`)).toBeUndefined();
    expect(checkForms(`CHECK ((jsonb_typeof(remarks) = 'array'::text))`)).toBeUndefined();
  });
});

describe('strings for a format', () => {
  for (const pattern of ['^PR-[0-9]{6}$', '^PR-[0-9A-Z]{4,}$', '^VS-[0-9]+$', '^[a-z][a-z0-9_]*$', '^[A-Z]{2,6}$', '^\\+?[0-9][0-9 -]{5,19}$', '^[[:digit:]]{8,10}$']) {
    it(`matches ${pattern}, a distinct value per n`, () => {
      const made = [1, 2, 37, 900].map((n) => sampleMatching(pattern, n)!);
      for (const v of made) expect(matchesPattern(pattern, v), v).toBe(true);
      expect(new Set(made).size).toBe(4);
    });
  }
  it('matches a pattern with no room to vary', () => {
    expect(sampleMatching('^a\\.b?c$', 5)).toBe('a.c');
  });
  it('gives none for a pattern of another form', () => {
    expect(sampleMatching('^a|b$', 1)).toBeUndefined();
    expect(sampleMatching('^(?=a)b$', 1)).toBeUndefined();
    expect(sampleMatching('^(a|b$', 1)).toBeUndefined();
    expect(sampleMatching('PR-', 1)).toBeUndefined();
  });
});

const col = (c: Partial<ColumnShape> & { name: string }): ColumnShape => ({ type: 'text', notNull: false, hasDefault: false, generated: false, unique: false, ...c });

describe('a schema with CHECKs: fills to fit them, drops a drawn value they refuse', () => {
  const shapes: TableShapes = new Map([
    [
      'pr_tickets',
      [
        col({ name: 'id', primaryKey: true, unique: true }),
        col({ name: 'code', notNull: true, checks: [{ kind: 'pattern', column: 'code', pattern: '^PR-[0-9]{6}$', constraint: 'pr_code_check' }] }),
        col({ name: 'year', type: 'smallint', notNull: true, checks: [{ kind: 'range', column: 'year', min: 1, constraint: 'y' }, { kind: 'range', column: 'year', max: 8, constraint: 'y' }] }),
      ],
    ],
    [
      'shop_orders',
      [
        col({ name: 'id' }),
        col({ name: 'subtotal', type: 'integer' }),
        col({ name: 'fee', type: 'integer' }),
        col({ name: 'total', type: 'integer', checks: [{ kind: 'sum', column: 'total', addends: ['subtotal', 'fee'], constraint: 'shop_orders_check' }] }),
      ],
    ],
  ]);

  it('fills a left-out column with a value its format and range accept', () => {
    const [row] = fillWorld({ pr_tickets: [{ id: 'a' }] }, shapes).pr_tickets;
    expect(row.code).toMatch(/^PR-[0-9]{6}$/);
    expect(row.year).toBeGreaterThanOrEqual(1);
    expect(row.year).toBeLessThanOrEqual(8);
  });

  it('names the CHECK a drawn value breaks', () => {
    expect(unrealizableReason({ pr_tickets: [{ id: 'a', code: 'PR-%' }] }, shapes, new Set(['pr_tickets']))).toBe('pr_tickets.code is refused by CHECK pr_code_check (format ^PR-[0-9]{6}$)');
    expect(unrealizableReason({ pr_tickets: [{ id: 'a', code: 'PR-000001', year: 9 }] }, shapes, new Set(['pr_tickets']))).toBe('pr_tickets.year is refused by CHECK y (<= 8)');
    expect(unrealizableReason({ pr_tickets: [{ id: 'a', code: 'PR-000001', year: 3 }] }, shapes, new Set(['pr_tickets']))).toBeUndefined();
  });

  it('a strict bound (`price > 0.5`) refuses the bound itself and holds a fraction past it; a left-out column is filled past it', () => {
    const priced: TableShapes = new Map([['items', [col({ name: 'id', primaryKey: true, unique: true }), col({ name: 'price', type: 'numeric', notNull: true, checks: [...checkForms('CHECK ((price > 0.5))')!.map((c) => ({ ...c, constraint: 'items_price_check' }))] })]]]);
    const items = (price: number) => unrealizableReason({ items: [{ id: 'a', price }] }, priced, new Set(['items']));
    expect(items(0.75)).toBeUndefined();
    expect(items(0.5)).toBe('items.price is refused by CHECK items_price_check (> 0.5)');
    expect(fillWorld({ items: [{ id: 'a' }] }, priced).items[0].price).toBeGreaterThan(0.5);
  });

  it('`numeric check (price > 0)` as Postgres prints it: a left-out price is filled past 0, a drawn 0 is dropped', () => {
    const priced: TableShapes = new Map([['items', [col({ name: 'id', primaryKey: true, unique: true }), col({ name: 'price', type: 'numeric', notNull: true, checks: checkForms('CHECK ((price > (0)::numeric))')!.map((c) => ({ ...c, constraint: 'items_price_check' })) })]]]);
    expect(fillWorld({ items: [{ id: 'a' }] }, priced).items[0].price).toBeGreaterThan(0);
    expect(unrealizableReason({ items: [{ id: 'a', price: 0 }] }, priced, new Set(['items']))).toBe('items.price is refused by CHECK items_price_check (> 0)');
  });

  it('a length floor (`char_length(username) >= 3`, user-management): a shorter drawn value is dropped before it is written, a null holds, a left-out column is filled past it', () => {
    const named: TableShapes = new Map([['profiles', [col({ name: 'id', primaryKey: true, unique: true }), col({ name: 'username', checks: [...checkForms('CHECK ((char_length(username) >= 3))')!.map((c) => ({ ...c, constraint: 'username_length' }))] })]]]);
    const profiles = (username: string | null) => unrealizableReason({ profiles: [{ id: 'a', username }] }, named, new Set(['profiles']));
    expect(profiles('al')).toBe('profiles.username is refused by CHECK username_length (at least 3 characters)');
    expect(profiles('bob')).toBeUndefined();
    expect(profiles(null)).toBeUndefined();
    expect(checkForms('CHECK ((length(code) > 2))')).toEqual([{ kind: 'minLength', column: 'code', min: 3 }]);
    const floor: TableShapes = new Map([['t', [col({ name: 'id', primaryKey: true, unique: true }), col({ name: 'x', notNull: true, checks: [{ kind: 'minLength', column: 'x', min: 40, constraint: 't_x' }] })]]]);
    expect([...(fillWorld({ t: [{ id: 'a' }] }, floor).t[0].x as string)].length).toBeGreaterThanOrEqual(40);
    // A format too: its sample stands unpadded (padded, `^[A-Z]{2}[0-9]+$` would refuse it).
    const both: TableShapes = new Map([['t', [col({ name: 'id', primaryKey: true, unique: true }), col({ name: 'x', notNull: true, checks: [{ kind: 'pattern', column: 'x', pattern: '^[A-Z]{2}[0-9]+$', constraint: 't_x_format' }, { kind: 'minLength', column: 'x', min: 40, constraint: 't_x' }] })]]]);
    expect(fillWorld({ t: [{ id: 'a' }] }, both).t[0].x).toMatch(/^[A-Z]{2}[0-9]+$/);
  });

  it('writes a drawn row\'s derived column as its sum, for the model and the target alike', () => {
    const plan = { shapes } as unknown as FixturePlan;
    const model = { shop_orders: { columns: [{ name: 'id' }, { name: 'subtotal' }, { name: 'fee' }, { name: 'total' }] } };
    const world = { shop_orders: [{ id: 'o1', subtotal: 40, fee: 5, total: 7 }, { id: 'o2', subtotal: 1, fee: 2, total: 3 }] };
    const stored = worldAsStored(plan, world, model);
    expect(stored.shop_orders).toEqual([{ id: 'o1', subtotal: 40, fee: 5, total: 45 }, { id: 'o2', subtotal: 1, fee: 2, total: 3 }]);
    // A world that holds its sums is kept as it is.
    expect(worldAsStored(plan, { shop_orders: [world.shop_orders[1]] }, model).shop_orders[0]).toBe(world.shop_orders[1]);
  });
});

describe('a text key under a format CHECK: the model\'s ids renamed into it, in the whole case', () => {
  const format = '^PR-[0-9A-Z]{4,}$';
  const shapes: TableShapes = new Map([
    ['pr_tickets', [col({ name: 'id', primaryKey: true, unique: true, checks: [{ kind: 'pattern', column: 'id', pattern: format, constraint: 'pr_tickets_id_check' }] }), col({ name: 'brief' })]],
  ]);
  const plan = { shapes, users: 'direct', bypassTriggers: false } as FixturePlan;
  const lookup = (p_id: string) => ({ caller: { kind: 'anon' as const }, request: { kind: 'rpc' as const, fn: 'get_pr_ticket_by_id', args: { p_id } } });
  const given = {
    world: { pr_tickets: [{ id: 'PR-7', brief: 'see PR-7' }, { id: 'a%B', brief: null }, { id: 'PR-0042', brief: null }] },
    steps: [lookup('PR-7'), lookup('A%b'), lookup(' a%B\t'), lookup('a%_'), lookup('%'), lookup('PR-0042'), { caller: { kind: 'anon' as const }, request: { kind: 'select' as const, table: 'pr_tickets', columns: '*' as const, filters: [{ column: 'id', op: 'eq' as const, value: 'a%B' }] } }],
  };

  it('renames each id the format refuses, and the keys made from it, so the target can hold the case and its lookups still meet', () => {
    const { testCase } = sendableCase(plan, given);
    const ids = testCase!.world.pr_tickets.map((r) => r.id as string);
    for (const id of ids) expect(matchesPattern(format, id), id).toBe(true);
    const [seven, wild, kept] = ids;
    expect(kept).toBe('PR-0042');
    expect(new Set(ids).size).toBe(3);
    expect(testCase!.world.pr_tickets[0].brief).toBe(`see ${seven}`);
    const keys = testCase!.steps.map((s) => (s.request.kind === 'rpc' ? s.request.args.p_id : s.request.kind === 'select' ? s.request.filters[0].value : undefined));
    // The id itself; case-flipped; padded; a like pattern in place of its last two characters; a lone wildcard; an id that fits; a filter.
    expect(keys).toEqual([seven, wild.toLowerCase() === wild ? wild.toUpperCase() : [...wild].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join(''), ` ${wild}\t`, `${wild.slice(0, -2)}%_`, '%', 'PR-0042', wild]);
  });

  it('renames a world id too when a step inserts into the same table (its inserted rows do not hide the world\'s)', () => {
    const insert = { caller: { kind: 'anon' as const }, request: { kind: 'insert' as const, table: 'pr_tickets', rows: [{ id: 'PR-9', brief: null }], returning: 'minimal' as const } };
    const { testCase } = sendableCase(plan, { world: { pr_tickets: [{ id: 'PR-7', brief: null }] }, steps: [insert, lookup('PR-7')] });
    const [stored] = testCase!.world.pr_tickets.map((r) => r.id as string);
    expect(matchesPattern(format, stored), stored).toBe(true);
    const step = testCase!.steps[0].request;
    const inserted = step.kind === 'insert' ? (step.rows[0].id as string) : '';
    expect(matchesPattern(format, inserted), inserted).toBe(true);
    expect(inserted).not.toBe(stored);
    expect(testCase!.steps[1].request).toMatchObject({ args: { p_id: stored } });
  });

  it('leaves a case whose ids all fit as it is (the same object)', () => {
    const fitting = { world: { pr_tickets: [{ id: 'PR-0042', brief: null }] }, steps: [lookup('PR-0042')] };
    expect(sendableCase(plan, fitting).testCase).toBe(fitting);
  });
});

// After stranger-app-6, -7 (R17 every case dropped; R07 48% of its cases): a category key `^cat_…$` behind a view
// (no primary key there) and a student number `^[0-9]{8}$` refused every world the model drew; they are values the
// rules compare for equality only, so the world's are renamed into the format, everywhere the case names them.
describe('a text value a format CHECK refuses: the world\'s renamed into it, in the whole case', () => {
  const categoryFormat = '^cat_[a-z0-9_]{1,40}$';
  const studentFormat = '^[0-9]{8}$';
  const shapes: TableShapes = new Map([
    ['api.categories', [col({ name: 'id', checks: [{ kind: 'pattern', column: 'id', pattern: categoryFormat, constraint: 'categories_id_check' }] }), col({ name: 'confidential', type: 'boolean' })]],
    ['api.tickets', [col({ name: 'id', type: 'uuid', primaryKey: true }), col({ name: 'category', references: { table: 'api.categories', column: 'id' } })]],
    [
      'records',
      [
        col({ name: 'id', type: 'uuid', primaryKey: true }),
        col({ name: 'student_no', checks: [{ kind: 'pattern', column: 'student_no', pattern: studentFormat, constraint: 'records_student_no_check' }] }),
        // A format whose samples its other CHECK refuses: no rename, the case is dropped, named.
        col({ name: 'code', checks: [{ kind: 'pattern', column: 'code', pattern: '^[A-Z]+$', constraint: 'records_code_format' }, { kind: 'minLength', column: 'code', min: 5, constraint: 'records_code_length' }] }),
      ],
    ],
  ]);
  const mapping = { tables: { categories: { name: 'api.categories' }, tickets: { name: 'api.tickets' } } };
  const plan = { shapes, mapping, users: 'direct', bypassTriggers: false } as unknown as FixturePlan;
  const modelTables = new Set(['api.categories', 'api.tickets', 'records']);
  const read = (table: string, column: string, value: string) => ({ caller: { kind: 'anon' as const }, request: { kind: 'select' as const, table, columns: '*' as const, filters: [{ column, op: 'eq' as const, value }] } });

  it('renames each value the format refuses, the same everywhere (references, filters), distinct from the others', () => {
    const given = {
      world: {
        categories: [{ id: 'wifi', confidential: false }, { id: 'cat_dorm', confidential: true }],
        tickets: [{ id: 't1', category: 'wifi' }, { id: 't2', category: 'cat_dorm' }],
        records: [{ id: 'r1', student_no: '6401', code: null }, { id: 'r2', student_no: '64010001', code: null }],
      },
      steps: [read('tickets', 'category', 'wifi'), read('records', 'student_no', '6401'), read('records', 'student_no', '64010001')],
    };
    const { testCase } = sendableCase(plan, given);
    const world = testCase!.world;
    const wifi = world.categories[0].id as string;
    expect(matchesPattern(categoryFormat, wifi), wifi).toBe(true);
    expect(world.categories[1].id).toBe('cat_dorm');
    expect(world.tickets.map((t) => t.category)).toEqual([wifi, 'cat_dorm']);
    const [renamed, kept] = world.records.map((r) => r.student_no as string);
    expect(matchesPattern(studentFormat, renamed), renamed).toBe(true);
    expect(kept).toBe('64010001');
    expect(renamed).not.toBe(kept);
    expect(testCase!.steps.map((s) => (s.request.kind === 'select' ? s.request.filters[0].value : undefined))).toEqual([wifi, renamed, kept]);
    // The target can hold the world now (before: dropped on the category's format).
    expect(unrealizableReason({ 'api.categories': given.world.categories } as never, shapes, modelTables)).toBe('api.categories.id is refused by CHECK categories_id_check (format ^cat_[a-z0-9_]{1,40}$)');
    expect(unrealizableReason({ 'api.categories': world.categories, 'api.tickets': world.tickets, records: world.records } as never, shapes, modelTables)).toBeUndefined();
  });

  it('leaves a value a step writes as drawn (the model judges that write), and one no sample fits', () => {
    const insert = { caller: { kind: 'anon' as const }, request: { kind: 'insert' as const, table: 'records', rows: [{ id: 'r9', student_no: '12', code: 'AB' }], returning: 'minimal' as const } };
    const { testCase } = sendableCase(plan, { world: { records: [{ id: 'r1', student_no: '64010001', code: 'xy' }] }, steps: [insert] });
    expect(testCase!.world.records[0]).toEqual({ id: 'r1', student_no: '64010001', code: 'xy' });
    expect(testCase!.steps[0].request).toEqual(insert.request);
    // A uuid stays: the model reads its column as one, and could not read the renamed text.
    const person = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
    expect(sendableCase(plan, { world: { records: [{ id: 'r1', student_no: person, code: null }] }, steps: [] }).testCase!.world.records[0].student_no).toBe(person);
    expect(unrealizableReason({ records: testCase!.world.records } as never, shapes, modelTables)).toBe('records.code is refused by CHECK records_code_format (format ^[A-Z]+$)');
  });

  it("renames a signed-in caller's e-mail with the world's, so the token still names the person the rows do", () => {
    const mailFormat = '^[a-z0-9.]+@kku\\.ac\\.th$';
    const members: TableShapes = new Map([['members', [col({ name: 'id', type: 'uuid', primaryKey: true }), col({ name: 'kkumail', checks: [{ kind: 'pattern', column: 'kkumail', pattern: mailFormat, constraint: 'members_kkumail_check' }] })]]]);
    const caller = { kind: 'user' as const, id: 'u1', email: 'ann@uni.ac' };
    const { testCase } = sendableCase({ shapes: members, users: 'direct', bypassTriggers: false } as FixturePlan, { world: { members: [{ id: 'm1', kkumail: 'ann@uni.ac' }] }, steps: [{ caller, request: read('members', 'kkumail', 'ANN@UNI.AC').request }] });
    const mail = testCase!.world.members[0].kkumail as string;
    expect(matchesPattern(mailFormat, mail), mail).toBe(true);
    expect(testCase!.steps[0].caller).toEqual({ ...caller, email: mail });
    // The case-flipped lookup stays the flipped form of the stored one.
    expect(testCase!.steps[0].request).toMatchObject({ filters: [{ value: mail.toUpperCase() }] });
  });

  it('leaves a case whose values all fit as it is (the same object)', () => {
    const fitting = { world: { categories: [{ id: 'cat_wifi', confidential: false }], records: [{ id: 'r1', student_no: '64010001', code: null }] }, steps: [read('records', 'student_no', '64010001')] };
    expect(sendableCase(plan, fitting).testCase).toBe(fitting);
  });
});

// After stranger-app-7 (R11: 274 cases dropped on `kkumail ~ '^[^@\s]+@kkumail\.com$'`): a negated class had no sample.
describe('a format with a negated class', () => {
  it('is sampled from the letters and digits it does not exclude, and the sample matches', () => {
    for (const pattern of ['^[^@\\s]+@kkumail\\.com$', '^[^@[:space:]]+@[^@[:space:]]+\\.[^@[:space:]]+$', '^[^a-c]{3}$']) {
      const samples = [1, 2, 40].map((n) => sampleMatching(pattern, n)!);
      for (const sample of samples) expect(matchesPattern(pattern, sample), `${pattern} ${sample}`).toBe(true);
      expect(new Set(samples).size).toBe(3);
    }
  });
});

// After stranger-app-10 (124 team_members rows refused at their fixtures): `student_id is null or student_id ~ '…'` was read as no form.
describe('a CHECK letting a null through (col IS NULL OR a form of col)', () => {
  it('is read as the forms after it: a CHECK holds a null anyway', () => {
    expect(checkForms(`CHECK (((student_id IS NULL) OR (student_id ~ '^[0-9]{9,10}(-[0-9])?$'::text)))`)).toEqual([{ kind: 'pattern', column: 'student_id', pattern: '^[0-9]{9,10}(-[0-9])?$' }]);
    expect(checkForms(`CHECK (((phone IS NULL) OR ((char_length(phone) >= 6) AND (phone ~ '^[0-9]+$'::text))))`)).toEqual([{ kind: 'minLength', column: 'phone', min: 6 }, { kind: 'pattern', column: 'phone', pattern: '^[0-9]+$' }]);
  });
});

// After stranger-app-10 (team_members.kkumail, a domain over citext `^[^@\s]+@(kkumail\.com|kku\.ac\.th)$`: 781
// cases dropped; student_records.student_id `^[0-9]{9,10}(-[0-9])?$`: 1,537): a group, an alternation or an optional
// part had no sample, and a column typed `extensions.citext` (a domain's base, schema-qualified) was no text column.
describe('a format with groups: alternatives and optional parts', () => {
  it('is sampled as its first alternative, an optional part left out, and the sample matches', () => {
    for (const pattern of ['^[^@\\s]+@(kkumail\\.com|kku\\.ac\\.th)$', '^[0-9]{9,10}(-[0-9])?$', '^(?:ST|TA)-[0-9]{4}$', '^[a-z]+(\\.[a-z]+){2}$', '^x((a|b)c)?[0-9]+$']) {
      const samples = [1, 2, 40].map((n) => sampleMatching(pattern, n)!);
      for (const sample of samples) expect(matchesPattern(pattern, sample), `${pattern} ${sample}`).toBe(true);
      expect(new Set(samples).size, pattern).toBe(3);
    }
  });

  it("renames a world's values a domain's format refuses, on a column typed with the domain's schema-qualified base", () => {
    const mailFormat = '^[^@\\s]+@(kkumail\\.com|kku\\.ac\\.th)$';
    const studentFormat = '^[0-9]{9,10}(-[0-9])?$';
    const shapes: TableShapes = new Map([
      ['team_members', [col({ name: 'node_id', type: 'bigint', primaryKey: true }), col({ name: 'kkumail', type: 'extensions.citext', domain: 'kku_email', primaryKey: true, checks: [{ kind: 'pattern', column: 'kkumail', pattern: mailFormat, constraint: 'kku_email_check' }] })]],
      ['student_records', [col({ name: 'user_id', type: 'uuid', primaryKey: true }), col({ name: 'student_id', checks: [{ kind: 'pattern', column: 'student_id', pattern: studentFormat, constraint: 'student_records_student_id_check' }] })]],
    ]);
    const plan = { shapes, users: 'direct', bypassTriggers: false } as unknown as FixturePlan;
    const given = { world: { team_members: [{ node_id: 1, kkumail: 'ann@uni.ac' }], student_records: [{ user_id: 'u1', student_id: 'S-001' }] }, steps: [] };
    const world = sendableCase(plan, given).testCase!.world;
    expect(matchesPattern(mailFormat, world.team_members[0].kkumail as string), String(world.team_members[0].kkumail)).toBe(true);
    expect(matchesPattern(studentFormat, world.student_records[0].student_id as string), String(world.student_records[0].student_id)).toBe(true);
    expect(unrealizableReason(world as never, shapes, new Set(['team_members', 'student_records']))).toBeUndefined();
  });
});

// After stranger-app-12 and -14 (project_files.storage_path: 359 and 105 world rows dropped): a
// format anchored at its start only (a Storage path's prefix, `^projects/[0-9a-f-]{36}/`) and one
// with `.` had no sample, so the world's `a.pdf` could not be renamed into it.
describe('a storage-path format: a prefix, or any character', () => {
  const prefix = '^projects/[0-9a-f-]{36}/';
  const anyTail = '^projects/[0-9a-f-]{36}/.+$';
  it('is sampled, a distinct value per n, each matching', () => {
    for (const pattern of [prefix, anyTail, '^[A-Z]{2}.[0-9]$']) {
      const samples = [1, 2, 40].map((n) => sampleMatching(pattern, n)!);
      for (const sample of samples) expect(matchesPattern(pattern, sample), `${pattern} ${sample}`).toBe(true);
      expect(new Set(samples).size).toBe(3);
    }
    // Still none for an alternation at the top, or no start anchor.
    expect(sampleMatching('^a|b', 1)).toBeUndefined();
    expect(sampleMatching('projects/', 1)).toBeUndefined();
  });
  it("renames a world's path the format refuses, so the target holds the world (before: dropped)", () => {
    const shapes: TableShapes = new Map([['project_files', [col({ name: 'id', type: 'uuid', primaryKey: true }), col({ name: 'storage_path', notNull: true, checks: [{ kind: 'pattern', column: 'storage_path', pattern: anyTail, constraint: 'project_files_storage_path_check' }] })]]]);
    const plan = { shapes, mapping: { tables: { project_files: { columns: { path: 'storage_path' } } } }, users: 'direct', bypassTriggers: false } as unknown as FixturePlan;
    const files = [{ id: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b', path: 'a.pdf' }, { id: '7f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b', path: 'b/c.pdf' }];
    expect(unrealizableReason({ project_files: files.map(({ id, path }) => ({ id, storage_path: path })) } as never, shapes, new Set(['project_files']))).toMatch(/refused by CHECK project_files_storage_path_check/);
    const { testCase } = sendableCase(plan, { world: { project_files: files }, steps: [] });
    const paths = testCase!.world.project_files.map((f) => f.path as string);
    for (const p of paths) expect(matchesPattern(anyTail, p), p).toBe(true);
    expect(new Set(paths).size).toBe(2);
    expect(unrealizableReason({ project_files: testCase!.world.project_files.map(({ id, path }) => ({ id, storage_path: path })) } as never, shapes, new Set(['project_files']))).toBeUndefined();
  });
});

// After stranger-app-9, -10, -12, -13 and -14 (R18: 103, 14, 31, 37 and 64 cases dropped on
// `field in ('full_name', 'faculty', 'year')`): a change request's field is free text to the model,
// drawn from its own list, so a world value outside the target's list was dropped.
describe("a CHECK listing a column's words, where the model holds the column to none of its own", () => {
  const words = ['full_name', 'faculty', 'year'];
  const shapes: TableShapes = new Map([['change_requests', [col({ name: 'id', primaryKey: true }), col({ name: 'field', notNull: true, vocabulary: words, vocabularyConstraint: 'change_requests_field_check' }), col({ name: 'status', vocabulary: ['pending', 'approved'], vocabularyConstraint: 'change_requests_status_check' })]]]);
  const plan = { shapes, users: 'direct', bypassTriggers: false } as FixturePlan;
  const free = { change_requests: { columns: [{ name: 'id' }, { name: 'field' }, { name: 'status', check: () => true }] } };
  const world = { change_requests: [{ id: 'q1', field: 'major', status: 'pending' }, { id: 'q2', field: 'full_name', status: 'pending' }, { id: 'q3', field: 'major', status: 'approved' }] };
  const read = (value: string) => ({ caller: { kind: 'anon' as const }, request: { kind: 'select' as const, table: 'change_requests', columns: '*' as const, filters: [{ column: 'id', op: 'eq' as const, value }] } });

  it('renames a value outside the list to a listed word no value of the case holds, the same in every row', () => {
    expect(unrealizableReason(world as never, shapes, new Set(['change_requests']))).toBe('change_requests.field is outside CHECK change_requests_field_check');
    const { testCase } = sendableCase(plan, { world, steps: [read('q1')] }, free);
    expect(testCase!.world.change_requests.map((r) => r.field)).toEqual(['faculty', 'full_name', 'faculty']);
    expect(unrealizableReason(testCase!.world as never, shapes, new Set(['change_requests']))).toBeUndefined();
  });

  it("leaves a column holding the model's own words (a status), a value a step also sends, and a case without the model's tables", () => {
    const status = { change_requests: [{ id: 'q1', field: 'year', status: 'open' }] };
    expect(sendableCase(plan, { world: status, steps: [] }, free).testCase!.world).toBe(status);
    expect(sendableCase(plan, { world, steps: [read('major')] }, free).testCase!.world).toBe(world);
    expect(sendableCase(plan, { world, steps: [read('q1')] }).testCase!.world).toBe(world);
  });

  it('leaves the value where every listed word is taken by another value of the case', () => {
    const full = { change_requests: [{ id: 'q1', field: 'major', status: 'pending' }, { id: 'q2', field: 'full_name', status: 'pending' }, { id: 'q3', field: 'faculty', status: 'pending' }, { id: 'q4', field: 'year', status: 'pending' }] };
    expect(sendableCase(plan, { world: full, steps: [] }, free).testCase!.world).toBe(full);
  });
});
