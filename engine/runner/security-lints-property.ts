/**
 * Supabase's security lints (engine/checker/security-lints.ts) as a catalog property every pack
 * gets: `fuzz` runs it with the pack's own catalog halves (reported as `LINT01:catalog`), a
 * config's `rules.exclude: ["LINT01"]` switches it off, and hand-written mutants name it in their
 * `-- rules:` header. It needs no model: what it finds is wrong whatever the application means.
 */
import { countLintedObjects, formatLintFinding, readLintFindings } from '../checker/security-lints.ts';
import type { Pack } from '../pack.ts';
import { SECURITY_LINTS_ID } from '../property-id.ts';
import type { CatalogProperty } from './catalog-property.ts';
import { modelGrantsProperty } from './model-grants-property.ts';

export const SECURITY_LINTS: CatalogProperty = {
  id: SECURITY_LINTS_ID,
  rule: 0,
  title: 'Supabase security lints (splinter): definer views, RLS off or bypassed, user_metadata in policies, mutable search_path',
  async check(client, _settings, context) {
    const findings = await readLintFindings(client, context.exposedSchemas);
    const objects = await countLintedObjects(client, context.exposedSchemas);
    // Counted as refusals: the objects found clean; there is nothing "granted" to tally.
    return { objects, granted: 0, withheld: Math.max(0, objects - new Set(findings.map((f) => f.object)).size), findings: findings.map(formatLintFinding), details: findings };
  },
};

/**
 * A pack's catalog properties, and the engine's own every pack gets (a pack's of the same id
 * wins): the security lints, and the model's grants (GRANT01) for a pack without catalog
 * properties of its own — the reference, and packs extending it, check grants in R15/R16.
 */
export function catalogPropertiesOf(pack: Pick<Pack, 'catalogProperties' | 'model'>): CatalogProperty[] {
  const own = pack.catalogProperties ?? [];
  const engine = [SECURITY_LINTS, ...(own.length ? [] : [modelGrantsProperty(pack.model)])];
  return [...own, ...engine.filter((p) => !own.some((o) => o.id === p.id))];
}
