/**
 * A pack's sweep (DataProperty.sweep) is the pack's own generator, as its cases are: one that throws
 * (`fc.constantFrom()` of an empty list) is a usage error naming the property, never policyfuzz's
 * internal error with a stack (cli: testing/real-app-fixtures.test.ts, "a pack's own mistakes").
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.ts';
import type { DataProperty } from '../runner/data-property.ts';
import { withCasesBlamingItsPack } from './pack-module.ts';

describe('withCasesBlamingItsPack', () => {
  it('guards the sweep as it guards the cases', () => {
    const property = { id: 'L01', cases: () => fc.constant({}), sweep: [() => fc.constantFrom<never>()] } as unknown as DataProperty;
    const guarded = withCasesBlamingItsPack(property, 'lists');
    expect(() => guarded.sweep?.[0]({} as never)).toThrow(UsageError);
    expect(() => guarded.sweep?.[0]({} as never)).toThrow(/^property L01 of pack lists: drawing a case threw: fc\.constantFrom expects at least one parameter/);
  });
});
