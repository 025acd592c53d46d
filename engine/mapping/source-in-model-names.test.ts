import { describe, expect, it } from 'vitest';
import { quotedColumnsAsModel } from './source-in-model-names.ts';

describe("a body read for a setting, the target's quoted column names as the model's", () => {
  const mapping = {
    tables: {
      vs_tickets: { name: 'VsTicket', columns: { category: 'categoryId', duplicate_of: 'duplicateOfId', public_title: 'title' } },
      pr_tickets: { name: 'PrTicket', columns: { submitter_label: 'title' } },
    },
  };

  // Re-created after stranger-app-15's find_similar_vs_tickets: init proposed no vs.similarUncategorized, the pattern reading `category is not distinct from`.
  it('renames quoted identifiers, never a string literal or an unquoted word', () => {
    const body = `select t.* from public."VsTicket" t where t."categoryId" is not distinct from src."categoryId" and t."duplicateOfId" is null and note = 'categoryId'`;
    expect(quotedColumnsAsModel(body, mapping)).toBe(`select t.* from public."VsTicket" t where t.category is not distinct from src.category and t.duplicate_of is null and note = 'categoryId'`);
    expect(new RegExp(String.raw`\bcategory(?:_id)?\s+is\s+not\s+distinct\s+from\b`, 'i').test(quotedColumnsAsModel(body, mapping))).toBe(true);
  });

  it('leaves a quoted name that folds to itself, as its unquoted word: a table the mapping does not rename may hold that column', () => {
    const one = { tables: { vs_tickets: { name: 'VsTicket', columns: { public_title: 'title' } } } };
    expect(quotedColumnsAsModel(`select p."title" from "PrTicket" p`, one)).toBe(`select p."title" from "PrTicket" p`);
  });

  it('leaves a target name two tables read as two model names', () => {
    expect(quotedColumnsAsModel(`t."title" = s."title"`, mapping)).toBe(`t."title" = s."title"`);
  });
});
