/**
 * `npm run shrink-sizes`: how small the reported cases of the shipped mutants are. Each mutant in
 * packs/reference/rules/*\/mutants is killed as `policyfuzz mutants` does (engine/mutants/kill.ts),
 * and the size of the finding that killed it (users, fixture rows, steps), before and after
 * shrinking, is recorded. Prints one line per mutant, then the median and spread.
 * Goal: median ≤ 2 users, 3 fixture rows, 2 steps.
 */
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import { startDatabaseServer } from '../engine/db/providers/index.ts';
import { killMutant } from '../engine/mutants/kill.ts';
import { loadMutants } from '../engine/mutants/mutant-files.ts';
import type { CaseSize } from '../engine/runner/result.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from '../cli/paths.ts';
import { referencePack } from '../packs/reference/index.ts';
import { referenceOracle } from '../packs/reference/model/index.ts';

const SEED = Number(process.env.SEED ?? 1);
const RUNS = Number(process.env.RUNS ?? 300);
const ONLY = process.env.ONLY?.split(',');

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main(): Promise<void> {
  const server = await startDatabaseServer({ databaseUrl: process.env.DATABASE_URL });
  const sizes: Array<{ mutant: string; property: string; before: CaseSize; after: CaseSize }> = [];
  try {
    const migrations = loadMigrationFolder(BUNDLED_MIGRATIONS);
    const mutants = loadMutants(BUNDLED_MUTANTS).filter((m) => !ONLY || ONLY.some((o) => m.name.startsWith(o)));
    for (const mutant of mutants) {
      let seen: (typeof sizes)[number] | undefined;
      const t = Date.now();
      await killMutant(mutant, {
        server,
        target: { migrations, oracle: referenceOracle, supabaseCompat: true },
        properties: referencePack.properties,
        catalogProperties: referencePack.catalogProperties ?? [],
        seed: SEED,
        runs: RUNS,
        onResult: (m, r) => {
          const f = r.status === 'failed' ? r.failure : undefined;
          if (f?.sizes && !seen) seen = { mutant: m.name, property: r.id, before: f.sizes.before, after: f.sizes.after };
        },
      });
      if (seen) sizes.push(seen);
      const s = (c: CaseSize) => `${c.users}u ${c.rows}r ${c.steps}s`;
      console.log(`${mutant.name.padEnd(52)} ${seen ? `${seen.property}  ${s(seen.before).padEnd(12)} → ${s(seen.after)}` : '(no data-layer finding: killed by a catalog check, or survived)'}  ${Date.now() - t} ms`);
    }
  } finally {
    await server.stop();
  }
  console.log(`\n${sizes.length} mutants with a data-layer finding (seed ${SEED}, ${RUNS} runs)`);
  for (const key of ['users', 'rows', 'steps'] as const) {
    const before = sizes.map((x) => x.before[key]);
    const after = sizes.map((x) => x.after[key]);
    const hist = [...new Set(after)].sort((a, b) => a - b).map((v) => `${v}:${after.filter((x) => x === v).length}`).join(' ');
    console.log(`${key.padEnd(5)} before: median ${median(before)}, p75 ${quantile(before, 0.75)}, max ${Math.max(...before)} | after: median ${median(after)}, p75 ${quantile(after, 0.75)}, max ${Math.max(...after)}  (after, value:count ${hist})`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
