/**
 * Scratch databases on a server: one template per run (Supabase compatibility layer, then the
 * migrations, then any extra files such as a mutant), and one clone of it per worker.
 * Everything policyfuzz creates carries a `pf_` prefix and is dropped by `drop()`.
 */
import { installSafeUpdate } from './supabase/safeupdate.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { EnvironmentError } from '../errors.ts';
import { applyMigration, migrationsDigest, type MigrationFile } from './migrations.ts';
import type { DatabaseServer } from './providers/server.ts';
import { onShutdown } from './cleanup.ts';
import { dropStaleScratchDatabases, scratchName } from './server-hygiene.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const compatRolesSql = readFileSync(path.join(here, 'supabase/roles.sql'), 'utf8');
const compatSchemaSql = readFileSync(path.join(here, 'supabase/schema.sql'), 'utf8');

export interface TemplateOptions {
  migrations: MigrationFile[];
  /** Applied after the migrations, e.g. a mutant; same error reporting. */
  extra?: MigrationFile[];
  supabaseCompat?: boolean;
}

export interface PreparedTemplate {
  name: string;
  digest: string;
  url: string;
  /** Clone the template once per worker; every clone starts identical. */
  cloneForWorkers(count: number): Promise<string[]>;
  drop(): Promise<void>;
}

export function databaseUrl(adminUrl: string, database: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (e) {
    throw new EnvironmentError(`cannot connect to ${new URL(url).pathname.slice(1) || 'the server'}: ${(e as Error).message}`);
  }
  client.on('error', () => {});
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function ensureCompatRoles(adminUrl: string): Promise<void> {
  await withClient(adminUrl, async (c) => {
    // Roles are cluster-wide; two runs creating them at once race, so retry once on a duplicate.
    for (let attempt = 0; ; attempt++) {
      try {
        await c.query(compatRolesSql);
        return;
      } catch (e) {
        const code = (e as pg.DatabaseError).code;
        if (attempt < 3 && (code === '42710' || code === '23505' || code === 'XX000')) continue;
        throw new EnvironmentError(`cannot create Supabase roles: ${(e as Error).message}`);
      }
    }
  });
}

/** Stale scratch databases are looked for once per process, before its first template. */
let staleChecked = false;

export async function prepareTemplate(server: DatabaseServer, options: TemplateOptions): Promise<PreparedTemplate> {
  const name = scratchName('tpl');
  const compat = options.supabaseCompat ?? true;
  if (compat) await ensureCompatRoles(server.adminUrl);
  const clones: string[] = [];
  // Registered before the database exists: a signal from here on drops whatever was created.
  const unregister = onShutdown(() => drop());
  const drop = async () => {
    unregister();
    await withClient(server.adminUrl, async (c) => {
      for (const db of [...clones, name]) await c.query(`drop database if exists ${quoteIdent(db)} with (force)`);
    }).catch(() => {});
  };
  await withClient(server.adminUrl, async (c) => {
    if (!server.ownsServer && !staleChecked) {
      staleChecked = true;
      await dropStaleScratchDatabases(c);
    }
    await c.query(`create database ${quoteIdent(name)} template template0 encoding 'UTF8'`);
  });
  const url = databaseUrl(server.adminUrl, name);
  try {
    await withClient(url, async (c) => {
      if (compat) {
        const has = await c.query(`select to_regprocedure('auth.uid()') is not null as present`);
        if (!has.rows[0].present) await applyMigration(c, { name: 'supabase-compat', path: '(policyfuzz Supabase compatibility layer)', sql: compatSchemaSql });
      }
      for (const file of options.migrations) await applyMigration(c, file, { skippable: true, supabaseCompat: compat });
      for (const file of options.extra ?? []) await applyMigration(c, file);
      // Supabase's pg-safeupdate also refuses unfiltered writes inside functions (safeupdate.ts).
      if (compat) await installSafeUpdate(c);
    });
  } catch (e) {
    await drop();
    throw e;
  }
  return {
    name,
    url,
    digest: migrationsDigest([...options.migrations, ...(options.extra ?? [])]),
    async cloneForWorkers(count) {
      const urls: string[] = [];
      await withClient(server.adminUrl, async (c) => {
        for (let i = 0; i < count; i++) {
          const clone = scratchName(`w${i}`);
          await c.query(`create database ${quoteIdent(clone)} template ${quoteIdent(name)}`);
          clones.push(clone);
          urls.push(databaseUrl(server.adminUrl, clone));
        }
      });
      return urls;
    },
    drop,
  };
}
