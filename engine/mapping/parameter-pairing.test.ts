/**
 * init pairing a model function's parameters with the target's same-named function's (stranger-app-11:
 * `merge_vs_tickets(p_primary_id, p_duplicate_id)` beside the model's `(p_duplicate, p_primary)`;
 * position alone sent every merge crosswise).
 */
import { describe, expect, it } from 'vitest';
import { leftOutAreOptional, pairParameters, parameterCountsFit } from './parameter-pairing.ts';
import { inputParameters, withDefaultsMarked } from '../db/function-parameters.ts';
import { proposeMapping } from './propose.ts';

describe("pairing a function's parameters named otherwise", () => {
  it('pairs a target name holding the model name’s words, whatever its place', () => {
    expect(pairParameters(['p_duplicate', 'p_primary'], ['p_primary_id', 'p_duplicate_id'])).toEqual({ p_duplicate: 'p_duplicate_id', p_primary: 'p_primary_id' });
    expect(pairParameters(['p_id', 'p_public', 'p_title'], ['p_id', 'p_public', 'p_public_title'])).toEqual({ p_title: 'p_public_title' });
  });

  it('pairs the rest by position among those left (p_ref → p_id), as before', () => {
    expect(pairParameters(['p_ref', 'p_body'], ['p_id', 'p_body'])).toEqual({ p_ref: 'p_id' });
    expect(pairParameters(['p_duplicate', 'p_primary'], ['p_source', 'p_target'])).toEqual({ p_duplicate: 'p_source', p_primary: 'p_target' });
    expect(pairParameters(['p_duplicate', 'p_primary'], ['p_source', 'p_primary_ticket'])).toEqual({ p_duplicate: 'p_source', p_primary: 'p_primary_ticket' });
  });

  it('pairs by position only where as many are left on each side (beside extra defaulted parameters, position says nothing)', () => {
    expect(pairParameters(['p_id', 'p_public', 'p_title'], ['p_id', 'p_public', 'p_summary', 'p_headline'])).toEqual({});
    expect(pairParameters(['p_id', 'p_public', 'p_title', 'p_summary'], ['p_id', 'p_public', 'p_summary', 'p_headline'])).toEqual({ p_title: 'p_headline' });
  });

  it('a target name holding two model names’ words is no word match (p_id in both p_ticket_id and p_id_list)', () => {
    expect(pairParameters(['p_id', 'p_ticket'], ['p_id_ticket', 'p_other'])).toEqual({ p_id: 'p_id_ticket', p_ticket: 'p_other' });
  });

  it("is what init proposes for merge_vs_tickets", () => {
    const { mapping } = proposeMapping(
      { tables: [], functions: [{ name: 'merge_vs_tickets', args: ['p_duplicate', 'p_primary'] }] },
      { tables: [], functions: [{ name: 'merge_vs_tickets', args: [{ name: 'p_primary_id', type: 'text' }, { name: 'p_duplicate_id', type: 'text' }], returns: 'void', outColumns: [], readOnly: false, trigger: false, source: '' }] },
    );
    expect(mapping.functions?.merge_vs_tickets?.args).toEqual({ p_duplicate: 'p_duplicate_id', p_primary: 'p_primary_id' });
  });
});

describe('a target function with parameters of its own that have a DEFAULT (stranger-app-13)', () => {
  const vsSetPublic = (args: { name: string; type: string; optional?: true }[]) =>
    proposeMapping(
      { tables: [], functions: [{ name: 'vs_set_public', args: ['p_id', 'p_public', 'p_title'] }] },
      { tables: [], functions: [{ name: 'vs_set_public', args, returns: 'void', outColumns: [], readOnly: false, trigger: false, source: '' }] },
    ).mapping.functions?.vs_set_public?.args;

  it('pairs the model parameters and leaves the defaulted one out of the call', () => {
    expect(vsSetPublic([{ name: 'p_id', type: 'bigint' }, { name: 'p_public', type: 'boolean' }, { name: 'p_public_title', type: 'text', optional: true }, { name: 'p_public_summary', type: 'text', optional: true }])).toEqual({ p_title: 'p_public_title' });
  });

  it('proposes nothing where an extra parameter is required (the call could not leave it out)', () => {
    expect(vsSetPublic([{ name: 'p_id', type: 'bigint' }, { name: 'p_public', type: 'boolean' }, { name: 'p_public_title', type: 'text' }, { name: 'p_public_summary', type: 'text' }])).toBeUndefined();
  });

  it('never pairs a model parameter with nothing left to give it', () => {
    expect(parameterCountsFit(['p_id', 'p_public', 'p_title'], [{}, {}, { optional: true }, { optional: true }])).toBe(true);
    expect(parameterCountsFit(['p_id', 'p_public', 'p_title'], [{}, {}])).toBe(false);
    expect(leftOutAreOptional(['p_id', 'p_public', 'p_title'], { p_title: 'p_public_title' }, [{ name: 'p_id' }, { name: 'p_public' }, { name: 'p_public_title' }, { name: 'p_other' }])).toBe(false);
  });
});

describe('marking defaulted parameters from pg_proc.pronargdefaults', () => {
  it('marks the trailing ones', () => {
    expect(withDefaultsMarked([{ name: 'a', type: 'int' }, { name: 'b', type: 'int' }, { name: 'c', type: 'int' }], 2)).toEqual([{ name: 'a', type: 'int' }, { name: 'b', type: 'int', optional: true }, { name: 'c', type: 'int', optional: true }]);
    expect(withDefaultsMarked([{ name: 'a', type: 'int' }], 0)).toEqual([{ name: 'a', type: 'int' }]);
    // A VARIADIC parameter is an input too: `f(a int, b int default 0, variadic c int[] default '{}')` has two defaults, b and c.
    const inputs = inputParameters(['i', 'i', 'v', 'o'], ['a', 'b', 'c', 'out'], ['integer', 'integer', 'integer[]', 'integer'], (i) => `$${i + 1}`);
    expect(withDefaultsMarked(inputs, 2).map((a) => `${a.name}${a.optional ? '?' : ''}`)).toEqual(['a', 'b?', 'c?']);
  });
});
