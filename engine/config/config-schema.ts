/** The config file's schema: every key the engine reads, checked on its own (not yet against a pack). */
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import { PARSED_ONCE } from '../pack.ts';
import { MappingSchema } from '../mapping/schema.ts';
import { PROPERTY_ID_PATTERN } from '../property-id.ts';

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

export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `  ${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`).join('\n');
}

/** The config's own keys checked (not yet against a pack): the parsed object, else a UsageError naming each field. */
export function checkConfigShape(raw: unknown, file: string): z.infer<typeof ConfigSchema> {
  const parsed = ConfigSchema.safeParse(raw, PARSED_ONCE);
  if (!parsed.success) throw new UsageError(`${file} is not a valid policyfuzz config:\n${describeIssues(parsed.error)}`);
  return parsed.data;
}
