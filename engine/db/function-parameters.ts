/**
 * A function's parameters as pg_proc holds them, read one way by the executor's schema cache (how
 * PostgREST resolves a call) and by init's target facts (how a model function is paired with it).
 */

/**
 * The parameters a caller gives, in order: IN, INOUT and VARIADIC (pg_proc's modes i, b, v), the
 * ones pronargdefaults counts its trailing defaults among. `unnamed`: the name of one without a name.
 */
export function inputParameters(modes: readonly string[], names: readonly string[], types: readonly string[], unnamed: (at: number) => string): { name: string; type: string; unnamed?: true }[] {
  return types.flatMap((type, i) => (modes[i] === 'i' || modes[i] === 'b' || modes[i] === 'v' ? [names[i] ? { name: names[i], type } : { name: unnamed(i), type, unnamed: true as const }] : []));
}

/** The types PostgREST v12.2 lets a function's one unnamed parameter have (it then takes the whole body, by content type). */
const WHOLE_BODY_TYPES = ['bytea', 'json', 'jsonb', 'text', 'xml'];

/**
 * Whether PostgREST v12.2 keeps the function in its schema cache (SchemaCache.hs allFunctions,
 * `callable`): it counts a parameter unnamed only where pg_proc holds no names at all
 * (`count(*) - count(name)` over a null proargnames); beside one named parameter Postgres stores
 * `''` for the others, which counts as named (`f(p_id int, int default 0)` is called with
 * `{"p_id": 1}`). So it is left out only where no input has a name and it is not one bytea, json,
 * jsonb, text or xml parameter (which takes the whole body): every call to it answers PGRST202.
 */
export function callableThroughRest(inputs: readonly { type: string; unnamed?: true }[]): boolean {
  return inputs.length === 0 || inputs.some((a) => !a.unnamed) || (inputs.length === 1 && WHOLE_BODY_TYPES.includes(inputs[0].type));
}

/**
 * The input parameters with the last `defaults` of them marked `optional` (pg_proc.pronargdefaults
 * counts the trailing ones that have a DEFAULT): a caller may leave them out, as PostgREST resolves
 * a function by the names a body gives (stranger-app-13's `vs_set_public(p_id, p_public,
 * p_public_title, p_public_summary default null)` for the model's three parameters).
 */
export function withDefaultsMarked<A extends { name: string; type: string }>(args: A[], defaults: number): (A & { optional?: true })[] {
  const firstOptional = args.length - Math.max(0, defaults);
  return args.map((a, i) => (i >= firstOptional ? { ...a, optional: true as const } : a));
}

/**
 * What a call answers, as PostgREST v12.2 reads pg_proc (SchemaCache.hs allFunctions,
 * `rettype_is_composite`): rows (composite) where the return type is a composite type, a
 * `record`, or any parameter is OUT, INOUT or TABLE (`proargmodes && '{t,b,o}'`), so a single
 * `RETURNS TABLE (id uuid)`, OUT or INOUT parameter answers objects keyed by its name, not bare
 * values; else values (scalar). Sets where `proretset`.
 */
export function answerShape(f: { retType: string; retKind: string; returnsSet: boolean; modes: readonly string[] }): 'void' | 'scalar' | 'setof-scalar' | 'composite' | 'setof-composite' {
  if (f.retType === 'void') return 'void';
  const composite = f.retKind === 'c' || f.retType === 'record' || f.modes.some((m) => m === 't' || m === 'b' || m === 'o');
  return composite ? (f.returnsSet ? 'setof-composite' : 'composite') : f.returnsSet ? 'setof-scalar' : 'scalar';
}
