-- mutant: R03-vs-submitter-remark-any-author
-- rules: R03
-- bug: a submitter's appended remark is checked for vis only: it may claim to be by staff, or be internal.
-- in 0200_vs.sql replace:
      if jsonb_typeof(e) <> 'object' or (e -> 'vis') is distinct from '"ticket"'::jsonb
         or (e -> 'by') is distinct from to_jsonb(old.submitter_label)
         or (e ? 'internal' and (e -> 'internal') is distinct from 'false'::jsonb) then
-- with:
      if jsonb_typeof(e) <> 'object' or (e -> 'vis') is distinct from '"ticket"'::jsonb then
-- end
