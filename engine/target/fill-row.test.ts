import { describe, expect, it } from 'vitest';
import { fillInsertRows, fillWorld, fillWorldWithParents, UnfillableColumn } from './fill-row.ts';
import { fixtureStatements } from './fixtures.ts';
import { remedyFor } from './realizable.ts';
import { checkVocabulary, constantDefaultOf, type TableShapes } from '../introspection/table-shapes.ts';

describe('check vocabularies', () => {
  it('reads the list Postgres prints for IN (…)', () => {
    expect(checkVocabulary(`CHECK ((status = ANY (ARRAY['pending'::text, 'paid'::text, 'it''s'::text])))`, 'status')).toEqual(['pending', 'paid', "it's"]);
  });
  it('reads a single-value check and ignores other shapes', () => {
    expect(checkVocabulary(`CHECK ((kind = 'team'::text))`, 'kind')).toEqual(['team']);
    expect(checkVocabulary(`CHECK ((total >= 0))`, 'total')).toBeUndefined();
  });
});

describe('filling rows for a foreign schema', () => {
  const shapes: TableShapes = new Map([
    [
      'orders',
      [
        { name: 'id', type: 'uuid', notNull: true, hasDefault: true, generated: false, unique: true },
        { name: 'buyer_id', type: 'uuid', notNull: true, hasDefault: false, generated: false, unique: false, references: { table: 'users', column: 'id' } },
        { name: 'status', type: 'text', notNull: true, hasDefault: false, generated: false, unique: false, vocabulary: ['open', 'closed'] },
        { name: 'channel', type: 'order_channel', notNull: true, hasDefault: false, generated: false, unique: false, enumLabels: ['web', 'shop'] },
        { name: 'reference', type: 'text', notNull: true, hasDefault: false, generated: false, unique: true },
        { name: 'note', type: 'text', notNull: false, hasDefault: false, generated: false, unique: false },
      ],
    ],
  ]);

  it('fills only NOT NULL columns without defaults the row leaves out, satisfying the schema', () => {
    const world = fillWorld({ users: [{ id: 'u1' }], orders: [{ id: 'o1', status: 'closed' }, { id: 'o2' }] }, shapes);
    expect(world.orders).toEqual([
      { id: 'o1', status: 'closed', buyer_id: 'u1', channel: 'web', reference: 'pf-reference-3' },
      { id: 'o2', buyer_id: 'u1', status: 'open', channel: 'web', reference: 'pf-reference-7' },
    ]);
  });

  it('names the column it cannot fill', () => {
    expect(() => fillWorld({ orders: [{ id: 'o1' }] }, shapes)).toThrow(UnfillableColumn);
    expect(() => fillWorld({ orders: [{ id: 'o1' }] }, shapes)).toThrow('orders.buyer_id references users, which has no row in this case');
  });
});

describe('types named with their schema (format_type() qualifies one off the search path)', () => {
  const column = (name: string, type: string, more: object = {}) => ({ name, type, notNull: true, hasDefault: false, generated: false, unique: false, ...more });
  const shapes: TableShapes = new Map([
    [
      'members',
      [
        column('email', 'extensions.citext'),
        column('aliases', 'extensions.citext[]'),
        column('tier', 'public.member_tier', { enumLabels: ['gold', 'silver'] }),
        column('nick', '"my app".citext'),
        column('embedding', 'extensions.vector(3)'),
      ],
    ],
  ]);

  it('are recognised by the type itself; one policyfuzz cannot fill is named as the catalog names it', () => {
    const fillable = new Map([['members', shapes.get('members')!.slice(0, 4)]]);
    expect(fillWorld({ members: [{}] }, fillable).members).toEqual([{ email: 'pf-email-1', aliases: [], tier: 'gold', nick: 'pf-nick-4' }]);
    expect(() => fillWorld({ members: [{}] }, shapes)).toThrow('members.embedding is NOT NULL without a default and of type extensions.vector(3), which policyfuzz cannot fill');
  });

  it('a constant default of a qualified text type reads as its literal', () => {
    expect(constantDefaultOf("'guest'::extensions.citext", 'extensions.citext')).toBe('guest');
    expect(constantDefaultOf("'7'::integer", 'integer')).toBe(7);
  });
});

describe('parents the case lacks', () => {
  // Re-created after Capgo: deploy_history.channel_id references channels.id, a `bigint generated
  // by default as identity`. The parent was made without its key (the database would assign it),
  // so the child had nothing to name and every case was dropped ("channels, which has no row").
  const shapes: TableShapes = new Map([
    [
      'channels',
      [
        { name: 'id', type: 'bigint', notNull: true, hasDefault: true, generated: false, unique: true, identityAlways: false },
        { name: 'name', type: 'character varying', notNull: true, hasDefault: false, generated: false, unique: false },
        { name: 'version', type: 'bigint', notNull: false, hasDefault: false, generated: false, unique: false },
      ],
    ],
    [
      'deploy_history',
      [
        { name: 'id', type: 'bigint', notNull: true, hasDefault: true, generated: false, unique: true },
        { name: 'channel_id', type: 'bigint', notNull: true, hasDefault: false, generated: false, unique: false, references: { table: 'channels', column: 'id' } },
      ],
    ],
  ]);
  it('a parent keyed by an identity is made with its key, which the child names', () => {
    const { world, parents } = fillWorldWithParents({ deploy_history: [{ id: 1 }] }, shapes);
    expect(parents).toEqual(['channels']);
    expect(world.channels).toEqual([{ id: 900, name: 'pf-name-901' }]);
    expect(world.deploy_history).toEqual([{ id: 1, channel_id: 900 }]);
  });
});

