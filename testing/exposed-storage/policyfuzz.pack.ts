/**
 * A pack for Storage buckets a project lets signed-in users see and create through the API (its
 * config.toml exposes `storage`): `storage.buckets` is modelled and named by a property, so its
 * requests go through PostgREST with `Accept-Profile: storage`. Written against policyfuzz's public API only.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { definePack, defineProperty, defineTable, fc, type Caller, type DataCase } from 'policyfuzz';

const here = path.dirname(fileURLToPath(import.meta.url));
const signedIn = (uid: string | null) => uid !== null;

export const buckets = defineTable({
  table: 'storage.buckets',
  columns: [
    { name: 'id', type: 'text', nullable: false },
    { name: 'name', type: 'text', nullable: false },
    { name: 'public', type: 'boolean', nullable: true, default: false },
  ],
  primaryKey: ['id'],
  grants: { anon: ['select', 'insert', 'update', 'delete'], authenticated: ['select', 'insert', 'update', 'delete'] },
  rowSecurity: true,
  rules: { select: (_row, ctx) => signedIn(ctx.uid), insertCheck: (_row, ctx) => signedIn(ctx.uid) },
});

const bucket = fc.constantFrom('avatars', 'docs', 'media').chain((id) => fc.boolean().map((isPublic) => ({ id, name: id, public: isPublic })));

/** B01: signed-in users see and create buckets; anon neither. */
export const B01 = defineProperty({
  id: 'B01',
  rule: 1,
  title: 'storage.buckets: seen and created by signed-in users only',
  tables: ['storage.buckets'],
  cases: () =>
    fc
      .record({
        person: fc.uuid({ version: 4 }),
        existing: fc.uniqueArray(bucket, { maxLength: 2, selector: (b) => b.id }),
        fresh: fc.constantFrom('new-a', 'new-b').map((id) => ({ id, name: id })),
        anon: fc.boolean(),
        write: fc.boolean(),
      })
      .map(({ person, existing, fresh, anon, write }): DataCase => {
        const caller: Caller = anon ? { kind: 'anon' } : { kind: 'user', id: person };
        const request = write
          ? { kind: 'insert' as const, table: 'storage.buckets', rows: [fresh], returning: 'minimal' as const }
          : { kind: 'select' as const, table: 'storage.buckets', columns: '*' as const, filters: [] };
        return {
          world: { 'auth.users': [{ id: person, email: 'p@buckets.test' }], 'storage.buckets': existing },
          steps: [
            { caller, request },
            { caller: { kind: 'service' }, request: { kind: 'select', table: 'storage.buckets', columns: '*', filters: [] } },
          ],
        };
      }),
});

export default definePack({
  name: 'exposed-storage',
  model: { tables: { 'storage.buckets': buckets }, functions: {}, fixtureOrder: ['auth.users', 'storage.buckets'] },
  properties: [B01],
  migrations: path.join(here, 'supabase', 'migrations'),
});
