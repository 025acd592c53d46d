/**
 * Model-branch coverage: which decisions of the model a case exercised, finer than a rule's
 * clauses (each normaliser comparison's outcome, each guard's allow or deny reason). The model's
 * pure functions call `branch(id)` where they decide; `predict` (predict.ts) collects the ids
 * taken while answering one request and puts them on the Prediction. No I/O: the recorder is a
 * set that exists only while a prediction is being made (predictions are synchronous).
 *
 * A pack declares the branches it knows in one catalog (PackModel.branches: id → what it
 * means), ids prefixed by the property they belong to (`R03.remark.by-absent`); `branchesOf`
 * gives the pack a recorder typed by that catalog, so an id that is not declared does not compile.
 * The engine's own decisions (a grant, a RETURNING read-back, an upsert's conflict) are recorded
 * unprefixed (`grant.table.denied`); a pack counts one under a property by declaring
 * `<property>.<engine id>` (`R16.grant.table.denied`): `asPropertyBranch` reads both the same way.
 */

/** id → what taking the branch means, e.g. `'R03.remark.by-absent': 'an appended remark without a "by" key'`. */
export type BranchCatalog = Readonly<Record<string, string>>;

let recording: Set<string> | undefined;

/** Notes that the model took branch `id` (outside a prediction: nothing is recorded). */
export function branch(id: string): void {
  recording?.add(id);
}

/**
 * Runs `fn` without recording: for a question the model asks that the target does not (whether
 * a row inserted with return=minimal would be visible), whose decisions are not the case's.
 */
export function unrecorded<T>(fn: () => T): T {
  const outer = recording;
  recording = undefined;
  try {
    return fn();
  } finally {
    recording = outer;
  }
}

/** Runs `fn` (a prediction) and returns what it returned and the branches it took, in the order first taken. */
export function withBranches<T>(fn: () => T): { value: T; branches: string[] } {
  const outer = recording;
  const mine = new Set<string>();
  recording = mine;
  try {
    const value = fn();
    return { value, branches: [...mine] };
  } finally {
    recording = outer;
    // A prediction made inside another (a function model calling a table's) counts for both.
    if (outer) for (const id of mine) outer.add(id);
  }
}

/**
 * A pack's catalog and its typed recorder: `take('R03.remark.by-absent')` compiles only for a
 * declared id; `decide(cond, yes, no)` records one of two ids and returns the condition.
 */
export function branchesOf<const C extends BranchCatalog>(catalog: C) {
  type Id = Extract<keyof C, string>;
  return {
    catalog,
    take: (id: Id): void => branch(id),
    decide: (cond: boolean, yes: Id, no: Id): boolean => {
      branch(cond ? yes : no);
      return cond;
    },
  };
}

/** The branches of a catalog that belong to property `propertyId` (ids `<propertyId>.…`). */
export function branchesOfProperty(catalog: BranchCatalog | undefined, propertyId: string): string[] {
  return Object.keys(catalog ?? {}).filter((id) => id.startsWith(`${propertyId}.`));
}

/**
 * The catalog id a branch taken in a case of property `propertyId` counts as: its own id when it
 * is one of the property's (`R03.…`), an engine branch as `<propertyId>.<id>` when the pack
 * declares that; otherwise none (another property's branch).
 */
export function asPropertyBranch(catalog: BranchCatalog | undefined, propertyId: string, id: string): string | undefined {
  if (!catalog) return undefined;
  if (id.startsWith(`${propertyId}.`)) return id in catalog ? id : undefined;
  const engine = `${propertyId}.${id}`;
  return engine in catalog ? engine : undefined;
}
