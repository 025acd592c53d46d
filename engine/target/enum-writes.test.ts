import { describe, expect, it } from 'vitest';
import type { ColumnShape } from '../introspection/table-shapes.ts';
import type { ApiRequest } from '../model/request.ts';
import { unrealizableEnumWrite } from './fixtures.ts';
import { allowed, rejectedByGrant, rejectedByPolicy } from '../model/outcome.ts';

const column = (c: Partial<ColumnShape> & { name: string; type: string }): ColumnShape => ({ notNull: false, hasDefault: false, generated: false, unique: false, ...c });
const shapes = new Map([['profiles', [column({ name: 'id', type: 'uuid' }), column({ name: 'permissions', type: 'app_permission[]', elementEnumLabels: ['vs', 'pr', 'house', 'master'] }), column({ name: 'tags', type: 'text[]' })]]]);
const plan = { shapes, mapping: { tables: { users: { name: 'profiles' } } } };
const patch = (p: Record<string, unknown>): ApiRequest => ({ kind: 'update', table: 'users', patch: p, filters: [{ column: 'id', op: 'eq', value: 'a' }], returning: 'minimal' }) as ApiRequest;

describe('a write into an array of an enum (stranger-app-7: profiles.permissions app_permission[])', () => {
  it('is no case when an element is outside the labels (22P02 before any rule), whatever the model expected', () => {
    expect(unrealizableEnumWrite(plan, patch({ permissions: ['vs', 'https://unruly-government.net'] }), allowed(null, 1))).toBe(
      'profiles.permissions is an enum array: a value outside its labels is refused as input (22P02) before any rule',
    );
  });

  it('is no case either where the model expects a policy refusal, but a grant refusal (checked before the body is read) is still judged', () => {
    expect(unrealizableEnumWrite(plan, patch({ permissions: ['vs', 7] }), rejectedByPolicy())).toContain('is an enum array');
    expect(unrealizableEnumWrite(plan, patch({ permissions: ['https://unruly-government.net'] }), rejectedByGrant())).toBeUndefined();
  });

  it('is sent when every element is a label, and a plain text[] is never judged so', () => {
    expect(unrealizableEnumWrite(plan, patch({ permissions: ['vs', 'master'] }), allowed(null, 1))).toBeUndefined();
    expect(unrealizableEnumWrite(plan, patch({ permissions: [] }), allowed(null, 1))).toBeUndefined();
    expect(unrealizableEnumWrite(plan, patch({ tags: ['anything at all'] }), allowed(null, 1))).toBeUndefined();
  });
});
