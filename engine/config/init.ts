/**
 * `policyfuzz init`: applies an existing migrations folder to a scratch database, reads what
 * is there, and writes a starting config: the rules whose tables and functions exist, the
 * rules that do not apply (and why), and the columns the fixture filler will complete.
 */
import path from 'node:path';
import type { DatabaseServer } from '../db/providers/server.ts';
import { loadMigrationFolder } from '../db/migrations.ts';
import { openEnvironment } from '../runner/environment.ts';
import type { DataProperty } from '../runner/data-property.ts';
import { readTableShapes } from '../introspection/table-shapes.ts';
import type { PackModel } from '../pack.ts';
import { fitToTarget } from '../runner/applicability.ts';

export interface InitReport {
  config: Record<string, unknown>;
  applicable: string[];
  notApplicable: { id: string; missing: string[] }[];
  filledColumns: string[];
}

export async function inspectMigrations(server: DatabaseServer, migrationsDir: string, properties: DataProperty[], configDir: string, model: PackModel): Promise<InitReport> {
  const tableModels = model.tables;
  const env = await openEnvironment({ server, migrations: loadMigrationFolder(migrationsDir), workers: 1 });
  try {
    const client = env.workers[0].client;
    const shapes = await readTableShapes(client, ['public', 'passport', 'auth']);
    // A trigger on auth.users usually creates the profile row: fixtures then complete it instead.
    const authTriggers = await client.query(`select count(*)::int as n from pg_trigger where tgrelid = 'auth.users'::regclass and not tgisinternal`);
    const users = authTriggers.rows[0].n > 0 ? 'auth-trigger' : 'direct';
    const applicable: string[] = [];
    const notApplicable: InitReport['notApplicable'] = [];
    for (const p of properties) {
      const { missing } = fitToTarget(p, env.cache);
      if (missing.length) notApplicable.push({ id: p.id, missing });
      else applicable.push(p.id);
    }
    const filledColumns: string[] = [];
    for (const [table, model] of Object.entries(tableModels)) {
      const known = new Set(model.columns.map((c) => c.name));
      for (const c of shapes.get(table) ?? []) {
        if (c.notNull && !c.hasDefault && !c.generated && !known.has(c.name)) filledColumns.push(`${table}.${c.name}`);
      }
    }
    // Vocabularies the schema pins with CHECKs or enums: the model settings a person must map them to.
    const vocabularyHints: string[] = [];
    for (const [table, model] of Object.entries(tableModels)) {
      for (const c of shapes.get(table) ?? []) {
        const values = c.vocabulary ?? c.enumLabels;
        if (values && model.columns.some((m) => m.name === c.name && m.check)) {
          vocabularyHints.push(`${table}.${c.name} allows ${values.join(', ')}: map it in "model" (e.g. roles, staffRoles, adminRoles, statuses) where it differs from the defaults`);
        }
      }
    }
    const notes = [
      `tables found: ${[...env.cache.tables.keys()].filter((t) => t.startsWith('public.') || t.startsWith('passport.')).join(', ') || 'none'}`,
      ...notApplicable.map((n) => `${n.id} not applicable: missing ${n.missing.join(', ')}`),
      users === 'auth-trigger' ? 'auth.users has a trigger: fixtures insert auth.users and complete the row it creates' : 'users rows are written directly',
      ...vocabularyHints,
      filledColumns.length ? `columns the fixture filler completes: ${filledColumns.join(', ')}` : 'no columns need filling',
      'model: every choice where the spec is silent (roles, staff and admin roles, vocabularies, allow-lists); see README "Choices"',
    ];
    const config = {
      notes,
      migrations: path.relative(configDir, path.resolve(migrationsDir)) || '.',
      supabaseCompat: true,
      model: {},
      rules: { include: applicable, exclude: [] },
      fixtures: { users, bypassTriggers: false },
    };
    return { config, applicable, notApplicable, filledColumns };
  } finally {
    await env.close();
  }
}
