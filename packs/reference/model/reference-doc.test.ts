/** docs/reference-model.md is the model's own account of itself: regenerated, it is unchanged. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../cli/paths.ts';
import { referenceModelDoc } from './reference-doc.ts';

describe('docs/reference-model.md', () => {
  it('matches the reference model (after a model change: node scripts/reference-model-doc.mjs)', () => {
    const written = readFileSync(path.join(PROJECT_ROOT, 'docs', 'reference-model.md'), 'utf8');
    expect(written === referenceModelDoc(), 'docs/reference-model.md has drifted from packs/reference/model: run node scripts/reference-model-doc.mjs').toBe(true);
    // What a mapping is written from: a table, a column with its type, the values a CHECK column draws.
    expect(written).toContain('| `role` | text | yes | `"user"` |  | `user`, `dev`, `staff`, `pr_staff`, `vs_staff`, `vp_admin`, `uni_staff`, `sa_prof`, `admin` |');
  });
});
