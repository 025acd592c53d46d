import { describe, expect, it } from 'vitest';
import { fixtureStatements, requestForTarget, seededModelTablesNote, sendableCase, unrealizableAnswer, unrealizableEnumWrite, unrealizableIdentityWrite, unrealizableOnTarget, worldAsStored, type FixturePlan } from './fixtures.ts';
import { sqlError } from '../model/outcome.ts';
import type { ApiResponse } from '../executor/response.ts';
import type { CachedFunction } from '../executor/schema-cache.ts';
import { noFunctionRefusal } from '../executor/statement.ts';
import type { ApiRequest } from '../model/request.ts';
import type { ColumnShape, TableShapes } from '../introspection/table-shapes.ts';
import type { Row } from '../model/json.ts';
import { textAsUuid } from '../model/target-ids.ts';
import { prepareCase } from '../runner/check-case.ts';
import { UnfillableColumn } from './fill-row.ts';
import { referenceOracle } from '../../packs/reference/model/index.ts';

const shapes: TableShapes = new Map([
  ['members', [
    { name: 'id', type: 'uuid', notNull: true, hasDefault: false, generated: false, unique: true, primaryKey: true },
    { name: 'nickname', type: 'text', notNull: false, hasDefault: false, generated: false, unique: false },
  ]],
  ['settings', [
    { name: 'id', type: 'boolean', notNull: true, hasDefault: true, generated: false, unique: true, primaryKey: true },
    { name: 'open', type: 'boolean', notNull: true, hasDefault: true, generated: false, unique: false },
  ]],
  ['clubs', [
    { name: 'id', type: 'integer', notNull: true, hasDefault: true, generated: false, ownsSequence: true, unique: true, primaryKey: true },
    { name: 'slug', type: 'text', notNull: true, hasDefault: false, generated: false, unique: true },
    { name: 'rank', type: 'integer', notNull: false, hasDefault: true, constantDefault: 0, generated: false, unique: false },
  ]],
  ['signups', [
    { name: 'member_id', type: 'uuid', notNull: true, hasDefault: false, generated: false, unique: false },
    { name: 'club_slug', type: 'text', notNull: true, hasDefault: false, generated: false, unique: false, references: { table: 'clubs', column: 'slug' } },
    { name: 'channel', type: 'text', notNull: true, hasDefault: false, generated: false, unique: false, vocabulary: ['web', 'desk'] },
  ]],
]);

const plan: FixturePlan = {
  users: 'direct',
  bypassTriggers: ['members.guard_member_update'],
  emptyTables: ['announcements'],
  seededTables: ['settings'],
  shapes,
  mapping: { tables: { users: { name: 'members', columns: { display_name: 'nickname' } } } },
};

describe('a seeded table written over its key', () => {
  const singleton: TableShapes = new Map([['settings', [
    { name: 'singleton', type: 'boolean', notNull: true, hasDefault: true, constantDefault: true, generated: false, unique: true, primaryKey: true },
    { name: 'open', type: 'boolean', notNull: true, hasDefault: true, generated: false, unique: false },
  ]]]);
  const seeded: FixturePlan = { users: 'direct', bypassTriggers: false, seededTables: ['settings'], shapes: singleton };

  it('two rows of one key value (its constant default) are a case the target cannot hold: dropped and named, not a 21000 harness error', () => {
    const write = () => fixtureStatements({ settings: [{ open: true }, { open: false }] }, ['settings'], seeded);
    expect(write).toThrow(UnfillableColumn);
    expect(write).toThrow(/settings holds one row per singleton \(true, its default\)/);
    expect(() => fixtureStatements({ settings: [{ singleton: true, open: true }, { singleton: true }] }, ['settings'], seeded)).toThrow(/one row per singleton \(true\)/);
  });

  it('one row, rows of distinct keys, or a key of no constant default are written as before', () => {
    expect(fixtureStatements({ settings: [{ open: true }] }, ['settings'], seeded).map((f) => f.sql).join('\n')).toMatch(/on conflict \("singleton"\) do update/);
    expect(() => fixtureStatements({ settings: [{ singleton: true }, { singleton: false }] }, ['settings'], seeded)).not.toThrow();
    const noDefault: TableShapes = new Map([['settings', singleton.get('settings')!.map((c) => ({ ...c, constantDefault: undefined }))]]);
    expect(() => fixtureStatements({ settings: [{ open: true }, { open: false }] }, ['settings'], { ...seeded, shapes: noDefault })).not.toThrow();
  });
});

