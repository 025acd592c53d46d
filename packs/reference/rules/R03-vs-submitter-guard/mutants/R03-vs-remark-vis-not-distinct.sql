-- mutant: R03-vs-remark-vis-not-distinct
-- rules: R03
-- bug: the remark visibility is compared with <> instead of IS DISTINCT FROM: an appended remark with no "vis" key passes the guard.
-- in 0200_vs.sql replace:
      if jsonb_typeof(e) <> 'object' or (e -> 'vis') is distinct from '"ticket"'::jsonb
-- with:
      if jsonb_typeof(e) <> 'object' or (e -> 'vis') <> '"ticket"'::jsonb
-- end
