/**
 * A behaviour diff run: the same generated cases (by seed) against the head and the base
 * migration states of one target, each side a session (engine/run/session.ts) on one shared
 * server, so both are built, fitted and judged exactly as `fuzz` builds, fits and judges.
 */
import type { Target } from '../config/target.ts';
import type { MigrationFile } from '../db/migrations.ts';
import type { DatabaseServer } from '../db/providers/server.ts';
import type { Pack } from '../pack.ts';
import { missingObjects } from '../runner/applicability.ts';
import type { DataCase } from '../runner/data-case.ts';
import type { DataProperty } from '../runner/data-property.ts';
import { openSession } from '../run/session.ts';
import { compareCase, diffCases, groupChanges, type DiffReport, type SideRecord } from './behaviour-diff.ts';
import { apiPrivileges, privilegeChanges } from './privilege-diff.ts';

export interface DiffRun {
  pack: Pack;
  /** The head: the target as fuzz resolves it (its migrations, settings, mapping, fixture plan). */
  target: Target;
  /** The base state's migration files (the same target otherwise). */
  base: MigrationFile[];
  baseLabel: string;
  server: DatabaseServer;
  properties: DataProperty[];
  seed: number;
  runs: number;
}

export async function runDiff(run: DiffRun): Promise<DiffReport> {
  const { target, seed, runs } = run;
  const mapping = target.fixtures?.mapping;
  // Head first: its schema decides which rules run (and how they narrow); a rule the base cannot run is skipped.
  const head = await openSession({ target, pack: run.pack, server: run.server });
  const properties: DataProperty[] = [];
  const skipped: DiffReport['skipped'] = [];
  const cases = new Map<string, DataCase[]>();
  const headRecords = new Map<string, SideRecord[]>();
  let headPrivileges: string[];
  try {
    headPrivileges = await apiPrivileges(head.env.workers[0].client, head.env.cache.exposedSchemas);
    for (const fitted of head.fit(run.properties, seed)) {
      if (!fitted.runnable) {
        skipped.push({ id: fitted.listed.id, reason: fitted.result.status === 'not-applicable' ? `head lacks ${fitted.result.note?.replace(/^not applicable: the target has no /, '')}` : (fitted.result.note ?? fitted.result.status) });
        continue;
      }
      const { property } = fitted;
      properties.push(property);
      cases.set(property.id, diffCases(property, head.oracle, seed, runs));
      headRecords.set(property.id, await head.observe(cases.get(property.id)!));
    }
  } finally {
    await head.close();
  }
  const base = await openSession({ target, pack: run.pack, server: run.server, migrations: run.base });
  const changes = [];
  const compared: string[] = [];
  let privileges;
  try {
    privileges = privilegeChanges(await apiPrivileges(base.env.workers[0].client, base.env.cache.exposedSchemas), headPrivileges);
    for (const property of properties) {
      const missing = missingObjects(property, base.env.cache, mapping);
      if (missing.length) {
        skipped.push({ id: property.id, reason: `base lacks ${missing.join(', ')} (the base's state: its migrations do not create it yet; the mapping is checked on the head)` });
        continue;
      }
      compared.push(property.id);
      const list = cases.get(property.id)!;
      const baseRecords = await base.observe(list);
      const headList = headRecords.get(property.id)!;
      for (let i = 0; i < list.length; i++) {
        const change = compareCase(property.id, list[i], baseRecords[i], headList[i]);
        if (change) changes.push(change);
      }
    }
  } finally {
    await base.close();
  }
  return { base: run.baseLabel, head: target.label, seed, runs, properties: compared, skipped, changes: groupChanges(changes), privileges };
}
