-- mutant: R06-vs-scope-null-dept-everywhere
-- rules: R06, R09
-- bug: the scope helper compares the department with coalesce(current_user_dept(), p_dept), so a dept-scoped handler with no department is in scope everywhere and a filtered PATCH moves tickets between departments.
-- in 0200_vs.sql replace:
         or p_dept = public.current_user_dept()), false)
-- with:
         or p_dept = coalesce(public.current_user_dept(), p_dept)), false)
-- end
