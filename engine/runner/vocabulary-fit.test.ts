/**
 * The vocabulary check reads the mapping: the target's table and column names, and its
 * `values` (a status spelled differently on the target is not a misfit once mapped). Before,
 * one `values` mapping of project_sign_requests.status made every property a harness error.
 */
import { describe, expect, it } from 'vitest';
import { referencePack } from '../../packs/reference/index.ts';
import type { ColumnShape, TableShapes } from '../introspection/table-shapes.ts';
import type { TargetMapping } from '../mapping/mapping.ts';
import { misfitsInPlay, tableVocabularyMisfits } from './vocabulary-fit.ts';

const oracle = { model: referencePack.model, settings: referencePack.settingsSchema.parse({}) };
const column = (name: string, vocabulary: string[]): ColumnShape => ({ name, type: 'text', notNull: true, hasDefault: true, generated: false, unique: false, vocabulary, vocabularyConstraint: `${name}_check` });
/** A target whose sign requests are `signature_requests`, their status `state`, spelled its own way. */
const shapes: TableShapes = new Map([['signature_requests', [column('state', ['waiting', 'signed', 'refused'])]]]);
const renamed: TargetMapping = { tables: { project_sign_requests: { name: 'signature_requests', columns: { status: 'state' } } } };

const vocabularyMisfits = (...args: Parameters<typeof tableVocabularyMisfits>) => tableVocabularyMisfits(...args).map((m) => m.text);

describe('vocabularyMisfits under a mapping', () => {
  it('finds the target column through the table and column names, and reads its values through `values`', () => {
    expect(vocabularyMisfits(oracle, shapes, renamed)).toEqual([
      "project_sign_requests.status (the target's signature_requests.state) allows waiting, signed, refused (its CHECK state_check), but the model refuses waiting, refused",
    ]);
    const mapped: TargetMapping = { tables: { project_sign_requests: { ...renamed.tables!.project_sign_requests, values: { status: { pending: 'waiting', declined: 'refused' } } } } };
    expect(vocabularyMisfits(oracle, shapes, mapped)).toEqual([]);
  });

  it('a value the mapping leaves without a model word still misfits, named with the mapping it was read through', () => {
    const partly: TargetMapping = { tables: { project_sign_requests: { ...renamed.tables!.project_sign_requests, values: { status: { pending: 'waiting' } } } } };
    expect(vocabularyMisfits(oracle, shapes, partly)).toEqual([
      "project_sign_requests.status (the target's signature_requests.state) allows waiting, signed, refused (its CHECK state_check), but the model refuses refused (read through mapping.tables.project_sign_requests.values.status)",
    ]);
  });

  it('a column mapped to null has nothing to misfit', () => {
    expect(vocabularyMisfits(oracle, shapes, { tables: { project_sign_requests: { name: 'signature_requests', columns: { status: null } } } })).toEqual([]);
  });
});

/**
 * Re-created after stranger-app-5: its project_sign_requests.status spells the open request
 * `requested`. Before, that one misfit made all twenty rules harness errors; only rule 10 needs
 * the table. The callers' roles (`users`) are in every case and still stop every property.
 */
describe('misfitsInPlay', () => {
  const target: TableShapes = new Map([
    ['project_sign_requests', [column('status', ['requested', 'signed', 'declined'])]],
    ['users', [column('role', ['user', 'root'])]],
  ]);
  const misfits = tableVocabularyMisfits(oracle, target);

  it('stops only the properties that need the misfitting table; a users misfit stops every one', () => {
    expect(misfits.map((m) => [m.table, m.everywhere])).toEqual([
      ['users', true],
      ['project_sign_requests', false],
    ]);
    const usersOnly = misfits.filter((m) => m.table !== 'users');
    expect(misfitsInPlay({ tables: ['users'] }, [], usersOnly)).toEqual([]);
    expect(misfitsInPlay({ tables: ['projects', 'project_sign_requests'] }, [], usersOnly)).toEqual([expect.stringContaining('project_sign_requests.status allows requested, signed, declined')]);
    expect(misfitsInPlay({ tables: ['projects', 'project_sign_requests'] }, ['project_sign_requests'], usersOnly)).toEqual([]);
    expect(misfitsInPlay({ tables: ['passport.profiles'] }, [], misfits)).toEqual([expect.stringContaining('users.role allows user, root')]);
  });

  it('the callers\' table stops every property under its mapped name too (users kept as profiles)', () => {
    const mapped = tableVocabularyMisfits(oracle, new Map([['profiles', [column('role', ['user', 'root'])]]]), { tables: { users: { name: 'profiles' } } });
    expect(mapped.map((m) => [m.table, m.everywhere])).toEqual([['users', true]]);
    expect(misfitsInPlay({ tables: ['passport.profiles'] }, [], mapped)).toEqual([expect.stringContaining("users.role (the target's profiles.role) allows user, root")]);
  });
});
