-- mutant: R13-vs-set-public-no-category-check
-- rules: R13
-- bug: vs_set_public does not check the category, so staff can publish a ticket of a confidential or unknown category.
-- in 0200_vs.sql replace:
    if not private.vs_category_public(t.category) then
      raise exception 'publish: the category is not public' using errcode = 'P0001';
    end if;
-- with:
-- end
