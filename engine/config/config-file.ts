/**
 * policyfuzz.config.json (or .ts exporting the same object as default): where a project's
 * migrations are, whether to apply the Supabase compatibility layer, the model's settings
 * (every choice made where the spec is silent), which rules apply, and how fixtures are
 * written into a schema policyfuzz did not write. Validated with zod; errors name the field.
 */
import { existsSync, readFileSync } from 'node:fs';
import Module, { createRequire, register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { PARSED_ONCE, type Pack } from '../pack.ts';
import { UsageError } from '../errors.ts';
import { MappingSchema } from '../mapping/schema.ts';
import { isSsoPropertyId, PROPERTY_ID_PATTERN } from '../property-id.ts';
import { catalogPropertiesOf } from '../runner/security-lints-property.ts';
import { importBundledTypeScript, OWN_SPECIFIER } from './bundled-typescript.ts';

export const CONFIG_FILE_NAMES = ['policyfuzz.config.ts', 'policyfuzz.config.json'];

const propertyId = z.string().regex(new RegExp(`^${PROPERTY_ID_PATTERN}(:catalog)?$`), 'a property id like R02 (R16:catalog: the catalog half alone; a pack\'s own ids too, e.g. N01)');

export const ConfigSchema = z
  .object({
    /** Free text for people (policyfuzz init writes what it found here). */
    notes: z.array(z.string()).optional(),
    /**
     * The project's pack: a module (relative to the config file) whose default export (or
     * `pack` export) is made with `extendPack` / `definePack` from `policyfuzz`. Absent: the
     * pack the CLI was given (the bundled reference), unless `--pack` names one.
     */
    pack: z.string().min(1).optional(),
    /** Migration folders, applied one after another (each in name order). Relative to the config file. */
    migrations: z
      .union([z.string(), z.array(z.string()).min(1)], { error: (issue) => (issue.input === undefined ? 'required: the folder of .sql migrations (a path relative to the config, or a list of them), e.g. "supabase/migrations"' : 'a folder of .sql migrations, or a list of them, e.g. "supabase/migrations"') })
      .transform((v) => (Array.isArray(v) ? v : [v])),
    /** File names to leave out (seed data, extensions the scratch server lacks). */
    skip: z.array(z.string()).default([]),
    /** Seconds one statement of a migration may run before the run ends naming it (default 300). */
    migrationTimeout: z.number({ error: 'seconds one migration statement may run, e.g. 600' }).positive('seconds one migration statement may run, e.g. 600').optional(),
    supabaseCompat: z.boolean().default(true),
    /** Overrides of the pack's settings; anything not given keeps its default. */
    model: z.record(z.string(), z.unknown()).default({}),
    rules: z
      .object({
        include: z.array(propertyId).min(1, 'an empty list runs no rule of the pack; leave the key out to run every rule').optional(),
        exclude: z.array(propertyId).default([]),
      })
      .strict()
      .default({ exclude: [] }),
    fixtures: z
      .object({
        /**
         * How a user comes into being: `direct` writes auth.users and public.users rows;
         * `auth-trigger` writes auth.users, lets the project's trigger create the users rows, and
         * replaces them with the world's (a trigger-made row left would be a user the model lacks).
         */
        users: z.enum(['direct', 'auth-trigger']).default('direct'),
        /**
         * Guards that refuse even the server: `["table.trigger", …]` switches off only those
         * triggers while fixtures are written (foreign keys and every other trigger still run);
         * `true` switches off every trigger (session_replication_role = replica).
         */
        bypassTriggers: z.union([z.boolean(), z.array(z.string().regex(/^[A-Za-z_][\w$]*(\.[A-Za-z_][\w$]*){1,2}$/, 'a trigger as table.trigger (or schema.table.trigger)'))]).default(false),
        /** Tables whose seeded rows are removed before each case (target names). */
        emptyTables: z.array(z.string().min(1)).optional(),
        /** Model columns kept as rows of another table (`"users.role": { "table": "app.user_roles", … }`): engine/target/columns-as-rows.ts. */
        columnsAsRows: z
          .record(
            z.string(),
            z
              .object({
                table: z.string().min(1),
                owner: z.string().min(1),
                value: z.string().min(1),
                lookup: z.object({ table: z.string().min(1), key: z.string().min(1), name: z.string().min(1) }).strict().optional(),
                fixed: z.record(z.string(), z.string()).optional(),
              })
              .strict(),
          )
          .refine((held) => Object.keys(held).every((key) => /^[A-Za-z_][\w$]*(\.[A-Za-z_][\w$]*){1,2}$/.test(key)), 'each key a model column as table.column (users.role)')
          .optional(),
        /** A multi-tenant target's tenant column (`workspace_id`): each case's world lives in the caller's tenant (engine/target/tenant-world.ts). */
        tenantColumn: z.string().regex(/^[A-Za-z_][\w$]*$/, 'a column name, as the tables spell it (workspace_id)').optional(),
      })
      .strict()
      .default({ users: 'direct', bypassTriggers: false }),
    /** The target's names for the model's tables, columns and functions, and its conventions (docs/config.md). */
    mapping: MappingSchema.optional(),
    /**
     * The access tokens Supabase Auth issues the project's users. `appMetadata: "auth.users"`: each
     * signed-in request's token carries the caller's `auth.users.raw_app_meta_data` as it stands
     * before the request (Auth copies it into the `app_metadata` claim), for a project that mirrors a
     * role, department, tenant or permissions there (a trigger on its users table) and has its
     * policies read `auth.jwt() -> 'app_metadata'`. Absent: the pack's drawn claims.
     */
    tokens: z.object({ appMetadata: z.literal('auth.users', { error: 'tokens.appMetadata: "auth.users" (the caller\'s auth.users.raw_app_meta_data), or leave it out' }) }).strict().optional(),
    /** PostgREST's own settings the project runs with. `maxRows`: db-max-rows (over config.toml's `[api] max_rows`). */
    postgrest: z
      .object({ maxRows: z.number({ error: 'db-max-rows: a whole number of rows, e.g. 1000' }).int('db-max-rows: a whole number of rows, e.g. 1000').positive('db-max-rows: a whole number of rows, e.g. 1000').optional() })
      .strict()
      .optional(),
  })
  .strict();

export type PolicyfuzzConfig = Omit<z.infer<typeof ConfigSchema>, 'model'> & {
  /** The pack's settings, overrides applied. */
  model: unknown;
  /** Absolute migration folders. */
  migrationDirs: string[];
  /** The `pack` module, as an absolute path. */
  packModule?: string;
  file: string;
};

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `  ${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`).join('\n');
}

