/**
 * Minimal cases that keep the bug. fast-check shrinks what its generators can shrink; this pass
 * then works on the plain case: it cuts the steps after the one that disagrees, drops earlier
 * steps whose removal keeps the disagreement, then drops fixture rows (people included) one at a
 * time, until nothing more can go. A candidate counts only when it still disagrees with the
 * same signature: a privilege escalation never turns into a NOT NULL error on the way.
 */
import type { Oracle } from '../pack.ts';
import type { CaseTransaction } from '../executor/case-transaction.ts';
import { checkCase, type HistoryEntry, type StepMismatch } from '../runner/check-case.ts';
import type { DataCase } from '../runner/data-case.ts';
import type { CaseSize } from '../runner/result.ts';
import { signatureOf } from './signature.ts';

export type { CaseSize };

/** The table of people (auth identities) in a world; each row is a user. */
export const PEOPLE_TABLE = 'auth.users';

/** Size as reported: users are rows of auth.users and signed-in callers, by id; rows are fixture rows of every other table (profiles included). */
export function caseSize(testCase: DataCase): CaseSize {
  const ids = new Set<string>();
  for (const row of testCase.world[PEOPLE_TABLE] ?? []) ids.add(String(row.id));
  for (const s of testCase.steps) if (s.caller.kind === 'user') ids.add(s.caller.id);
  const rows = Object.entries(testCase.world).reduce((n, [table, list]) => n + (table === PEOPLE_TABLE ? 0 : list.length), 0);
  return { users: ids.size, rows, steps: testCase.steps.length };
}

export function describeSize(s: CaseSize): string {
  return `${s.users} user(s), ${s.rows} fixture row(s), ${s.steps} step(s)`;
}

/** The case as plain JSON data (a generated case may carry a fast-check model run; it is dropped). */
export function plainCase(testCase: DataCase): DataCase {
  return JSON.parse(JSON.stringify(testCase)) as DataCase;
}

export interface Minimized {
  testCase: DataCase;
  mismatch: StepMismatch;
  /** The minimized case's steps as sent (up to the disagreeing one): its repro reuses them. */
  history: HistoryEntry[];
  /** Cases checked against the database while minimizing. */
  checks: number;
}

/**
 * Minimizes `start` (which disagrees with `signature` as `mismatch`, with `history`) on `tx`. `fixtureOrder` is
 * the pack's foreign-key order: rows are tried dependants first, so a profile goes before its person.
 */
export async function minimizeCase(tx: CaseTransaction, oracle: Oracle, propertyId: string, signature: string, start: DataCase, mismatch: StepMismatch, history: HistoryEntry[], limits: { maxChecks?: number; over?: () => boolean } = {}): Promise<Minimized> {
  const { maxChecks = 400, over } = limits;
  let best = plainCase(start);
  let bestMismatch = mismatch;
  let bestHistory = history;
  let checks = 0;
  const keeps = async (candidate: DataCase): Promise<boolean> => {
    // Out of checks or of time (the shrink's share of the budget): the smallest case so far stands.
    if (checks >= maxChecks || !candidate.steps.length || over?.()) return false;
    checks++;
    try {
      const verdict = await checkCase(tx, candidate, oracle);
      if (verdict.mismatch && signatureOf(propertyId, verdict.mismatch) === signature) {
        best = candidate;
        bestMismatch = verdict.mismatch;
        bestHistory = verdict.history;
        return true;
      }
    } catch {
      // A candidate whose fixtures the database refuses (a row others reference) is not smaller, just broken.
    }
    return false;
  };

  // Steps after the disagreeing one never ran: cut them (kept only if it still disagrees the same way).
  if (best.steps.length > bestMismatch.step + 1) await keeps({ ...best, steps: best.steps.slice(0, bestMismatch.step + 1) });

  for (let round = 0; round < 4; round++) {
    let changed = false;
    // Earlier steps, each one tried away (the disagreeing step itself stays).
    for (let i = bestMismatch.step - 1; i >= 0; i--) {
      if (i >= best.steps.length - 1) continue;
      if (await keeps({ ...best, steps: best.steps.filter((_, j) => j !== i) })) changed = true;
    }
    // Fixture rows, dependants first (reverse foreign-key order), people last.
    const order = [...new Set([...oracle.model.fixtureOrder, ...Object.keys(best.world)])].filter((t) => best.world[t]?.length).reverse();
    for (const table of order) {
      for (let i = (best.world[table]?.length ?? 0) - 1; i >= 0; i--) {
        const rows = best.world[table] ?? [];
        if (i >= rows.length) continue;
        if (await keeps({ ...best, world: { ...best.world, [table]: rows.filter((_, j) => j !== i) } })) changed = true;
      }
    }
    if (!changed) break;
  }
  await tx.flush();
  return { testCase: best, mismatch: bestMismatch, history: bestHistory, checks };
}