describe('fixtures that follow the target', () => {
  const statements = fixtureStatements({ users: [{ id: 'u1', display_name: 'A' }], settings: [{ id: true, open: false }], signups: [{ member_id: 'u1' }] }, ['users', 'settings', 'signups'], plan);
  const sql = statements.map((s) => s.sql);

  it('switches off only the named trigger, and back on before any request', () => {
    expect(sql[0]).toBe('alter table "public"."members" disable trigger "guard_member_update"');
    expect(sql.at(-1)).toBe('alter table "public"."members" enable trigger "guard_member_update"');
    expect(sql.join('\n')).not.toMatch(/session_replication_role/);
  });

  it('moves the sequence a column owns past the keys written; an integer column with a plain default (0) gets no statement', () => {
    const setvals = fixtureStatements({ clubs: [{ id: 7, slug: 'chess', rank: 3 }] }, ['clubs'], plan).filter((f) => f.sql.startsWith('select setval('));
    expect(setvals.map((f) => f.sql.match(/pg_get_serial_sequence\([^,]+, '(\w+)'\)/)?.[1])).toEqual(['id']);
  });

  it('empties the tables it is told to before writing', () => {
    expect(sql[1]).toBe('delete from "public"."announcements"');
  });

  it('empties a referencing table before the table it references, whatever order the config gives', () => {
    const deletes = fixtureStatements({}, [], { ...plan, emptyTables: ['members', 'clubs', 'signups', 'settings'] }).map((s) => s.sql).filter((q) => q.startsWith('delete'));
    expect(deletes.indexOf('delete from "public"."signups"')).toBeLessThan(deletes.indexOf('delete from "public"."clubs"'));
    expect(deletes).toHaveLength(4);
  });

  it('empties a table referenced by a foreign key over several columns after the table holding it (pgflow: deps → steps by flow and step)', () => {
    const flowShapes: TableShapes = new Map([
      ['flows', [{ name: 'flow_slug', type: 'text', notNull: true, hasDefault: false, generated: false, unique: true, primaryKey: true }]],
      ['steps', [{ name: 'flow_slug', type: 'text', notNull: true, hasDefault: false, generated: false, unique: false, references: { table: 'flows', column: 'flow_slug' } }]],
      ['deps', [{ name: 'flow_slug', type: 'text', notNull: true, hasDefault: false, generated: false, unique: false, references: { table: 'flows', column: 'flow_slug' }, referencesTogether: ['steps'] }]],
    ]);
    const deletes = fixtureStatements({}, [], { users: 'direct', bypassTriggers: [], shapes: flowShapes, emptyTables: ['flows', 'steps', 'deps'] }).map((s) => s.sql).filter((q) => q.startsWith('delete'));
    expect(deletes).toEqual(['delete from "public"."deps"', 'delete from "public"."steps"', 'delete from "public"."flows"']);
  });

  it('writes the model’s rows in the target’s names; a seeded row is updated by its key, not inserted again', () => {
    const members = statements.find((s) => s.table === 'members')!;
    expect(members.row).toEqual([{ id: 'u1', nickname: 'A' }]);
    expect(statements.find((s) => s.table === 'settings')!.sql).toMatch(/on conflict \("id"\) do update set "open" = excluded\."open"$/);
  });

  it('creates the parent a NOT NULL foreign key needs, first, and fills CHECK vocabularies', () => {
    const tables = statements.map((s) => s.table).filter((t) => !t.startsWith('('));
    expect(tables.indexOf('clubs')).toBeLessThan(tables.indexOf('signups'));
    const club = (statements.find((s) => s.table === 'clubs')!.row as { slug: string }[])[0];
    expect(statements.find((s) => s.table === 'signups')!.row).toEqual([{ member_id: 'u1', club_slug: club.slug, channel: 'web' }]);
  });

  it('a parent it creates that names a row of the world is written after that row, still before its child', () => {
    // After Capgo: deploy_history needs an apps row, which names the world's org (apps.owner_org);
    // written first, before the orgs, it was refused (owner_org_id_fkey) and every case dropped.
    const capgo: TableShapes = new Map([
      ['orgs', [{ name: 'id', type: 'uuid', notNull: true, hasDefault: false, generated: false, unique: true, primaryKey: true }]],
      ['apps', [
        { name: 'app_id', type: 'text', notNull: true, hasDefault: false, generated: false, unique: true, primaryKey: true },
        { name: 'owner_org', type: 'uuid', notNull: true, hasDefault: false, generated: false, unique: false, references: { table: 'orgs', column: 'id' } },
      ]],
      ['deploys', [
        { name: 'id', type: 'integer', notNull: true, hasDefault: false, generated: false, unique: true, primaryKey: true },
        { name: 'app_id', type: 'text', notNull: true, hasDefault: false, generated: false, unique: false, references: { table: 'apps', column: 'app_id' } },
      ]],
    ]);
    const written = fixtureStatements({ orgs: [{ id: 'o1' }], deploys: [{ id: 1 }] }, ['orgs', 'deploys'], { users: 'direct', bypassTriggers: false, shapes: capgo });
    expect(written.map((w) => [w.table, w.row])).toEqual([
      ['orgs', [{ id: 'o1' }]],
      ['apps', [{ app_id: 'pf-app_id-900', owner_org: 'o1' }]],
      ['deploys', [{ id: 1, app_id: 'pf-app_id-900' }]],
    ]);
  });

  it('sends the model’s INSERT in the target’s names, completed with what only the target requires', () => {
    expect(requestForTarget(plan, { kind: 'insert', table: 'users', rows: [{ id: 'u2', display_name: 'B' }], returning: 'minimal' })).toEqual({
      kind: 'insert',
      table: 'members',
      rows: [{ id: 'u2', nickname: 'B' }],
      returning: 'minimal',
    });
    expect(requestForTarget({ ...plan, mapping: undefined }, { kind: 'insert', table: 'signups', rows: [{ member_id: 'u1', club_slug: 'x' }], returning: 'minimal' })).toMatchObject({
      rows: [{ member_id: 'u1', club_slug: 'x', channel: 'web' }],
    });
  });
});

