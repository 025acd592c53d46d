import { describe, expect, it } from 'vitest';
import { conventionsWithoutCodedRefusals } from './coded-refusals.ts';

describe('refusal conventions and the refusal codes init read off the bodies', () => {
  // After stranger-app-8: init proposed both functionRefusal { 42501, ^NOT_AUTHORIZED } and refusals.codes.not-authorized
  // 42501; the first turned every NOT_AUTHORIZED into the model's P0001 where the second made the model expect 42501 (R06, R20 FAIL).
  it('drops a convention whose only message the model now expects in that code', () => {
    const { conventions, dropped } = conventionsWithoutCodedRefusals({ functionRefusal: { code: '42501', message: '^NOT_AUTHORIZED' } }, [{ code: '42501', text: 'NOT_AUTHORIZED' }]);
    expect(conventions).toEqual({});
    expect(dropped).toEqual(['functionRefusal left out (the model expects NOT_AUTHORIZED as 42501: refusals.codes)']);
  });

  it('keeps the other messages of a convention, and a convention in another code', () => {
    const { conventions } = conventionsWithoutCodedRefusals(
      { functionRefusal: { code: '42501', message: '^(?:NOT_AUTHORIZED|not allowed)' }, guardRefusal: { code: '42501', message: '^Buyers cannot set status' }, grants: 'explicit' },
      [{ code: '42501', text: 'NOT_AUTHORIZED' }, { code: 'P0002', text: 'Buyers cannot set status' }],
    );
    expect(conventions).toEqual({ functionRefusal: { code: '42501', message: '^not allowed' }, guardRefusal: { code: '42501', message: '^Buyers cannot set status' }, grants: 'explicit' });
  });

  it("matches a coded refusal by the first words the convention names it by: 'Ticket not found.' or 'NOT_FOUND: %' leave it", () => {
    const { conventions } = conventionsWithoutCodedRefusals(
      { functionRefusal: { code: 'P0002', message: '^(?:Ticket not found|NOT_FOUND|not allowed)' } },
      [{ code: 'P0002', text: 'Ticket not found.' }, { code: 'P0002', text: 'NOT_FOUND: %' }],
    );
    expect(conventions).toEqual({ functionRefusal: { code: 'P0002', message: '^not allowed' } });
  });

  it('leaves a convention with no message, or none coded, as it is', () => {
    const conventions = { functionRefusal: { code: '42501' } };
    expect(conventionsWithoutCodedRefusals(conventions, [{ code: '42501', text: 'NOT_AUTHORIZED' }])).toEqual({ conventions, dropped: [] });
    expect(conventionsWithoutCodedRefusals(undefined, [])).toEqual({ conventions: undefined, dropped: [] });
  });
});
