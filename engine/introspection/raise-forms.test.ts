import { describe, expect, it } from 'vitest';
import { raisesMessageFirst } from './raise-forms.ts';
import { refusalConventions, type TargetFunctionFacts } from '../mapping/propose.ts';

const fn = (name: string, source: string, trigger = false): TargetFunctionFacts => ({ name, args: [], returns: 'void', outColumns: [], readOnly: false, trigger, source });

describe('raises written with every part a named option (stranger-app-11)', () => {
  it('are read as the message-first form, errcode kept, hint and detail left out', () => {
    expect(raisesMessageFirst(`IF r IS NULL THEN RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED', hint = 'sign in first'; END IF;`)).toBe(
      `IF r IS NULL THEN raise exception 'NOT_AUTHORIZED' using errcode = '42501'; END IF;`,
    );
    expect(raisesMessageFirst(`raise using message = format('buyers may not change %s', x), errcode = 'P0001';`)).toBe(`raise exception 'buyers may not change %s' using errcode = 'P0001';`);
    expect(raisesMessageFirst(`raise exception using message = 'it''s gone';`)).toBe(`raise exception 'it''s gone';`);
  });

  it('leaves the message-first form, and a raise naming no message, as they are', () => {
    const first = `raise exception 'NOT_AUTHORIZED' using errcode = '42501';`;
    expect(raisesMessageFirst(first)).toBe(first);
    expect(raisesMessageFirst(`raise using errcode = 'unique_violation';`)).toBe(`raise using errcode = 'unique_violation';`);
  });

  it("so init's refusal convention is the functions' NOT_AUTHORIZED, not a helper's one message-first argument check", () => {
    const functions = [
      fn('nanoid', `IF size < 1 THEN RAISE EXCEPTION 'nanoid size must be positive' USING errcode = '22023'; END IF;`),
      fn('merge_vs_tickets', `IF NOT FOUND THEN RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED'; END IF;`),
      fn('vs_set_public', `IF NOT FOUND THEN RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED'; END IF;`),
    ];
    const read = (fs: TargetFunctionFacts[]) => refusalConventions({ tables: [], functions: [{}] }, { functions: fs }).functionRefusal;
    expect(read(functions)).toEqual({ code: '22023', message: '^nanoid size must be positive' });
    expect(read(functions.map((f) => ({ ...f, source: raisesMessageFirst(f.source) })))).toEqual({ code: '42501', message: '^NOT_AUTHORIZED' });
  });
});
