/**
 * The name of a kept template (template-cache.ts): `policyfuzz_template_<digest>`. A leaf of its
 * own, as role-settings.ts (which template-cache.ts's imports reach) reads it too.
 */
export const CACHED_TEMPLATE_PREFIX = 'policyfuzz_template_';

/** SQL LIKE pattern matching every kept template's name. */
export const KEPT_TEMPLATE_LIKE = `${CACHED_TEMPLATE_PREFIX.replace(/_/g, '\\_')}%`;
