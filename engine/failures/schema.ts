/**
 * A saved failure, as one JSON file in `.policyfuzz/failures/`: the property, the seed and path
 * fast-check printed, the shrunk case as plain data, the model's prediction and the database's
 * answer, the policyfuzz version and a digest of the migrations it was found on. Read back with
 * these schemas, so a hand-edited, truncated or foreign file is refused with what is wrong.
 */
import { z } from 'zod';
import type { DataCase } from '../runner/data-case.ts';
import { PROPERTY_ID_PATTERN } from '../property-id.ts';

export const FAILURE_FORMAT = 'policyfuzz-failure';
export const FAILURE_FORMAT_VERSION = 1;

const json = z.json();
const row = z.record(z.string(), json);

const headers = z.record(z.string(), z.string()).optional();
const CallerSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('anon'), headers }),
  z.strictObject({ kind: z.literal('service'), headers }),
  z.strictObject({
    kind: z.literal('user'),
    headers,
    id: z.string(),
    email: z.string().optional(),
    phone: z.string().optional(),
    isAnonymous: z.boolean().optional(),
    aal: z.enum(['aal1', 'aal2']).optional(),
    appMetadata: z.record(z.string(), json).optional(),
    hookClaims: z.record(z.string(), json).optional(),
    userMetadata: z.record(z.string(), json).optional(),
  }),
]);

const FilterSchema = z.strictObject({ column: z.string(), op: z.enum(['eq', 'neq', 'is', 'in', 'like', 'ilike', 'lt', 'gt']), value: json });
const OrderSchema = z.array(z.strictObject({ column: z.string(), direction: z.enum(['asc', 'desc']).optional(), nulls: z.enum(['first', 'last']).optional() }));
const returning = z.enum(['representation', 'minimal', 'headers-only']);
const schema = z.string().optional();

const RequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('select'),
    table: z.string(),
    schema,
    columns: z.union([z.literal('*'), z.array(z.string())]),
    filters: z.array(FilterSchema),
    single: z.boolean().optional(),
    embeds: z
      .array(z.strictObject({ table: z.string(), columns: z.union([z.literal('*'), z.array(z.string())]), inner: z.boolean().optional(), alias: z.string().optional(), hint: z.string().optional(), order: OrderSchema.optional() }))
      .optional(),
    order: OrderSchema.optional(),
  }),
  z.strictObject({
    kind: z.literal('insert'),
    table: z.string(),
    schema,
    rows: z.array(row),
    returning,
    columns: z.array(z.string()).optional(),
    upsert: z.strictObject({ resolution: z.enum(['merge-duplicates', 'ignore-duplicates']), onConflict: z.array(z.string()).optional() }).optional(),
    single: z.boolean().optional(),
    missing: z.literal('default').optional(),
  }),
  z.strictObject({ kind: z.literal('update'), table: z.string(), schema, patch: row, filters: z.array(FilterSchema), returning, columns: z.array(z.string()).optional(), single: z.boolean().optional(), maxAffected: z.number().int().optional() }),
  z.strictObject({ kind: z.literal('delete'), table: z.string(), schema, filters: z.array(FilterSchema), returning, columns: z.array(z.string()).optional(), single: z.boolean().optional(), maxAffected: z.number().int().optional() }),
  z.strictObject({ kind: z.literal('rpc'), fn: z.string(), schema, args: z.record(z.string(), json), get: z.boolean().optional(), single: z.boolean().optional() }),
]);

export const DataCaseSchema = z.strictObject({
  world: z.record(z.string(), z.array(row)),
  steps: z.array(z.strictObject({ caller: CallerSchema, request: RequestSchema })).min(1),
});

export const FailureRecordSchema = z.strictObject({
  format: z.literal(FAILURE_FORMAT),
  formatVersion: z.literal(FAILURE_FORMAT_VERSION),
  /** The file's stable name (without extension): the same failure found twice is one file. */
  /** A pack's property id: R…, S…, or a project pack's own (notes-app: N01). */
  id: z.string().regex(new RegExp(`^${PROPERTY_ID_PATTERN}-[0-9a-f]{12}$`)),
  property: z.string().regex(new RegExp(`^${PROPERTY_ID_PATTERN}$`)),
  title: z.string(),
  area: z.enum(['data', 'sso']),
  seed: z.number().int(),
  path: z.string(),
  message: z.string(),
  /** Data layer: a DataCase (checked below); SSO: the property's counterexample as recorded. */
  case: json,
  /** Data layer: the case as first found, before shrinking (`case` keeps its signature); absent when shrinking left it as it was, and in older files. */
  unshrunk: json.optional(),
  /** Data layer: the step (0-based) where model and database first disagreed. */
  step: z.number().int().min(0).nullable(),
  expected: json,
  actual: json,
  /** Data layer: the finding's signature (engine/findings/signature.ts), absent in files of older versions. */
  signature: z.string().optional(),
  /**
   * Data layer: what the model predicted for each step sent, up to the disagreeing one, as the run
   * recorded it (the case's history). Repros reuse it rather than predicting again; absent in older files.
   */
  predictions: z.array(json).optional(),
  policyfuzzVersion: z.string(),
  migrationsDigest: z.string().nullable(),
  /** The migrations folder it was found on, as given on the command line. */
  migrations: z.string().nullable(),
  /**
   * The target it was found on, as absolute paths: its config (settings, migration folders,
   * fixtures) or its migrations folder. Replays and regression tests rebuild exactly this.
   * Absent (older files): the bundled reference database.
   */
  target: z
    .strictObject({
      config: z.string().nullable(),
      /** One folder, or several applied in order. */
      migrations: z.union([z.string(), z.array(z.string()).min(1)]).nullable(),
      /** Files left out with --skip (a config's own skip list is in the config). */
      skip: z.array(z.string()).optional(),
      /** The pack module given with --pack (a config's pack is in the config). */
      pack: z.string().optional(),
      /**
       * The folder the file was saved in (absolute): a path above that is not found (the project
       * moved, or checked out elsewhere) is looked for where it lies relative to this folder.
       */
      savedIn: z.string().optional(),
    })
    .optional(),
  foundAt: z.string(),
});

export type FailureRecord = z.infer<typeof FailureRecordSchema>;

/** The data-layer case of a record, validated. */
export function dataCaseOf(record: FailureRecord): DataCase {
  return DataCaseSchema.parse(record.case) as DataCase;
}
