/**
 * The notes app's pack: its intent in TypeScript, next to its migrations, written only against
 * policyfuzz's public API. The engine does the rest: generation, execution as PostgREST would
 * send it, comparison, shrinking, reports.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { definePack, defineProperty, defineTable, fc, z, type ApiRequest, type Caller, type DataCase, type Embed, type Row } from 'policyfuzz';

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
    { name: 'parent_id', type: 'uuid', nullable: true },
    { name: 'cover_tag_id', type: 'uuid', nullable: true },
  ],
  primaryKey: ['id'],
  // A reply (parent_id) and a cover tag: what a read embeds (N05).
  foreignKeys: [
    { column: 'parent_id', references: 'notes', referencedColumn: 'id' },
    { column: 'cover_tag_id', references: 'tags', referencedColumn: 'id' },
  ],
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

/** The shared tag vocabulary: any signed-in user reads it. */
export const tagsTable = defineTable<Settings>({
  table: 'tags',
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'label', type: 'text', nullable: false },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select'] },
  rowSecurity: true,
  rules: { select: (_row, ctx) => ctx.uid !== null },
});

/**
 * A note filed under a tag by someone: its keys to both sides lie in its primary key, which makes
 * it the junction of notes and tags (`tags!note_tags(*)`). N05: a filing is seen by its filer only.
 */
export const noteTagsTable = defineTable<Settings>({
  table: 'note_tags',
  columns: [
    { name: 'note_id', type: 'uuid', nullable: false },
    { name: 'tag_id', type: 'uuid', nullable: false },
    { name: 'filed_by', type: 'uuid', nullable: false },
  ],
  primaryKey: ['note_id', 'tag_id', 'filed_by'],
  foreignKeys: [
    { column: 'note_id', references: 'notes', referencedColumn: 'id' },
    { column: 'tag_id', references: 'tags', referencedColumn: 'id' },
  ],
  grants: { anon: [], authenticated: ['select'] },
  rowSecurity: true,
  rules: { select: (row, ctx) => ctx.uid !== null && row.filed_by === ctx.uid },
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

/**
 * The read forms N05 sends (supabase-js `.select(…)`, `.order(…)`); `manyToMany: false` leaves
 * out the one through the junction, `tags!note_tags(*)`.
 */
export interface NoteReadForms {
  manyToMany: boolean;
}

/**
 * A world with tags, replies (a note's parent is an earlier note, so the fixtures hold it) and
 * filings, and one read of the notes embedding what hangs off them.
 */
function noteReads(forms: NoteReadForms) {
  const tagWorld = world.chain(({ people, notes, caller }) =>
    fc.uniqueArray(fc.record({ id: fc.uuid({ version: 4 }), label: fc.constantFrom('work', 'Work', 'home', 'idea') }), { minLength: 1, maxLength: 3, selector: (t) => t.id }).chain((tags) =>
      fc
        .record({
          links: fc.tuple(...notes.map((_, i) => fc.record({ parent: fc.option(fc.constantFrom(...(i ? notes.slice(0, i).map((n) => n.id) : [null])), { nil: null }), cover: fc.option(fc.constantFrom(...tags.map((t) => t.id)), { nil: null }) }))),
          filings: notes.length
            ? fc.uniqueArray(fc.record<Row>({ note_id: fc.constantFrom(...notes.map((n) => n.id)), tag_id: fc.constantFrom(...tags.map((t) => t.id)), filed_by: fc.constantFrom(...people) }), { maxLength: 5, selector: (f) => `${f.note_id} ${f.tag_id} ${f.filed_by}` })
            : fc.constant<Row[]>([]),
        })
        .map(({ links, filings }) => ({ people, caller, tags, filings, notes: notes.map((n, i) => ({ ...n, parent_id: links[i].parent, cover_tag_id: links[i].cover })) })),
    ),
  );
  const embeds: { weight: number; arbitrary: fc.Arbitrary<Embed[]> }[] = [
    ...(forms.manyToMany ? [{ weight: 3, arbitrary: fc.constantFrom<Embed[]>([{ table: 'tags', hint: 'note_tags', columns: ['id', 'label'] }], [{ table: 'tags', hint: 'note_tags', columns: ['label'], order: [{ column: 'label', direction: 'desc' }] }]) }] : []),
    { weight: 1, arbitrary: fc.constantFrom<Embed[]>([{ table: 'tags', hint: 'cover_tag_id', alias: 'cover', columns: ['label'] }], [{ table: 'tags', hint: 'notes_cover_tag_id_fkey', alias: 'cover', columns: '*' }]) },
    { weight: 1, arbitrary: fc.constant<Embed[]>([{ table: 'notes', hint: 'parent_id', alias: 'replies', columns: ['id', 'body'] }]) },
    { weight: 1, arbitrary: fc.constant<Embed[]>([{ table: 'parent_id', alias: 'parent', columns: ['id', 'is_public'] }]) },
    // Two relationships join notes and tags: without a hint PostgREST refuses (PGRST201).
    { weight: 1, arbitrary: fc.constant<Embed[]>([{ table: 'tags', columns: ['label'] }]) },
  ];
  const order = fc.option(fc.constantFrom<NonNullable<Extract<ApiRequest, { kind: 'select' }>['order']>>([{ column: 'body' }], [{ column: 'body', direction: 'desc' }, { column: 'id' }], [{ column: 'cover_tag_id', nulls: 'first' }]), { nil: undefined });
  return tagWorld.chain(({ people, caller, tags, filings, notes }) =>
    fc.record({ embeds: fc.oneof(...embeds), order }).map(
      ({ embeds, order }): DataCase => ({
        world: { ...rows(people, notes), tags, note_tags: filings },
        steps: [{ caller, request: { kind: 'select', table: 'notes', columns: ['id', 'body', 'is_public'], filters: [], embeds, ...(order ? { order } : {}) } }],
      }),
    ),
  );
}

/** N05 with some of its forms switched off: what each form adds to what the run can find. */
export function notesEmbedProperty(forms: NoteReadForms) {
  return defineProperty<Settings>({
    id: 'N05',
    rule: 5,
    title: 'notes: a read embedding tags, replies or the parent shows only what each table lets the caller see',
    tables: ['notes', 'tags', 'note_tags'],
    cases: () => noteReads(forms),
  });
}

export const N05 = notesEmbedProperty({ manyToMany: true });

export default definePack<Settings>({
  name: 'notes-app',
  model: { tables: { notes: notesTable, tags: tagsTable, note_tags: noteTagsTable }, functions: {}, fixtureOrder: ['auth.users', 'tags', 'notes', 'note_tags'] },
  settingsSchema: NotesSettings,
  properties: [N01, N02, N03, N04, N05],
  migrations: path.join(here, 'supabase', 'migrations'),
  mutants: path.join(here, 'mutants'),
});
