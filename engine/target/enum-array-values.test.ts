import { describe, expect, it } from 'vitest';
import type { ColumnShape } from '../introspection/table-shapes.ts';
import type { ApiRequest } from '../model/request.ts';
import { unrealizableEnumArrayWrite } from './enum-array-values.ts';

const column = (c: Partial<ColumnShape> & { name: string; type: string }): ColumnShape => ({ notNull: false, hasDefault: false, generated: false, unique: false, ...c });
const shapes = new Map([['profiles', [column({ name: 'id', type: 'uuid' }), column({ name: 'permissions', type: 'app_permission[]', elementEnumLabels: ['vs', 'pr', 'house', 'master'] }), column({ name: 'tags', type: 'text[]' })]]]);
const plan = { shapes, mapping: { tables: { users: { name: 'profiles' } } } };
const patch = (p: Record<string, unknown>): ApiRequest => ({ kind: 'update', table: 'users', patch: p, filters: [{ column: 'id', op: 'eq', value: 'a' }], returning: 'minimal' }) as ApiRequest;

describe('a write into an array of an enum (stranger-app-7: profiles.permissions app_permission[])', () => {
  it('is no case when an element is outside the labels (22P02 before any rule), whatever the model expected', () => {
    expect(unrealizableEnumArrayWrite(plan, patch({ permissions: ['vs', 'https://unruly-government.net'] }))).toBe(
      'profiles.permissions is an array of an enum: an element outside its labels is refused as input (22P02) before any rule',
    );
  });

  it('is sent when every element is a label, and a plain text[] is never judged so', () => {
    expect(unrealizableEnumArrayWrite(plan, patch({ permissions: ['vs', 'master'] }))).toBeUndefined();
    expect(unrealizableEnumArrayWrite(plan, patch({ permissions: [] }))).toBeUndefined();
    expect(unrealizableEnumArrayWrite(plan, patch({ tags: ['anything at all'] }))).toBeUndefined();
  });
});