export function parseConfig(raw: unknown, file: string, pack: Pack): PolicyfuzzConfig {
  const parsed = ConfigSchema.safeParse(raw, PARSED_ONCE);
  if (!parsed.success) throw new UsageError(`${file} is not a valid policyfuzz config:\n${describeIssues(parsed.error)}`);
  const model = pack.settingsSchema.safeParse(parsed.data.model, PARSED_ONCE);
  if (!model.success) throw new UsageError(`${file} is not a valid policyfuzz config:\n${describeIssues(model.error).replace(/^ {2}/gm, '  model.')}`);
  // The pack's rules, its catalog-only ones and the engine's own it gets (the security lints, LINT01; its model's grants, GRANT01).
  const known = [...new Set([...pack.properties, ...catalogPropertiesOf(pack)].map((p) => p.id))];
  // `R16:catalog` names a rule's catalog half: the rule itself must exist.
  const unknown = [...(parsed.data.rules.include ?? []), ...parsed.data.rules.exclude].filter((id) => !isSsoPropertyId(id) && !known.includes(id.replace(/:catalog$/, '')));
  if (unknown.length) throw new UsageError(`${file}: rules name ${[...new Set(unknown)].join(', ')}, which this pack does not have (known rules: ${known.join(', ')})`);
  const base = path.dirname(path.resolve(file));
  const migrationDirs = parsed.data.migrations.map((m) => path.resolve(base, m));
  return { ...parsed.data, model: model.data, migrationDirs, file, ...(parsed.data.pack ? { packModule: path.resolve(base, parsed.data.pack) } : {}) };
}

let typeScriptLoader: Promise<unknown> | undefined;
let ownPackageFallbackForCommonJs = false;
let ownPackageFallbackForEsModules = false;

/**
 * A project that runs policyfuzz through `npx` has no `policyfuzz` in its node_modules, yet its
 * pack imports it. Where Node finds none, `policyfuzz` resolves to the running copy (the package
 * naming itself through its own `exports`); an installed copy still wins. For CommonJS a patch of
 * the resolver, always; for ES modules a module.register hook, only when the module's folder
 * finds no `policyfuzz`: the hook runs on a thread of its own that every later import goes
 * through (0.1–0.2 s of CPU a start).
 */