describe('a write the database refuses for a row of a table outside the model', () => {
  const refused = (details: string, message = 'insert or update on table "signups" violates foreign key constraint "signups_club_slug_fkey"'): ApiResponse => ({ status: 409, body: null, affected: null, error: { code: '23503', message, details, hint: null } });
  const allowed = { kind: 'allowed' as const, rows: null, affected: 1 };

  it('drops the case where the model expected success, naming the column (also when Postgres hides the key)', () => {
    expect(unrealizableAnswer(plan, refused('Key (club_slug)=(chess) is not present in table "clubs".'), allowed, ['users'])).toBe('signups.club_slug needs a clubs row the target lacks (foreign key to a table outside the model)');
    expect(unrealizableAnswer(plan, refused('Key is not present in table "clubs".'), allowed, ['users'])).toBe('signups.club_slug needs a clubs row the target lacks (foreign key to a table outside the model)');
  });

  it('keeps it a finding where the model refused (the target’s rules let the write through) or the parent is a model table', () => {
    const byPolicy = { kind: 'rejected' as const, code: '42501' as const, by: 'policy' as const };
    expect(unrealizableAnswer(plan, refused('Key is not present in table "clubs".'), byPolicy, ['users'])).toBeUndefined();
    expect(unrealizableAnswer(plan, refused('Key (member_id)=(x) is not present in table "members".'), allowed, ['users'])).toBeUndefined();
    expect(unrealizableAnswer(plan, { ...refused(''), error: { code: '23505', message: 'duplicate key', details: null, hint: null } }, allowed, ['users'])).toBeUndefined();
  });

  it('drops a write a CHECK of the project’s own refused where the model expected success, naming the constraint; a refusal the model expects stays judged', () => {
    const checked: ApiResponse = { ...refused(''), error: { code: '23514', message: 'new row for relation "shop_orders" violates check constraint "shop_orders_phone_check"', details: null, hint: null } };
    expect(unrealizableAnswer(plan, checked, allowed, ['users'])).toBe('shop_orders_phone_check refused a value the model writes (a CHECK the model does not have)');
    expect(unrealizableAnswer(plan, checked, sqlError('23514', 'points check'), ['users'])).toBeUndefined();
    expect(unrealizableAnswer({ ...plan, shapes: undefined }, checked, allowed, ['users'])).toBeUndefined();
  });

  it('drops it too where the model expects a duplicate key or a missing parent, which Postgres checks after the CHECKs (user-management: a taken id with a too-short username, 23505 → 23514)', () => {
    const short: ApiResponse = { ...refused(''), error: { code: '23514', message: 'new row for relation "profiles" violates check constraint "username_length"', details: null, hint: null } };
    const reason = 'username_length refused a value the model writes (a CHECK the model does not have)';
    expect(unrealizableAnswer(plan, short, sqlError('23505', 'duplicate key on profiles'), ['users'])).toBe(reason);
    expect(unrealizableAnswer(plan, short, sqlError('23503', 'no such club'), ['users'])).toBe(reason);
    // Row security's WITH CHECK and NOT NULL come before the CHECKs: those refusals stay judged.
    expect(unrealizableAnswer(plan, short, { kind: 'rejected', code: '42501', by: 'policy' }, ['users'])).toBeUndefined();
    expect(unrealizableAnswer(plan, short, sqlError('23502', 'null in profiles.id'), ['users'])).toBeUndefined();
  });

  it('drops a write the model allows that a NOT NULL column defaulting to the caller’s claim refused (stranger-app-10: the server’s insert has no org), and no other 23502', () => {
    const tenant: FixturePlan = { ...plan, shapes: new Map([...shapes, ['tickets', [
      { name: 'id', type: 'bigint', notNull: true, hasDefault: true, generated: false, unique: true, primaryKey: true },
      { name: 'org_id', type: 'uuid', notNull: true, hasDefault: true, callerDefault: true, generated: false, unique: false },
      { name: 'title', type: 'text', notNull: true, hasDefault: false, generated: false, unique: false },
    ]]]) };
    const nullIn = (column: string): ApiResponse => ({ ...refused(''), error: { code: '23502', message: `null value in column "${column}" of relation "tickets" violates not-null constraint`, details: null, hint: null } });
    expect(unrealizableAnswer(tenant, nullIn('org_id'), allowed, ['users'])).toBe("tickets.org_id is the caller's by default (a claim), which this caller's token lacks: the model's row names none");
    expect(unrealizableAnswer(tenant, nullIn('title'), allowed, ['users'])).toBeUndefined();
    expect(unrealizableAnswer(tenant, nullIn('org_id'), { kind: 'rejected', code: '42501', by: 'policy' }, ['users'])).toBeUndefined();
  });

  it('drops a step whose value a domain’s CHECK refused while the body was read, before the guard the model refuses by (stranger-app-3: an e-mail domain)', () => {
    const domain: ApiResponse = { ...refused(''), error: { code: '23514', message: 'value for domain email_address violates check constraint "email_address_check"', details: null, hint: null } };
    const byGuard = { kind: 'raised' as const, code: 'P0001', message: 'users: email' };
    expect(unrealizableAnswer(plan, domain, byGuard, ['users'])).toBe('email_address_check (domain email_address) refused a value while reading the body, before any rule (a CHECK the model does not have)');
    // A CHECK on the row (evaluated after the guard) where the model refuses stays judged.
    const rowCheck: ApiResponse = { ...domain, error: { ...domain.error!, message: 'new row for relation "users" violates check constraint "users_phone_check"' } };
    expect(unrealizableAnswer(plan, rowCheck, byGuard, ['users'])).toBeUndefined();
  });

  describe('a call PostgREST finds no function for (PGRST202)', () => {
    const transfer = (schema: string, args: string[], defaults: string[] = []): CachedFunction => ({ schema, name: 'vs_transfer_dept', args: args.map((name) => ({ name, type: 'text', hasDefault: defaults.includes(name) })), returns: 'void', volatility: 'volatile' });
    const call: ApiRequest = { kind: 'rpc', fn: 'vs_transfer_dept', args: { p_id: 'VS-1', p_dept: 'ENG' } };
    const missing: ApiResponse = { ...refused(''), error: { code: 'PGRST202', message: noFunctionRefusal('public.vs_transfer_dept', Object.keys(call.args), true).message, details: null, hint: null } };
    const byGrant = { kind: 'rejected' as const, code: '42501' as const, by: 'grant' as const };
    const withFunctions = (...fs: CachedFunction[]): FixturePlan => ({ ...plan, functions: new Map([['public.vs_transfer_dept', fs]]) });

    it('is dropped when the schema cache holds the function (an overload among others) taking the call’s arguments and requiring one it leaves out', () => {
      const target = withFunctions(transfer('public', ['p_id']), transfer('public', ['p_id', 'p_dept', 'p_remarks']));
      expect(unrealizableAnswer(target, missing, byGrant, ['users'], call)).toBe("public.vs_transfer_dept(p_id, p_dept, p_remarks): the target's function requires p_remarks, which the model's call leaves out (PGRST202)");
      expect(unrealizableAnswer(target, missing, sqlError('PGRST202'), ['users'], call)).toBeUndefined();
    });

    it('is judged (a finding) when the exposed schemas lack the function, or none of its overloads takes the call’s arguments', () => {
      // The function lives in an unexposed schema only: PostgREST answers every client PGRST202.
      expect(unrealizableAnswer({ ...plan, functions: new Map([['private.vs_transfer_dept', [transfer('private', ['p_id', 'p_dept', 'p_remarks'])]]]) }, missing, byGrant, ['users'], call)).toBeUndefined();
      expect(unrealizableAnswer(withFunctions(transfer('public', ['p_ticket', 'p_dept', 'p_remarks'])), missing, byGrant, ['users'], call)).toBeUndefined();
      expect(unrealizableAnswer(withFunctions(transfer('public', ['p_id', 'p_dept', 'p_remarks'], ['p_remarks'])), missing, byGrant, ['users'], call)).toBeUndefined();
    });

    it('is worded as PostgREST v12.2 words it (Error.hs NoRpc)', () => {
      expect(noFunctionRefusal('public.vs_transfer_dept', ['p_id', 'p_dept'], true)).toEqual({
        status: 404,
        code: 'PGRST202',
        message: 'Could not find the function public.vs_transfer_dept(p_dept, p_id) in the schema cache',
        details: 'Searched for the function public.vs_transfer_dept with parameters p_dept, p_id or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      });
      expect(noFunctionRefusal('public.f', [], false)).toMatchObject({ message: 'Could not find the function public.f without parameters in the schema cache', details: 'Searched for the function public.f without parameters, but no matches were found in the schema cache.' });
      expect(noFunctionRefusal('public.f', ['a'], false).details).toBe('Searched for the function public.f with parameter a, but no matches were found in the schema cache.');
    });
  });

  it("drops a step the API role's statement_timeout cancelled, whatever the model expected, unless it expected exactly that", () => {
    const cancelled: ApiResponse = { ...refused(''), error: { code: '57014', message: 'canceling statement due to statement timeout', details: null, hint: null } };
    const byPolicy = { kind: 'rejected' as const, code: '42501' as const, by: 'policy' as const };
    expect(unrealizableAnswer(plan, cancelled, allowed, ['users'])).toBe("a statement timeout cancelled the request (57014): the API role's own statement_timeout or, for a role without one (service_role), policyfuzz's bound on one statement: time, not rules (a loaded machine or a slow query)");
    expect(unrealizableAnswer(plan, cancelled, byPolicy, ['users'])).toMatch(/statement_timeout/);
    expect(unrealizableAnswer(plan, cancelled, sqlError('57014'), ['users'])).toBeUndefined();
  });
});

describe('a key the target generates always (generated always as identity)', () => {
  const identity: FixturePlan = {
    users: 'direct',
    bypassTriggers: false,
    shapes: new Map([['purchases', [
      { name: 'id', type: 'bigint', notNull: true, hasDefault: true, generated: false, identityAlways: true, unique: true, primaryKey: true },
      { name: 'note', type: 'text', notNull: false, hasDefault: false, generated: false, unique: false },
    ]]]),
    mapping: { tables: { shop_orders: { name: 'purchases', bigintIds: ['id'] } } },
  };

  it('fixtures write the model’s key with OVERRIDING SYSTEM VALUE; a table without one is written plainly', () => {
    const [write] = fixtureStatements({ shop_orders: [{ id: 'a1', note: 'x' }] }, ['shop_orders'], identity);
    expect(write.sql).toMatch(/^insert into "public"\."purchases" \("id", "note"\) overriding system value select/);
    expect(fixtureStatements({ shop_orders: [{ note: 'x' }] }, ['shop_orders'], identity)[0].sql).not.toMatch(/overriding/);
  });

  it('a request writing it cannot be sent as the model makes it: dropped, named', () => {
    const insert = { kind: 'insert' as const, table: 'shop_orders', rows: [{ id: 'a1', note: 'x' }], returning: 'minimal' as const };
    expect(unrealizableIdentityWrite(identity, insert)).toBe('purchases.id is GENERATED ALWAYS (the target assigns it)');
    expect(unrealizableIdentityWrite(identity, { ...insert, rows: [{ note: 'x' }] })).toBeUndefined();
  });
});

describe('sendableCase: embedded reads', () => {
  const read = (table: string, embed: string) => ({ request: { kind: 'select' as const, table, columns: '*' as const, filters: [], embeds: [{ table: embed, columns: '*' as const }] } });
  const plain = { request: { kind: 'select' as const, table: 'clubs', columns: '*' as const, filters: [] } };

  it("are sent where a foreign key of the target's catalog joins the two tables (either way)", () => {
    const onCatalog: FixturePlan = { users: 'direct', bypassTriggers: false, shapes };
    expect(sendableCase(onCatalog, { steps: [read('clubs', 'signups'), read('signups', 'clubs')] }).dropped).toEqual({});
  });

  it('are left out, counted, where no foreign key joins them', () => {
    const onCatalog: FixturePlan = { users: 'direct', bypassTriggers: false, shapes };
    expect(sendableCase(onCatalog, { steps: [read('members', 'signups'), plain] })).toEqual({
      testCase: { steps: [plain] },
      dropped: { 'embeds signups in members, which no foreign key of the target joins': 1 },
    });
  });

  it('on a mapped target are sent in its names, judged against its catalog there; an order it sorts otherwise is left out, counted', () => {
    // After stranger-app-6: every such read was dropped ("embeds are not translated").
    const column = (name: string, references?: string) => ({ name, type: 'text', notNull: false, hasDefault: false, generated: false, unique: false, ...(references ? { references: { table: references, column: 'id' } } : {}) });
    const viewShapes: TableShapes = new Map([
      ['api.societies', [column('id')]],
      ['api.enrolments', [column('id'), column('society', 'api.societies')]],
      ['api.rooms', [column('id')]],
    ]);
    const mapped: FixturePlan = {
      users: 'direct', bypassTriggers: false, shapes: viewShapes,
      mapping: { tables: { clubs: { name: 'api.societies', values: { tier: { gold: 'GOLD' } } }, signups: { name: 'api.enrolments', columns: { club_id: 'society' } }, members: { name: 'api.rooms' } } },
    };
    const ordered = { request: { ...plain.request, order: [{ column: 'name' }] } };
    expect(sendableCase(mapped, { steps: [read('clubs', 'signups'), read('signups', 'clubs'), ordered] }).dropped).toEqual({});
    expect(sendableCase(mapped, { steps: [read('members', 'signups'), { request: { ...plain.request, order: [{ column: 'tier' }] } }] }).dropped).toEqual({
      'embeds enrolments in api.rooms, which no foreign key of the target joins': 1,
      'orders by clubs.tier, kept in another form on the target (its order differs)': 1,
    });
  });

  it('are sent through a junction referencing both tables, and by a self-referencing key column (`parent_id(*)`)', () => {
    const column = (name: string, references?: string) => ({ name, type: 'integer', notNull: false, hasDefault: false, generated: false, unique: false, ...(references ? { references: { table: references, column: 'id' } } : {}) });
    const tagged: TableShapes = new Map([
      ['posts', [column('id'), column('parent_id', 'posts')]],
      ['tags', [column('id')]],
      ['post_tags', [{ ...column('post_id', 'posts'), uniqueTogether: [{ name: 'post_tags_pkey', columns: ['post_id', 'tag_id'], primaryKey: true as const }] }, column('tag_id', 'tags')]],
      ['clubs', [column('id')]],
    ]);
    const onCatalog: FixturePlan = { users: 'direct', bypassTriggers: false, shapes: tagged };
    expect(sendableCase(onCatalog, { steps: [read('posts', 'tags'), read('tags', 'posts'), read('posts', 'parent_id'), read('posts', 'posts')] }).dropped).toEqual({});
    expect(sendableCase(onCatalog, { steps: [read('posts', 'clubs')] }).dropped).toEqual({ 'embeds clubs in posts, which no foreign key of the target joins': 1 });
  });

  it("are left out, counted, through a table referencing both whose keys are not its primary key: PostgREST makes no many-to-many of it (stranger-app-7: projects embedding sign requests through project_files, PGRST200)", () => {
    const column = (name: string, references?: string) => ({ name, type: 'bigint', notNull: false, hasDefault: false, generated: false, unique: false, ...(references ? { references: { table: references, column: 'id' } } : {}) });
    const filed: TableShapes = new Map([
      ['projects', [{ ...column('id'), primaryKey: true, unique: true }]],
      ['project_sign_requests', [{ ...column('id'), primaryKey: true, unique: true }]],
      ['project_files', [{ ...column('id'), primaryKey: true, unique: true }, column('project_id', 'projects'), column('sign_request_id', 'project_sign_requests')]],
    ]);
    const onCatalog: FixturePlan = { users: 'direct', bypassTriggers: false, shapes: filed };
    expect(sendableCase(onCatalog, { steps: [read('projects', 'project_sign_requests')] }).dropped).toEqual({ 'embeds project_sign_requests in projects, which no foreign key of the target joins': 1 });
    expect(sendableCase(onCatalog, { steps: [read('projects', 'project_files')] }).dropped).toEqual({});
  });
});

describe('the note naming tables the migrations seeded', () => {
  const seededPlan: FixturePlan = { users: 'direct', bypassTriggers: false, seededTables: ['members', 'settings'], mapping: plan.mapping };

  it('says the worlds do not write a table only when the pack does not write it', () => {
    const note = seededModelTablesNote(seededPlan, ['users', 'settings'], ['auth.users', 'users'])!;
    expect(note).toMatch(/^settings holds rows the migrations seeded, which the pack's worlds do not write; members holds rows the migrations seeded besides those the pack's worlds write \(a world's row replaces a seeded one of the same key\): every case starts with them/);
    expect(note).toContain('"emptyTables": ["members","settings"]');
    expect(seededModelTablesNote(seededPlan, ['users'], ['users'])).not.toMatch(/do not write/);
  });

  it('names the seeded tables referencing one to empty, which would refuse its delete (pgflow: steps and deps name the seeded flow)', () => {
    const text = (name: string, references?: string, together?: string[]) => ({ name, type: 'text', notNull: true, hasDefault: false, generated: false, unique: false, ...(references ? { references: { table: references, column: 'flow_slug' } } : {}), ...(together ? { referencesTogether: together } : {}) });
    const shapes: TableShapes = new Map([['flows', [text('flow_slug')]], ['steps', [text('flow_slug', 'flows')]], ['deps', [text('step_slug', undefined, ['steps'])]], ['runs', [text('flow_slug', 'flows')]]]);
    const note = seededModelTablesNote({ users: 'direct', bypassTriggers: false, seededTables: ['flows', 'steps', 'deps'], shapes }, ['flows'], ['flows'])!;
    expect(note).toContain(`"emptyTables": ["flows","steps","deps"] } deletes them before each case (steps, deps: seeded rows referencing them)`);
  });
});

describe('a foreign key into a table the migrations seeded (a Storage bucket a migration made)', () => {
  const world = { clubs: [{ id: 1, slug: 'chess' }], signups: [{ member_id: 'm', club_slug: 'seeded-club', channel: 'web' }] };

  it('is left to the database while the fixtures keep the seeded rows, where the world was dropped as lacking its parent', () => {
    expect(unrealizableOnTarget({ ...plan, seededTables: ['clubs'], emptyTables: [] }, world, ['clubs', 'signups'])).toBeUndefined();
  });

  it('is checked against the world when the seeded rows are emptied, or when nothing was seeded', () => {
    const lacking = 'signups.club_slug needs a clubs row the case lacks (foreign key)';
    expect(unrealizableOnTarget({ ...plan, seededTables: ['clubs'], emptyTables: ['clubs'] }, world, ['clubs', 'signups'])).toBe(lacking);
    expect(unrealizableOnTarget({ ...plan, seededTables: [], emptyTables: [] }, world, ['clubs', 'signups'])).toBe(lacking);
  });
});

describe('a request naming its table as the model does, schema and all', () => {
  it("`table: 'storage.objects'` is sent to schema storage, as `{ schema: 'storage', table: 'objects' }` is", () => {
    const sent = requestForTarget({ users: 'direct', bypassTriggers: false }, { kind: 'select', table: 'storage.objects', columns: '*', filters: [] });
    expect(sent).toMatchObject({ schema: 'storage', table: 'objects' });
  });
});

describe('a column the target types as an array of an enum (Prisma’s users.permissions "Permission"[])', () => {
  // After stranger-app-8: a PATCH of a permission list holding a URL was sent; Postgres refused it as input (22P02) where the model's guard refused it (R01 FAIL).
  const plan: FixturePlan = {
    users: 'direct',
    bypassTriggers: false,
    shapes: new Map([['users', [
      { name: 'id', type: 'uuid', notNull: true, hasDefault: false, generated: false, unique: true, primaryKey: true },
      { name: 'permissions', type: '"Permission"[]', notNull: false, hasDefault: true, generated: false, unique: false, elementEnumLabels: ['vs', 'pr'] },
    ]]]),
  };
  const patch = (permissions: string[]) => ({ kind: 'update' as const, table: 'users', patch: { permissions }, filters: [{ column: 'id', op: 'eq' as const, value: 'u1' }], returning: 'minimal' as const });

  it('a list holding a value outside the labels, which the model refuses by its rules, is dropped; a list of labels is judged', () => {
    expect(unrealizableEnumWrite(plan, patch(['vs', 'https://x.test']), { kind: 'raised', code: 'P0001', message: 'users: permissions' })).toBe('users.permissions is an enum array: a value outside its labels is refused as input (22P02) before any rule');
    expect(unrealizableEnumWrite(plan, patch(['vs', 'pr']), { kind: 'raised', code: 'P0001', message: 'users: permissions' })).toBeUndefined();
    expect(unrealizableEnumWrite(plan, patch([]), { kind: 'raised', code: 'P0001', message: 'users: permissions' })).toBeUndefined();
  });
});

describe('a column the target types as an enum (users.role app_role)', () => {
  const enumPlan: FixturePlan = {
    users: 'direct',
    bypassTriggers: false,
    shapes: new Map([['users', [
      { name: 'id', type: 'uuid', notNull: true, hasDefault: false, generated: false, unique: true, primaryKey: true },
      { name: 'role', type: 'app_role', notNull: true, hasDefault: true, generated: false, unique: false, enumLabels: ['user', 'staff'] },
    ]]]),
  };
  const patch = (role: string) => ({ kind: 'update' as const, table: 'users', patch: { role }, filters: [{ column: 'id', op: 'eq' as const, value: 'u1' }], returning: 'minimal' as const });

  it('a write of a value outside its labels, which the model refuses by its rules, is dropped: Postgres refuses the input (22P02) before any rule', () => {
    expect(unrealizableEnumWrite(enumPlan, patch('boss'), sqlError('23514', 'role check'))).toBe('users.role is an enum: a value outside its labels is refused as input (22P02) before any rule');
    expect(unrealizableEnumWrite(enumPlan, patch('boss'), { kind: 'raised', code: 'P0001', message: 'may not be changed' })).toBeDefined();
    expect(unrealizableEnumWrite(enumPlan, patch('boss'), { kind: 'filtered', rows: null, affected: 0 })).toBeDefined();
  });

  it('a label, a grant refusal (checked first) and a success the model expects (a vocabulary to map) are still judged', () => {
    expect(unrealizableEnumWrite(enumPlan, patch('staff'), sqlError('23514', 'role check'))).toBeUndefined();
    expect(unrealizableEnumWrite(enumPlan, patch('boss'), { kind: 'rejected', code: '42501', by: 'grant' })).toBeUndefined();
    expect(unrealizableEnumWrite(enumPlan, patch('boss'), { kind: 'allowed', rows: null, affected: 1 })).toBeUndefined();
  });
});

describe('sendableCase: ids inside the text a case writes', () => {
  const mapping = { tables: { vs_tickets: { uuidIds: ['id', 'duplicate_of'] } } };
  const plan: FixturePlan = { users: 'direct', bypassTriggers: false, mapping };
  const world = { vs_tickets: [{ id: 'VS-1001' }, { id: 'VS-1002' }] };
  const patch = (text: string, duplicate_of?: string) => ({
    caller: { kind: 'user' as const, id: 'u' },
    request: { kind: 'update' as const, table: 'vs_tickets', patch: { remarks: [{ vis: 'ticket', text }], ...(duplicate_of ? { duplicate_of } : {}) }, filters: [{ column: "id", op: "eq" as const, value: "VS-1001" }], returning: "minimal" as const },
  });

  it('a remark naming a ticket by the model’s id names it as the target keeps it, for the model as for the target; ids alone, filters and other words as they are', () => {
    const { testCase } = sendableCase(plan, { world, steps: [patch('see VS-1002 (not VS-10020)', 'VS-1002')] });
    const sent = testCase!.steps[0].request as { patch: Row; filters: { value: unknown }[] };
    expect(sent.patch).toEqual({ remarks: [{ vis: 'ticket', text: `see ${textAsUuid('VS-1002')} (not VS-10020)` }], duplicate_of: 'VS-1002' });
    expect(sent.filters[0].value).toBe('VS-1001');
    // A ticket the case itself inserts is named the same way later on.
    const insert = { caller: { kind: 'user' as const, id: 'u' }, request: { kind: 'insert' as const, table: 'vs_tickets', rows: [{ id: "VS-1003" }], returning: "minimal" as const } };
    const later = sendableCase(plan, { world, steps: [insert, patch('dup of VS-1003')] }).testCase!.steps[1].request as { patch: Row };
    expect(later.patch.remarks).toEqual([{ vis: 'ticket', text: `dup of ${textAsUuid('VS-1003')}` }]);
    // A function's arguments too (vs_transfer_dept's remarks), its id argument left to the mapping.
    const transfer = { caller: { kind: 'user' as const, id: 'u' }, request: { kind: 'rpc' as const, fn: 'vs_transfer_dept', args: { p_id: 'VS-1001', p_remarks: [{ vis: 'ticket', text: 'see VS-1002' }] } } };
    expect(sendableCase(plan, { world, steps: [transfer] }).testCase!.steps[0].request).toEqual({ ...transfer.request, args: { p_id: 'VS-1001', p_remarks: [{ vis: 'ticket', text: `see ${textAsUuid('VS-1002')}` }] } });
    // No mapped id form: the case as it is.
    const same = { world, steps: [patch('see VS-1002')] };
    expect(sendableCase({ users: 'direct', bypassTriggers: false, mapping: { tables: { vs_tickets: { name: 'tickets' } } } }, same).testCase).toBe(same);
  });
});

describe('a row naming an identity through a model table keyed by auth.users (stranger-app-3: passport.profiles.user_id references users)', () => {
  const col = (name: string, more: Partial<ColumnShape> = {}): ColumnShape => ({ name, type: 'text', notNull: false, hasDefault: false, generated: false, unique: false, ...more });
  const shapes: TableShapes = new Map([
    ['users', [col('id', { type: 'uuid', notNull: true, primaryKey: true, references: { table: 'auth.users', column: 'id' } }), col('email', { notNull: true }), col('role', { notNull: true, hasDefault: true, constantDefault: 'user' }), col('phone')]],
    ['passport.profiles', [col('user_id', { type: 'uuid', notNull: true, primaryKey: true, references: { table: 'users', column: 'id' } }), col('points', { type: 'integer' })]],
  ]);
  const models = { users: { columns: [{ name: 'id' }, { name: 'email' }, { name: 'role' }, { name: 'phone' }] }, 'passport.profiles': { columns: [{ name: 'user_id' }, { name: 'points' }] } };
  const plan: FixturePlan = { users: 'direct', bypassTriggers: false, shapes };
  const [me, extra] = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
  const world = {
    'auth.users': [{ id: me, email: 'me@x.org' }, { id: extra, email: 'extra@x.org' }],
    users: [],
    'passport.profiles': [{ user_id: me, points: 1 }, { user_id: extra, points: 2 }],
  };
  it("gets that row, in the model's world too, for every identity the world names, the case's caller too (stranger-app-15: 160 of R20's cases dropped on a caller's profile)", () => {
    expect(unrealizableOnTarget(plan, world, ['auth.users', 'users', 'passport.profiles'])).toBe('passport.profiles.user_id needs a users row the case lacks (foreign key)');
    const stored = worldAsStored(plan, world, models);
    expect(stored.users).toEqual([{ role: 'user', id: me, email: 'me@x.org', phone: null }, { role: 'user', id: extra, email: 'extra@x.org', phone: null }]);
    expect(unrealizableOnTarget(plan, stored, ['auth.users', 'users', 'passport.profiles'])).toBeUndefined();
    // A users row the world holds stays as drawn, and none is made twice.
    const held = worldAsStored(plan, { ...world, users: [{ id: me, email: 'me@x.org', role: 'admin', phone: '1' }] }, models);
    expect(held.users).toEqual([{ id: me, email: 'me@x.org', role: 'admin', phone: '1' }, { role: 'user', id: extra, email: 'extra@x.org', phone: null }]);
  });
});

// After stranger-app-15 (R20: 160 cases dropped on passport."Profile"."userId" references "User"):
// the caller reading their own profile had no users row, and only a non-caller's was made.
describe("a caller with no users row whose profile the world holds (a person table keyed by the case's people)", () => {
  const col = (name: string, more: Partial<ColumnShape> = {}): ColumnShape => ({ name, type: 'text', notNull: false, hasDefault: false, generated: false, unique: false, ...more });
  const shapes: TableShapes = new Map([
    // `display_name text not null`, no default (stranger-app-15's `"displayName"`): the identity does not give it.
    ['users', [col('id', { type: 'uuid', notNull: true, primaryKey: true, unique: true, references: { table: 'auth.users', column: 'id' } }), col('email', { notNull: true }), col('display_name', { notNull: true }), col('role', { notNull: true, hasDefault: true, constantDefault: 'user' })]],
    ['passport.profiles', [col('user_id', { type: 'uuid', notNull: true, primaryKey: true, unique: true, references: { table: 'users', column: 'id' } }), col('points', { type: 'integer', notNull: true })]],
  ]);
  const plan: FixturePlan = { users: 'direct', bypassTriggers: false, shapes };
  const me = '11111111-1111-4111-8111-111111111111';
  const caller = { kind: 'user' as const, id: me, email: 'me@x.org' };
  const given = {
    world: { 'auth.users': [{ id: me, email: 'me@x.org' }], users: [], 'passport.profiles': [{ user_id: me, display_name: null, points: 3 }] },
    steps: [{ caller, request: { kind: 'select' as const, table: 'passport.profiles', columns: '*' as const, filters: [] } }],
  };
  it('is held with the users row the target needs (the model predicts from it), not dropped', () => {
    const prepared = prepareCase(plan, given, referenceOracle);
    expect(prepared.thrown).toBeUndefined();
    expect(prepared.testCase.world.users).toEqual([{ role: 'user', id: me, email: 'me@x.org', display_name: 'pf-display_name-1' }]);
    expect(prepared.fixtures.map((f) => f.table)).toContain('users');
    expect(prepared.predicted?.length).toBe(1);
  });
});

describe("a row naming an identity through the app's own users table, referencing nothing (stranger-app-8: passport.profiles.\"userId\" references \"User\", a text id the token's sub is)", () => {
  const col = (name: string, more: Partial<ColumnShape> = {}): ColumnShape => ({ name, type: 'text', notNull: false, hasDefault: false, generated: false, unique: false, ...more });
  // No foreign key to auth.users: the app reads the token's sub itself.
  const shapes: TableShapes = new Map([
    ['users', [col('id', { notNull: true, primaryKey: true, unique: true }), col('email', { notNull: true }), col('role', { notNull: true, hasDefault: true, constantDefault: 'user' }), col('updated_at', { type: 'timestamp(3) without time zone', notNull: true })]],
    ['passport.profiles', [col('id', { notNull: true, primaryKey: true, unique: true }), col('user_id', { notNull: true, references: { table: 'users', column: 'id' } }), col('points', { type: 'integer' })]],
  ]);
  const models = { users: { columns: [{ name: 'id' }, { name: 'email' }, { name: 'role' }, { name: 'updated_at', serverAssigned: true }] }, 'passport.profiles': { columns: [{ name: 'id' }, { name: 'user_id' }, { name: 'points' }] } };
  const plan: FixturePlan = { users: 'direct', bypassTriggers: false, shapes };
  const [me, extra] = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
  const world = {
    'auth.users': [{ id: me, email: 'me@x.org' }, { id: extra, email: 'extra@x.org' }],
    users: [{ id: me, email: 'me@x.org', role: 'user' }],
    'passport.profiles': [{ id: 'p1', user_id: me, points: 1 }, { id: 'p2', user_id: extra, points: 2 }],
  };
  it('gets that users row (its server-assigned updated_at left to the filler), so the case is held, not dropped', () => {
    const stored = worldAsStored(plan, world, models);
    expect(stored.users).toEqual([{ id: me, email: 'me@x.org', role: 'user' }, { role: 'user', id: extra, email: 'extra@x.org' }]);
    expect(unrealizableOnTarget(plan, stored, ['auth.users', 'users', 'passport.profiles'])).toBeUndefined();
    const written = fixtureStatements(stored, ['auth.users', 'users', 'passport.profiles'], plan).find((w) => w.table === 'users')!;
    expect(written.sql).toMatch(/updated_at/);
  });
  it('a row keyed by some other model table referencing nothing gets no made row', () => {
    const other: TableShapes = new Map([...shapes, ['passport.profiles', [col('id', { notNull: true, primaryKey: true }), col('user_id', { notNull: true, references: { table: 'teams', column: 'id' } })]], ['teams', [col('id', { notNull: true, primaryKey: true })]]]);
    const stored = worldAsStored({ ...plan, shapes: other }, { ...world, teams: [] }, { ...models, teams: { columns: [{ name: 'id' }] } });
    expect(stored.teams).toEqual([]);
  });
});