describe('a one-to-one key the world leaves out (stranger-app-8: "StudentRecord"."userId" references "User", unique)', () => {
  // Every record was given the first user: the second collided under StudentRecord_userId_key
  // and its case was dropped.
  const col = { notNull: true, hasDefault: false, generated: false, unique: false } as const;
  const shapes: TableShapes = new Map([
    ['users', [{ name: 'id', type: 'text', ...col, unique: true, primaryKey: true }]],
    ['student_records', [{ name: 'id', type: 'text', ...col, unique: true }, { name: 'user_id', type: 'text', ...col, references: { table: 'users', column: 'id' }, uniqueIndexes: [{ name: 'StudentRecord_userId_key', fold: { lower: false, trim: false } }] }]],
    ['badges', [{ name: 'id', type: 'text', ...col, unique: true }]],
    ['holders', [{ name: 'id', type: 'text', ...col, unique: true }, { name: 'badge_id', type: 'text', ...col, unique: true, references: { table: 'badges', column: 'id' } }]],
  ]);
  it('gives each row a parent of its own, past those the world names', () => {
    const { world } = fillWorldWithParents({ users: [{ id: 'u1' }, { id: 'u2' }, { id: 'u3' }], student_records: [{ id: 'r1' }, { id: 'r2', user_id: 'u1' }, { id: 'r3' }] }, shapes, new Set(['users', 'student_records']));
    expect(world.student_records.map((r) => r.user_id)).toEqual(['u2', 'u1', 'u3']);
  });
  it('with fewer parents than rows the case cannot exist here, and says so', () => {
    expect(() => fillWorldWithParents({ users: [{ id: 'u1' }], student_records: [{ id: 'r1' }, { id: 'r2' }] }, shapes, new Set(['users', 'student_records']))).toThrow(/student_records\.user_id is unique and references users: this case has more student_records rows than users rows/);
  });
  it('a parent outside the world is made once per row', () => {
    const { world, parents } = fillWorldWithParents({ holders: [{ id: 'h1' }, { id: 'h2' }] }, shapes);
    expect(parents).toEqual(['badges']);
    expect(world.badges).toHaveLength(2);
    expect(new Set(world.holders.map((h) => h.badge_id)).size).toBe(2);
  });
});

