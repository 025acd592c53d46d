/** The structural diff lists only what differs; the curl line is the request as a person would send it. */
import { describe, expect, it } from 'vitest';
import { allowed, raised, rejectedByGrant, rejectedByPolicy } from '../model/outcome.ts';
import { curlLine, failureDiff, formatDiff, structuralDiff } from './diff.ts';

const room = (id: number, tags: string[], extra: Record<string, unknown> = {}) => ({ id, name: `room ${id}`, floor: 2, capacity: 12, tags, opens: '08:00', closes: '20:00', owner: 'a0b1', ...extra });

describe('structural diff', () => {
  it('shows only the differing field of the one differing row (tags: [] → ["wifi"])', () => {
    const model = allowed([room(1, []), room(2, ['projector']), room(3, [])], 3);
    const database = { outcome: allowed([room(3, []), room(1, ['wifi']), room(2, ['projector'])], 3), response: { status: 200 } };
    const diff = failureDiff(model, database);
    expect(diff).toEqual([{ path: 'rows[id=1].tags', model: [], database: ['wifi'] }]);
    expect(formatDiff(diff)).toEqual(['rows[id=1].tags: [] → ["wifi"]']);
  });

  it('rows on one side only are listed whole, by key; equal rows in another order are no difference', () => {
    expect(failureDiff(allowed([room(1, []), room(2, [])], 2), { outcome: allowed([room(2, [])], 1) })).toEqual([
      { path: 'affected', model: 2, database: 1 },
      { path: 'rows[id=1]', model: room(1, []), database: undefined },
    ]);
    expect(failureDiff(allowed([room(1, []), room(2, [])], 2), { outcome: allowed([room(2, []), room(1, [])], 2) })).toEqual([]);
  });

  it('compares outcomes in the checker’s terms: the verdict fields, not messages', () => {
    expect(failureDiff(rejectedByPolicy(), { outcome: rejectedByGrant('permission denied for table users') })).toEqual([{ path: 'by', model: 'policy', database: 'grant' }]);
    expect(failureDiff(raised('P0001', 'users: role'), { outcome: { kind: 'error', code: 'P0001', detail: 'other text' } })).toEqual([]);
    expect(formatDiff(failureDiff(raised('P0001'), { outcome: allowed(null, 1) }))).toEqual(['kind: "error" → "allowed"', 'code: "P0001" → (absent)', 'affected: (absent) → 1', 'rows: (absent) → null']);
  });

  it('server-assigned columns (not compared by the checker) are left out, so rows still pair by id', () => {
    const model = allowed([{ id: 1, status: 'paid', updated_at: 'model time' }], 1);
    const database = { outcome: allowed([{ id: 1, status: 'pending', updated_at: '2026-11-23T21:58:21+00:00' }], 1) };
    expect(failureDiff(model, database, ['updated_at'])).toEqual([{ path: 'rows[id=1].status', model: 'paid', database: 'pending' }]);
  });

  it('plain JSON (the SSO half) is diffed field by field', () => {
    expect(structuralDiff({ status: 400, body: { error: 'invalid_grant', n: 1 } }, { status: 200, body: { error: 'invalid_grant', n: 1 } })).toEqual([{ path: 'status', model: 400, database: 200 }]);
  });
});

describe('curl line', () => {
  it('names the method, the URL with PostgREST filters, the token and the body', () => {
    expect(curlLine({ kind: 'user', id: 'u1' }, { kind: 'update', table: 'users', patch: { role: 'admin' }, filters: [{ column: 'id', op: 'eq', value: 'u1' }], returning: 'representation' })).toBe(
      `curl -X PATCH "$SUPABASE_URL/rest/v1/users?id=eq.u1" -H "apikey: $ANON_KEY" -H 'Authorization: Bearer <JWT role=authenticated sub=u1>' -H 'Prefer: return=representation' -H 'Content-Type: application/json' -d '{"role":"admin"}'`,
    );
    expect(curlLine({ kind: 'anon' }, { kind: 'select', table: 'profiles', schema: 'passport', columns: ['id', 'xp'], filters: [{ column: 'id', op: 'in', value: [1, 2] }] })).toBe(
      `curl -X GET "$SUPABASE_URL/rest/v1/profiles?id=in.(1,2)&select=id,xp" -H "apikey: $ANON_KEY" -H "Authorization: Bearer $ANON_KEY" -H 'Accept-Profile: passport'`,
    );
    // A header the client adds (a project API key a policy reads), sent after the keys.
    expect(curlLine({ kind: 'anon', headers: { lumkey: 'k-1' } }, { kind: 'select', table: 'changelogs', columns: '*', filters: [] })).toBe(
      `curl -X GET "$SUPABASE_URL/rest/v1/changelogs" -H "apikey: $ANON_KEY" -H "Authorization: Bearer $ANON_KEY" -H 'lumkey: k-1'`,
    );
    // A table named as the model names it, schema and all: the schema is the profile, as for the request sent.
    expect(curlLine({ kind: 'anon' }, { kind: 'select', table: 'storage.objects', columns: '*', filters: [] })).toBe(
      `curl -X GET "$SUPABASE_URL/rest/v1/objects" -H "apikey: $ANON_KEY" -H "Authorization: Bearer $ANON_KEY" -H 'Accept-Profile: storage'`,
    );
    expect(curlLine({ kind: 'anon' }, { kind: 'select', table: 'projects', columns: '*', filters: [], embeds: [{ table: 'project_files', columns: ['id'], inner: true }] })).toBe(
      `curl -X GET "$SUPABASE_URL/rest/v1/projects?select=*,project_files%21inner(id)" -H "apikey: $ANON_KEY" -H "Authorization: Bearer $ANON_KEY"`,
    );
    // A hint, an alias, a read's order= and an embed's: the order decides what the answer must be, so the line carries it.
    expect(curlLine({ kind: 'anon' }, { kind: 'select', table: 'notes', columns: ['id'], filters: [], embeds: [{ table: 'tags', hint: 'note_tags', alias: 'filed', columns: ['label'], order: [{ column: 'label', direction: 'desc' }] }], order: [{ column: 'body' }, { column: 'id', nulls: 'first' }] })).toBe(
      `curl -X GET "$SUPABASE_URL/rest/v1/notes?select=id,filed:tags%21note_tags(label)&order=body,id.nullsfirst&filed.order=label.desc" -H "apikey: $ANON_KEY" -H "Authorization: Bearer $ANON_KEY"`,
    );
  });
});
