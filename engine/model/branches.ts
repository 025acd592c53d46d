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
 */

/** id → what taking the branch means, e.g. `'R03.remark.by-absent': 'an appended remark without a "by" key'`. */
export type BranchCatalog = Readonly<Record<string, string>>;

let recording: Set<string> | undefined;

/** Notes that the model took branch `id` (outside a prediction: nothing is recorded). */
export function branch(id: string): void {
  recording?.add(id);
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