function resolveOwnPackageAsFallback(file: string): void {
  const here = import.meta.url;
  if (!ownPackageFallbackForCommonJs) {
    ownPackageFallbackForCommonJs = true;
    const ownRequire = createRequire(here);
    const cjs = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
    const original = cjs._resolveFilename;
    cjs._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
      try {
        return original.call(this, request, ...rest);
      } catch (e) {
        if (!OWN_SPECIFIER.test(request) || (e as { code?: string }).code !== 'MODULE_NOT_FOUND') throw e;
        return ownRequire.resolve(request);
      }
    };
  }
  if (ownPackageFallbackForEsModules || findsOwnPackage(file)) return;
  ownPackageFallbackForEsModules = true;
  const hooks = `export async function resolve(specifier, context, next) {
  try { return await next(specifier, context); }
  catch (e) {
    if (!/^policyfuzz(\\/|$)/.test(specifier) || (e && e.code !== 'ERR_MODULE_NOT_FOUND')) throw e;
    return next(specifier, { ...context, parentURL: ${JSON.stringify(here)} });
  }
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

/** Whether `policyfuzz` resolves from the module's folder (installed above it, or the package itself). */
function findsOwnPackage(file: string): boolean {
  try {
    createRequire(file).resolve('policyfuzz');
    return true;
  } catch {
    return false;
  }
}

/** What a module of the project may be: a pack or a config. */
export const MODULE_EXTENSIONS = /\.(ts|mts|cts|js|mjs|cjs)$/;

/**
 * A .js/.mjs/.cjs module as it is. A TypeScript one (.ts, .mts, .cts) as Node loads it where
 * Node strips types itself (22.18+, 23.6+); Node 20 cannot, so then bundled by esbuild and
 * imported (bundled-typescript.ts). A .ts file in a folder policyfuzz cannot write to is loaded
 * through tsx, a dependency of policyfuzz, registered for the rest of the process (--help and
 * JSON configs never load it). A .ts file is an ES module or CommonJS as its package.json says,
 * like any other; `policyfuzz` in it resolves as Node resolves it (the installed package, so a
 * pack shares the very modules the CLI runs), else to the running copy (`npx policyfuzz`).
 */
export async function importModule(file: string): Promise<{ default?: unknown } & Record<string, unknown>> {
  const absolute = path.resolve(file);
  const url = pathToFileURL(absolute).href;
  const typeScript = /\.[mc]?ts$/.test(file);
  if (!typeScript || nodeStripsTypes()) {
    resolveOwnPackageAsFallback(absolute);
    return esModuleView(await import(url));
  }
  const bundled = await importBundledTypeScript(absolute);
  if (bundled) return esModuleView(bundled);
  resolveOwnPackageAsFallback(absolute);
  // Both halves: a .ts file in a CommonJS project is compiled to CommonJS, and Node's own
  // CommonJS loader cannot read TypeScript.
  typeScriptLoader ??= Promise.all([
    import('tsx/esm/api').then(({ register }) => register({ tsconfig: false })),
    import('tsx/cjs/api').then(({ register }) => register()),
  ]);
  await typeScriptLoader;
  return esModuleView(await import(url));
}

/** Node 22.18+ and 23.6+ load TypeScript themselves (process.features.typescript 'strip' or 'transform'; false or absent before). */
function nodeStripsTypes(): boolean {
  return Boolean((process.features as { typescript?: string | false }).typescript);
}

/** A CommonJS module compiled from ES syntax arrives as `{ default: exports }`: its exports, then. */
function esModuleView(m: { default?: unknown } & Record<string, unknown>): { default?: unknown } & Record<string, unknown> {
  const inner = m.default as ({ __esModule?: boolean } & Record<string, unknown>) | undefined;
  return inner && typeof inner === 'object' && inner.__esModule === true ? inner : m;
}

/** The config file's object, unchecked: JSON, or a module's default export. */
export async function readConfigFile(file: string): Promise<unknown> {
  if (!existsSync(file)) throw new UsageError(`config file not found: ${file}`);
  let raw: unknown;
  if (file.endsWith('.json')) {
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new UsageError(`${file} is not valid JSON: ${(e as Error).message}`);
    }
  } else if (MODULE_EXTENSIONS.test(file)) {
    try {
      raw = (await importModule(file)).default;
    } catch (e) {
      throw new UsageError(`${file} could not be loaded: ${(e as Error).message}`);
    }
    if (raw === undefined) throw new UsageError(`${file} must export the config as its default export`);
  } else {
    throw new UsageError(`config file must be .json or .ts: ${file}`);
  }
  return raw;
}

/** The `pack` a config file names (an absolute path), read before the config is checked against a pack. */
export function packModuleOf(raw: unknown, file: string): string | undefined {
  const named = raw && typeof raw === 'object' ? (raw as { pack?: unknown }).pack : undefined;
  if (named === undefined) return undefined;
  if (typeof named !== 'string' || !named) throw new UsageError(`${file} is not a valid policyfuzz config:\n  pack: a module path, like "./policyfuzz.pack.ts"`);
  return path.resolve(path.dirname(path.resolve(file)), named);
}

export async function loadConfig(file: string, pack: Pack): Promise<PolicyfuzzConfig> {
  return parseConfig(await readConfigFile(file), file, pack);
}

/** The config in this folder, if there is one. */
export function findConfig(dir: string = process.cwd()): string | undefined {
  return CONFIG_FILE_NAMES.map((n) => path.join(dir, n)).find((f) => existsSync(f));
}
