/**
 * The notes app's pack: its intent in TypeScript, next to its migrations, written only against
 * policyfuzz's public API. The engine does the rest: generation, execution as PostgREST would
 * send it, comparison, shrinking, reports.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { definePack, defineProperty, defineTable, fc, z, type Caller, type DataCase, type Row } from 'policyfuzz';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Where the app's own spec is silent, a named choice (none needed yet: an empty, strict object). */
export const NotesSettings = z.object({}).strict();
type Settings = z.infer<typeof NotesSettings>;

const ownsRow = (row: Row, uid: string | null) => uid !== null && row.owner_id === uid;

export const notesTable = defineTable<Settings>({
  table: 'notes',
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'owner_id', type: 'uuid', nullable: false },
    { name: 'body', type: 'text', nullable: false, default: '' },
    { name: 'is_public', type: 'boolean', nullable: false, default: false },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select', 'insert', 'update', 'delete'] },
  rowSecurity: true,
  rules: {
    // N01: the owner reads a note; any signed-in user reads a public one.
    select: (row, ctx) => ownsRow(row, ctx.uid) || (ctx.uid !== null && row.is_public === true),
    insertCheck: (row, ctx) => ownsRow(row, ctx.uid),
    // N02: only the owner edits a note, and it stays theirs.
    updateUsing: (row, ctx) => ownsRow(row, ctx.uid),
    updateCheck: (row, ctx) => ownsRow(row, ctx.uid),
    deleteUsing: (row, ctx) => ownsRow(row, ctx.uid),
  },
});

/** A few people, their notes, and a caller: one of them, an anonymous visitor, or the server. */
const world = fc.uniqueArray(fc.uuid({ version: 4 }), { minLength: 1, maxLength: 3 }).chain((people) =>
  fc.record({
    people: fc.constant(people),
    notes: fc.uniqueArray(fc.record({ id: fc.uuid({ version: 4 }), owner_id: fc.constantFrom(...people), body: fc.string({ maxLength: 12 }), is_public: fc.boolean() }), { maxLength: 4, selector: (n) => n.id }),
    caller: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...people).map((id): Caller => ({ kind: 'user', id })) },
      { weight: 1, arbitrary: fc.constant<Caller>({ kind: 'anon' }) },
      { weight: 1, arbitrary: fc.constant<Caller>({ kind: 'service' }) },
    ),
  }),
);

const rows = (people: string[], notes: Row[]) => ({ 'auth.users': people.map((id) => ({ id, email: `${id.slice(0, 8)}@notes.test` })), notes });

export const N01 = defineProperty<Settings>({
  id: 'N01',
  rule: 1,
  title: 'notes: readable by their owner, and by signed-in users when public',
  tables: ['notes'],
  cases: () =>
    world.chain(({ people, notes, caller }) =>
      fc.option(fc.constantFrom(...people), { nil: undefined }).map(
        (owner): DataCase => ({
          world: rows(people, notes),
          steps: [{ caller, request: { kind: 'select', table: 'notes', columns: '*', filters: owner ? [{ column: 'owner_id', op: 'eq', value: owner }] : [] } }],
        }),
      ),
    ),
});

/** PostgREST's two answers to a write. */
const returning = fc.constantFrom('representation' as const, 'minimal' as const);

/** A world with at least one note, one of its notes, and how the write answers. */
const aNote = world
  .filter(({ notes }) => notes.length > 0)
  .chain((w) => fc.record({ note: fc.constantFrom(...w.notes), returning }).map((drawn) => ({ ...w, ...drawn })));

const byId = (note: Row) => [{ column: 'id', op: 'eq' as const, value: note.id as string }];

export const N02 = defineProperty<Settings>({
  id: 'N02',
  rule: 2,
  title: 'notes: only the owner edits a note, and cannot hand it to someone else',
  tables: ['notes'],
  cases: () =>
    aNote.chain(({ people, notes, caller, note, returning }) =>
      fc.oneof(fc.record({ body: fc.string({ maxLength: 12 }) }), fc.record({ owner_id: fc.constantFrom(...people) })).map(
        (patch): DataCase => ({
          world: rows(people, notes),
          steps: [{ caller, request: { kind: 'update', table: 'notes', patch, filters: byId(note), returning } }],
        }),
      ),
    ),
});

/** What the server sees of the notes afterwards: a write's effect, whatever its answer said. */
const readBack = { caller: { kind: 'service' } as Caller, request: { kind: 'select' as const, table: 'notes', columns: '*' as const, filters: [] } };

export const N03 = defineProperty<Settings>({
  id: 'N03',
  rule: 3,
  title: 'notes: a signed-in user creates notes as themselves only',
  tables: ['notes'],
  cases: () =>
    world.chain(({ people, notes, caller }) =>
      fc
        .record({
          note: fc.record({ id: fc.uuid({ version: 4 }), owner_id: fc.constantFrom(...people), body: fc.string({ maxLength: 12 }), is_public: fc.boolean() }),
          returning,
        })
        .filter(({ note }) => !notes.some((n) => n.id === note.id))
        .map(
          ({ note, returning }): DataCase => ({
            world: rows(people, notes),
            steps: [{ caller, request: { kind: 'insert', table: 'notes', rows: [note], returning } }, readBack],
          }),
        ),
    ),
});

export const N04 = defineProperty<Settings>({
  id: 'N04',
  rule: 4,
  title: "notes: only the owner deletes a note (another's stays, whatever the answer)",
  tables: ['notes'],
  cases: () =>
    aNote.map(
      ({ people, notes, caller, note, returning }): DataCase => ({
        world: rows(people, notes),
        steps: [{ caller, request: { kind: 'delete', table: 'notes', filters: byId(note), returning } }, readBack],
      }),
    ),
});

export default definePack<Settings>({
  name: 'notes-app',
  model: { tables: { notes: notesTable }, functions: {}, fixtureOrder: ['auth.users', 'notes'] },
  settingsSchema: NotesSettings,
  properties: [N01, N02, N03, N04],
  migrations: path.join(here, 'supabase', 'migrations'),
  mutants: path.join(here, 'mutants'),
});
