/**
 * settings.vs.mergeIntoDuplicate: the spec is silent on merging into a primary that is itself a
 * duplicate, and both answers are secure. The default refuses (the reference); a stranger's
 * schema merges, which `merged` accepts, and a failure on the difference names the setting.
 */
import { describe, expect, it } from 'vitest';
import { compareOutcomes, settingHintsFor } from '../../../engine/checker/compare.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import { predict } from '../../../engine/model/predict.ts';
import { referenceOracleWith } from './index.ts';
import { ModelSettingsSchema } from './settings.ts';
import { remarksAsCompared } from './tables/vs-tickets.ts';
import { textAsUuid } from '../../../engine/model/target-ids.ts';

const HANDLER = '3e3e3e3e-3e3e-4e3e-8e3e-3e3e3e3e3e3e';
const ticket = (id: string, duplicate_of: string | null) => ({ id, submitter_id: null, target_dept: 'ENG', status: 'open', category: null, duplicate_of, tags: [], remarks: [], public_comments: [], deleted_at: null });
const world = {
  users: [{ id: HANDLER, email: 'h@x', role: 'vs_staff', department: 'ENG', permissions: [], managed_permissions: [] }],
  vs_tickets: [ticket('VS-1', null), ticket('VS-2', 'VS-1'), ticket('VS-3', null)],
};
const caller = { kind: 'user' as const, id: HANDLER, email: 'h@x' };
const intoDuplicate: ApiRequest = { kind: 'rpc', fn: 'merge_vs_tickets', args: { p_duplicate: 'VS-3', p_primary: 'VS-2' } };
const merged = { kind: 'allowed' as const, rows: null, affected: 1 };

describe('vs.mergeIntoDuplicate', () => {
  it('default refused: a target that merges fails, naming the setting', () => {
    const oracle = referenceOracleWith(ModelSettingsSchema.parse({}));
    const expected = predict(oracle, world, caller, intoDuplicate).outcome;
    expect(expected).toMatchObject({ kind: 'raised', refusal: { reason: 'already-duplicate' } });
    expect(compareOutcomes(expected, merged, [], undefined, settingHintsFor(oracle, intoDuplicate))?.reason).toBe('database answered success, model expected error P0001 (answer or refuse: setting vs.mergeIntoDuplicate)');
  });

  it('merged: the merge is predicted (duplicate_of the primary as given, closed); a refusal fails', () => {
    const oracle = referenceOracleWith(ModelSettingsSchema.parse({ vs: { mergeIntoDuplicate: 'merged' } }));
    const prediction = predict(oracle, world, caller, intoDuplicate);
    expect(compareOutcomes(prediction.outcome, merged)).toBeUndefined();
    expect(compareOutcomes(prediction.outcome, { kind: 'raised', code: 'P0001', message: 'already a duplicate' })).toBeDefined();
    expect((prediction.world.vs_tickets as { id: string }[]).find((t) => t.id === 'VS-3')).toMatchObject({ duplicate_of: 'VS-2', status: 'closed' });
  });
});

