import { describe, expect, it } from 'vitest';
import { defaultsSpelledAsTarget, spelledAs, targetSpelling } from './target-spelling.ts';
import { defaultSettings } from '../../packs/reference/model/settings.ts';

describe("the model's default words as a target spells them in another case", () => {
  it('takes a setting for a list of roles by the stem role, not rol (a patrol setting names no role)', () => {
    const { settings } = defaultsSpelledAsTarget(['roles'], { roles: ['USER', 'DEV'] }, { roles: ['user', 'dev'], patrolModes: ['dev'], reviewerRoles: ['dev'] } as never);
    expect(settings).toEqual({ reviewerRoles: ['DEV'] });
  });

  it('finds the one word equal but for case, none where there is none or several', () => {
    expect(targetSpelling('pending', ['PENDING', 'PAID'])).toBe('PENDING');
    expect(targetSpelling('review', ['PENDING', 'PAID'])).toBeUndefined();
    expect(targetSpelling('paid', ['Paid', 'PAID'])).toBeUndefined();
    expect(spelledAs(['pending', 'PAID'], ['PENDING', 'PAID'])).toEqual(['PENDING', 'PAID']);
    expect(spelledAs(['pending', 'admin'], ['PENDING'])).toBeUndefined();
  });

  // Re-created after stranger-app-15 (Prisma's `enum OrderStatus { PENDING REVIEW SLIP_MISMATCH PAID … }`, `enum Role { USER … VP_ADMIN … SA_PROF }`):
  // init read shop.statuses and roles off the enums, and every rule on shop_orders stopped with a harness error on
  // shop.buyerEditableStatuses' pending, review, slip_mismatch; dept-scoped and professor roles kept words no row could hold.
  it("respells every default naming a vocabulary's words, beside it or (roles) anywhere, where each word has the target's spelling", () => {
    const proposed = {
      roles: ['USER', 'DEV', 'STAFF', 'PR_STAFF', 'VS_STAFF', 'VP_ADMIN', 'UNI_STAFF', 'SA_PROF'],
      shop: { statuses: ['PENDING', 'REVIEW', 'SLIP_MISMATCH', 'PAID', 'SHIPPED', 'CANCELLED'] },
      staffRoles: ['DEV', 'STAFF'],
    };
    const { settings, defaults, notes } = defaultsSpelledAsTarget(['roles', 'shop.statuses', 'vs.statuses'], proposed, defaultSettings);
    expect(settings).toMatchObject({
      shop: { buyerEditableStatuses: ['PENDING', 'REVIEW', 'SLIP_MISMATCH'], initialStatus: 'PENDING' },
      vs: { deptScopedRoles: ['VP_ADMIN'] },
      projects: { professorRoles: ['SA_PROF'] },
    });
    // What init already proposed is kept (and not noted twice); a list naming a word the target lacks in every case (admin) is not guessed.
    expect(settings).not.toHaveProperty('staffRoles');
    expect(settings).not.toHaveProperty('adminRoles');
    expect(settings).not.toHaveProperty('vs.handlerRoles');
    // The defaults the helpers' reading compares with are respelled too; the settings object given is untouched.
    expect((defaults as typeof defaultSettings).shop.buyerEditableStatuses).toEqual(['PENDING', 'REVIEW', 'SLIP_MISMATCH']);
    expect(defaultSettings.shop.buyerEditableStatuses).toEqual(['pending', 'review', 'slip_mismatch']);
    expect(notes.map((n) => n.path)).toContain('shop.buyerEditableStatuses');
    expect(notes.find((n) => n.path === 'shop.buyerEditableStatuses')!.text).toBe('confirm: model.shop.buyerEditableStatuses: PENDING, REVIEW, SLIP_MISMATCH (the default pending, review, slip_mismatch as model.shop.statuses spells them)');
  });

  it('leaves a vocabulary the target spells as the model does, and one init did not read, alone', () => {
    expect(defaultsSpelledAsTarget(['roles', 'shop.statuses'], { shop: { statuses: ['pending', 'review', 'slip_mismatch', 'paid'] } }, defaultSettings).settings).toEqual({});
  });
});
