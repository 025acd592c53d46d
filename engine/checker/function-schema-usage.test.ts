/**
 * A function's EXECUTE reaches an API role only with USAGE on its schema (headless-vector-search:
 * `docs.get_page_parents` keeps PUBLIC's default EXECUTE while only service_role may use schema
 * `docs`). GRANT01 said anon and authenticated "may execute it" and PUBLIC held it, where every
 * such call is refused 42501 (permission denied for schema docs).
 */
import { expect, it } from 'vitest';
import { schemaInTransaction } from '../../testing/schema-in-transaction.ts';
import { compareFunctions, readCatalogFunctions } from './catalog.ts';
import { executeAsWeighed } from '../runner/model-grants-property.ts';

const SCHEMA = `
do $$ begin create role anon nologin; exception when duplicate_object then null; end $$;
do $$ begin create role authenticated nologin; exception when duplicate_object then null; end $$;
do $$ begin create role service_role nologin; exception when duplicate_object then null; end $$;
create schema server_docs;
grant usage on schema server_docs to service_role;
create function server_docs.page_parents(page_id bigint) returns bigint language sql as $$ select page_id $$;
create schema open_docs;
grant usage on schema open_docs to anon, authenticated, service_role;
create function open_docs.page_parents(page_id bigint) returns bigint language sql as $$ select page_id $$;
`;

const client = schemaInTransaction(SCHEMA);

it('EXECUTE held in a schema the API roles may not use reaches no API caller: no finding for a function the model keeps to the server', async () => {
  const found = await readCatalogFunctions(client(), ['server_docs', 'open_docs'], { throughSchemaUsage: true });
  const byName = Object.fromEntries(found.map((f) => [f.name, f.executable]));
  expect(byName['server_docs.page_parents']).toEqual({ anon: false, authenticated: false, service_role: true, public: false });
  // The same function where anon and authenticated use the schema: PUBLIC's EXECUTE reaches them.
  expect(byName['open_docs.page_parents']).toEqual({ anon: true, authenticated: true, service_role: true, public: true });
  const serverOnly = new Map([
    ['server_docs.page_parents', ['service_role'] as const],
    ['open_docs.page_parents', ['service_role'] as const],
  ]);
  expect(compareFunctions(found, serverOnly).findings).toEqual([
    'open_docs.page_parents(page_id bigint): EXECUTE granted to PUBLIC (a revoke must name public, anon and authenticated)',
    'open_docs.page_parents(page_id bigint): anon may execute it, the model says it may not',
    'open_docs.page_parents(page_id bigint): authenticated may execute it, the model says it may not',
  ]);
  // Rule 15 reads the grant itself, USAGE or not.
  const bare = await readCatalogFunctions(client(), ['server_docs']);
  expect(bare[0]!.executable).toEqual({ anon: true, authenticated: true, service_role: true, public: true });
});

it("GRANT01 weighs a grant the model withholds through USAGE, and one it gives as the grant itself", async () => {
  const [bare, usable] = [await readCatalogFunctions(client(), ['server_docs']), await readCatalogFunctions(client(), ['server_docs'], { throughSchemaUsage: true })];
  const serverOnly = new Map([['server_docs.page_parents', ['service_role'] as const]]);
  expect(compareFunctions(executeAsWeighed(bare, usable, serverOnly), serverOnly).findings).toEqual([]);
  // The model giving it to every API role: the grants are there (PUBLIC's), whatever USAGE says; no finding either.
  const everyone = new Map([['server_docs.page_parents', ['anon', 'authenticated', 'service_role'] as const]]);
  expect(compareFunctions(executeAsWeighed(bare, usable, everyone), everyone).findings).toEqual([]);
  // Read bare (rule 15's reading), the server-only model meets PUBLIC's grant: the false alarm this fixes.
  expect(compareFunctions(bare, serverOnly).findings).toHaveLength(3);
});