describe('vs.autoCloseAuthor (rule 12 names no author of the auto-close remark)', () => {
  const plain: ApiRequest = { kind: 'rpc', fn: 'merge_vs_tickets', args: { p_duplicate: 'VS-3', p_primary: 'VS-1' } };
  const autoClose = (settings: object) => {
    const oracle = referenceOracleWith(ModelSettingsSchema.parse({ roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'], ...settings } }));
    const after = predict(oracle, world, caller, plain).world.vs_tickets.find((t) => t.id === 'VS-3')!;
    const shown = remarksAsCompared([after], world, ModelSettingsSchema.parse({ vs: settings }));
    return { written: (after.remarks as { vis: string; by: string }[]).filter((e) => e.vis === 'ticket'), shown: shown[0].remarks as { by: string; text: string }[] };
  };

  it('the word a target writes (stranger-app-5: staff) is the model’s, and its remark is compared as generic by that author', () => {
    expect(autoClose({}).written).toMatchObject([{ by: 'system' }]);
    const staff = autoClose({ autoCloseAuthor: 'staff' });
    expect(staff.written).toMatchObject([{ by: 'staff' }]);
    expect(staff.shown.find((e) => e.by === 'staff')?.text).toBe('<generic remark: carries no ticket id>');
  });
});

describe('vs.mergeNoteVis, vs.mergeNoteAuthor (rule 12 says only "marked internal")', () => {
  const plain: ApiRequest = { kind: 'rpc', fn: 'merge_vs_tickets', args: { p_duplicate: 'VS-3', p_primary: 'VS-1' } };
  const note = (settings: object) => {
    const oracle = referenceOracleWith(ModelSettingsSchema.parse({ roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'], ...settings } }));
    const after = predict(oracle, world, caller, plain).world.vs_tickets.find((t) => t.id === 'VS-3')!;
    return (after.remarks as { internal: boolean }[]).filter((e) => e.internal === true);
  };
  // What stranger-app-5's merge_vs_tickets writes (R07, R14 failed on the model's vis staff, by system).
  const stranger5 = { vis: 'internal', internal: true, by: 'staff', text: 'merged into VS-1' };

  it('the model writes the note the target does under the settings, another note by default', () => {
    expect(note({})).toEqual([{ vis: 'staff', by: 'system', internal: true, text: 'merged into VS-1' }]);
    expect(note({ mergeNoteVis: 'internal', mergeNoteAuthor: 'staff' })).toEqual([stranger5]);
  });

  it('never vis "ticket" (the submitter’s): refused as a setting', () => {
    expect(() => ModelSettingsSchema.parse({ vs: { mergeNoteVis: 'ticket' } })).toThrow(/an internal note is not vis/);
  });
});

describe('vs.mergeNoteIdAs (stranger-app-5 R07: the note names the primary by its uuid, as stored)', () => {
  const SUBMITTER = '5e5e5e5e-5e5e-4e5e-8e5e-5e5e5e5e5e5e';
  const own = { ...ticket('VS-3', null), submitter_id: SUBMITTER, submitter_label: 'submitter', is_public: false, public_title: null, report: 'wifi' };
  const submitterWorld = {
    users: [...world.users, { id: SUBMITTER, email: 's@x', role: 'user', department: 'ENG', permissions: [], managed_permissions: [] }],
    vs_tickets: [ticket('VS-1', null), own],
  };
  const merge: ApiRequest = { kind: 'rpc', fn: 'merge_vs_tickets', args: { p_duplicate: 'VS-3', p_primary: 'VS-1' } };
  const submitter = { kind: 'user' as const, id: SUBMITTER, email: 's@x' };
  // The target's merge writes the primary's id as it keeps it; its guard compares the re-sent remarks with those.
  const stored = [
    { vis: 'internal', by: 'staff', internal: true, text: `merged into ${textAsUuid('VS-1')}` },
    { vis: 'ticket', by: 'staff', internal: false, text: 'closed as a duplicate' },
  ];
  const resend: ApiRequest = { kind: 'update', table: 'vs_tickets', patch: { remarks: [...stored, { vis: 'ticket', by: 'submitter', text: 'Still broken today.' }] }, filters: [{ column: 'id', op: 'eq', value: 'VS-3' }], returning: 'minimal' };
  const afterMerge = (noteIdAs?: string) => {
    const settings = ModelSettingsSchema.parse({ roles: ['user', 'vs_staff'], staffRoles: ['vs_staff'], adminRoles: [], vs: { handlerRoles: ['vs_staff'], mergeNoteVis: 'internal', mergeNoteAuthor: 'staff', autoCloseAuthor: 'staff', autoCloseRemark: 'closed as a duplicate', submitterLabel: 'submitter', ...(noteIdAs ? { mergeNoteIdAs: noteIdAs } : {}) } });
    const oracle = referenceOracleWith(settings);
    return { oracle, settings, world: predict(oracle, submitterWorld, caller, merge).world };
  };

  it('uuid: the note is the stored one, so the submitter re-sending it and appending is allowed, as the target allows it', () => {
    const { oracle, world: merged } = afterMerge('uuid');
    expect((merged.vs_tickets.find((t) => t.id === 'VS-3')!.remarks as object[]).slice(0, 2)).toEqual(stored);
    expect(predict(oracle, merged, submitter, resend).outcome).toMatchObject({ kind: 'allowed', affected: 1 });
  });

  it('model (default): the note names VS-1, and the same re-send rewrites it (append-only refusal)', () => {
    const { oracle, world: merged } = afterMerge();
    expect(merged.vs_tickets.find((t) => t.id === 'VS-3')!.remarks).toMatchObject([{ text: 'merged into VS-1' }, {}]);
    expect(predict(oracle, merged, submitter, resend).outcome).toMatchObject({ kind: 'raised', refusal: { reason: 'remarks-append-only' } });
  });

  it('read back, the uuid note still compares as naming VS-1 (rule 12: its words are the project’s)', () => {
    const { settings, world: merged } = afterMerge('uuid');
    const [shown] = remarksAsCompared(merged.vs_tickets.filter((t) => t.id === 'VS-3'), merged, settings);
    expect((shown.remarks as { text: string }[])[0].text).toBe('<internal remark naming VS-1>');
  });
});
