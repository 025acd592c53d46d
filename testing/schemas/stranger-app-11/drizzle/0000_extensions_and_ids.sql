-- Custom migration (drizzle-kit generate --custom): extensions and the id generator the
-- generated tables use as their default. Ported from the legacy app, which drew 21-char
-- nanoids in Node; drawing them in the database keeps PostgREST inserts working.
CREATE SCHEMA IF NOT EXISTS "extensions";
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS "pgcrypto" WITH SCHEMA "extensions";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "public"."nanoid"(
  "size" integer DEFAULT 21,
  "alphabet" text DEFAULT '_-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
) RETURNS text
LANGUAGE plpgsql
VOLATILE
SET search_path = ''
AS $$
DECLARE
  id text := '';
  i integer := 0;
  bytes bytea;
  alphabet_len integer := length(alphabet);
  mask integer;
  step integer;
BEGIN
  IF size < 1 THEN
    RAISE EXCEPTION 'nanoid size must be positive' USING errcode = '22023';
  END IF;
  mask := (2 << cast(floor(ln(alphabet_len - 1) / ln(2)) AS integer)) - 1;
  step := cast(ceil(1.6 * mask * size / alphabet_len) AS integer);
  LOOP
    bytes := extensions.gen_random_bytes(step);
    i := 0;
    WHILE i < step LOOP
      IF (get_byte(bytes, i) & mask) < alphabet_len THEN
        id := id || substr(alphabet, (get_byte(bytes, i) & mask) + 1, 1);
        IF length(id) = size THEN
          RETURN id;
        END IF;
      END IF;
      i := i + 1;
    END LOOP;
  END LOOP;
END
$$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION "public"."nanoid"(integer, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION "public"."nanoid"(integer, text) TO anon, authenticated, service_role;
