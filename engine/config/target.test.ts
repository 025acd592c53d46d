/**
 * A mapping may set aside a function's extra output columns (extraColumns) only where the spec
 * leaves its columns open: where it fixes them (rule 11's org chart, "… only"), the mapping is
 * refused with a one-line error naming the key, since such a column is a finding.
 */
import { describe, expect, it } from 'vitest';
import { extendPack } from '../../api/define.ts';
import { BUNDLED_MIGRATIONS } from '../../cli/paths.ts';
import { referencePack } from '../../packs/reference/index.ts';
import { UsageError } from '../errors.ts';
import { resolveTarget } from './target.ts';

const withExtra = (fn: string) => extendPack(referencePack, { name: 'extra-columns', mapping: { functions: { [fn]: { extraColumns: ['created_at'] } } } });

describe('mapping.functions.<f>.extraColumns', () => {
  it('is refused where the spec fixes the columns (get_public_org_chart), naming the key', async () => {
    const refused = resolveTarget(withExtra('get_public_org_chart'), { migrations: BUNDLED_MIGRATIONS, explicitMigrations: true });
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(/^mapping\.functions\.get_public_org_chart\.extraColumns: .*rule 11.*remove extraColumns$/);
  });

  it('is taken where the spec leaves them open (get_pr_ticket_by_id)', async () => {
    const target = await resolveTarget(withExtra('get_pr_ticket_by_id'), { migrations: BUNDLED_MIGRATIONS, explicitMigrations: true });
    expect(target.fixtures?.mapping?.functions?.get_pr_ticket_by_id?.extraColumns).toEqual(['created_at']);
  });
});

describe('postgrest.maxRows', () => {
  it("is the target's db-max-rows", async () => {
    const target = await resolveTarget(referencePack, { config: { object: { migrations: BUNDLED_MIGRATIONS, postgrest: { maxRows: 1000 } }, label: 'inline' }, migrations: BUNDLED_MIGRATIONS });
    expect(target.maxRows).toBe(1000);
    const without = await resolveTarget(referencePack, { config: { object: { migrations: BUNDLED_MIGRATIONS }, label: 'inline' }, migrations: BUNDLED_MIGRATIONS });
    expect(without.maxRows).toBeUndefined();
  });
});
