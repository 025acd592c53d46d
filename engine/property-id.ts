/**
 * What a property id looks like, in one place: a letter, then letters or digits, then two digits
 * (R02 in the reference, a pack's own N01); the SSO half's are S01…. Failure files, baselines,
 * configs, mutant headers and the command line all read ids with these.
 */
export const PROPERTY_ID_PATTERN = '[A-Z][A-Z0-9]*\\d\\d';

const PROPERTY_ID = new RegExp(`^${PROPERTY_ID_PATTERN}$`);
const SSO_PROPERTY_ID = /^S\d\d$/;

/**
 * The engine's own properties, which every pack gets (the Supabase security lints; the model's
 * grants, for a pack without catalog properties of its own). A config's
 * `rules.include` lists the pack's rules and leaves them on; `rules.exclude` switches them off.
 */
export const SECURITY_LINTS_ID = 'LINT01';
/** The grants a pack's model states, checked against the catalog (packs without catalog properties of their own). */
export const MODEL_GRANTS_ID = 'GRANT01';
export const ENGINE_PROPERTY_IDS: readonly string[] = [SECURITY_LINTS_ID, MODEL_GRANTS_ID];

export const isPropertyId = (id: string): boolean => PROPERTY_ID.test(id);
export const isSsoPropertyId = (id: string): boolean => SSO_PROPERTY_ID.test(id);