describe('a foreign key the world leaves out, unique together with other columns (stranger-app-9: unique (document_id, professor_id))', () => {
  // Every sign request was given the one document the fixtures made: two to one professor collided
  // under the pair's unique index, 32 to 55 worlds dropped a run.
  const col = { notNull: true, hasDefault: false, generated: false, unique: false } as const;
  const pair = { name: 'sign_requests_document_id_professor_id_key', columns: ['document_id', 'professor_id'] };
  const shapes: TableShapes = new Map([
    ['documents', [{ name: 'id', type: 'text', ...col, unique: true, primaryKey: true }]],
    ['sign_requests', [
      { name: 'id', type: 'text', ...col, unique: true },
      { name: 'document_id', type: 'text', ...col, references: { table: 'documents', column: 'id' }, uniqueTogether: [pair] },
      { name: 'professor_id', type: 'text', ...col },
    ]],
  ]);
  const pairs = (rows: { document_id?: unknown; professor_id?: unknown }[]) => rows.map((r) => `${String(r.document_id)}/${String(r.professor_id)}`);
  it('a parent outside the world: as many made as rows alike on the others, each of those naming its own; rows apart share one', () => {
    const { world, parents } = fillWorldWithParents({ sign_requests: [{ id: 's1', professor_id: 'p1' }, { id: 's2', professor_id: 'p1' }, { id: 's3', professor_id: 'p2' }] }, shapes);
    expect(parents).toEqual(['documents']);
    expect(world.documents).toHaveLength(2);
    const made = pairs(world.sign_requests);
    expect(new Set(made).size).toBe(3);
    expect(world.sign_requests[2].document_id).toBe(world.sign_requests[0].document_id);
  });
  it("parents of the world: past those the alike rows already name; fewer than such rows, the case cannot exist here and says so", () => {
    const { world } = fillWorldWithParents({ documents: [{ id: 'd1' }, { id: 'd2' }], sign_requests: [{ id: 's1', professor_id: 'p1', document_id: 'd1' }, { id: 's2', professor_id: 'p1' }] }, shapes, new Set(['documents', 'sign_requests']));
    expect(pairs(world.sign_requests)).toEqual(['d1/p1', 'd2/p1']);
    expect(() => fillWorldWithParents({ documents: [{ id: 'd1' }], sign_requests: [{ id: 's1', professor_id: 'p1' }, { id: 's2', professor_id: 'p1' }] }, shapes, new Set(['documents', 'sign_requests']))).toThrow(
      /sign_requests \(document_id, professor_id\) is unique and document_id references documents: this case has more sign_requests rows alike on professor_id than documents rows/,
    );
    // Its remedy names what it is, not a trigger or a seeded row (the collision's "a row with that key was already there" did).
    expect(remedyFor('sign_requests (document_id, professor_id) is unique and document_id references documents: this case has more sign_requests rows alike on professor_id than documents rows for them to name')).toMatch(/^the target's unique key over a column the fixtures fill from a parent table needs a parent row per row/);
  });
  it('rows with a null among the others collide with none (Postgres holds nulls distinct), unless the key says nulls not distinct', () => {
    const nullable = new Map([...shapes].map(([t, cs]) => [t, cs.map((c) => (c.name === 'professor_id' ? { ...c, notNull: false } : c))]));
    const world = { documents: [{ id: 'd1' }], sign_requests: [{ id: 's1', professor_id: null }, { id: 's2', professor_id: null }] };
    expect(pairs(fillWorldWithParents(world, nullable, new Set(['documents', 'sign_requests'])).world.sign_requests)).toEqual(['d1/null', 'd1/null']);
    const notDistinct = new Map([...nullable].map(([t, cs]) => [t, cs.map((c) => (c.name === 'document_id' ? { ...c, uniqueTogether: [{ ...pair, nullsNotDistinct: true as const }] } : c))]));
    expect(() => fillWorldWithParents(world, notDistinct, new Set(['documents', 'sign_requests']))).toThrow(/rows alike on professor_id than documents rows/);
  });
});

describe('filling the model’s INSERT requests', () => {
  const shapes: TableShapes = new Map([
    [
      'requests',
      [
        { name: 'ref', type: 'text', notNull: true, hasDefault: false, generated: false, unique: true },
        { name: 'channel', type: 'text', notNull: true, hasDefault: false, generated: false, unique: false, vocabulary: ['web', 'mail'] },
        { name: 'owner', type: 'uuid', notNull: true, hasDefault: false, generated: false, unique: false, references: { table: 'users', column: 'id' } },
        { name: 'created_at', type: 'timestamptz', notNull: true, hasDefault: true, generated: false, unique: false },
      ],
    ],
  ]);
  it('fills what only the target knows, keeps what the request sends, leaves references to the database', () => {
    expect(fillInsertRows('requests', [{ ref: 'R1' }, { ref: 'R2', channel: 'mail' }], shapes)).toEqual([
      { ref: 'R1', channel: 'web' },
      { ref: 'R2', channel: 'mail' },
    ]);
    expect(fillInsertRows('other', [{ a: 1 }], shapes)).toEqual([{ a: 1 }]);
  });
});

describe('rows of a lookup table outside the model that the world names (stranger-app-2: profiles.department → departments, seeded with other codes)', () => {
  const shapes: TableShapes = new Map([
    ['departments', [
      { name: 'code', type: 'text', notNull: true, hasDefault: false, generated: false, unique: true, primaryKey: true },
      { name: 'title', type: 'text', notNull: true, hasDefault: false, generated: false, unique: false },
    ]],
    ['profiles', [
      { name: 'id', type: 'uuid', notNull: true, hasDefault: false, generated: false, unique: true, primaryKey: true },
      { name: 'department', type: 'text', notNull: false, hasDefault: false, generated: false, unique: false, references: { table: 'departments', column: 'code' } },
    ]],
  ]);
  it('are made with the key the world names, once per value, and written keeping a seeded row of that key', () => {
    const world = { profiles: [{ id: 'u1', department: 'ENG' }, { id: 'u2', department: 'ENG' }, { id: 'u3', department: null }, { id: 'u4', department: 'LAW' }] };
    const { world: filled, parents, lookups } = fillWorldWithParents(world, shapes, new Set(['profiles']));
    expect(filled.departments).toEqual([{ code: 'ENG', title: 'pf-title-900' }, { code: 'LAW', title: 'pf-title-901' }]);
    expect([parents, lookups]).toEqual([['departments'], ['departments']]);
    const statements = fixtureStatements(world, ['profiles'], { users: 'direct', bypassTriggers: false, shapes });
    expect(statements.map((s) => s.table)).toEqual(['departments', 'profiles']);
    expect(statements[0].sql).toMatch(/on conflict do nothing$/);
    // Without the model's tables named (the filler alone), or for a table of the model, none is made.
    expect(fillWorldWithParents(world, shapes).world.departments).toBeUndefined();
    expect(fillWorldWithParents(world, shapes, new Set(['profiles', 'departments'])).world.departments).toBeUndefined();
  });
});
