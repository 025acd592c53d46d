ALTER TABLE public.members RENAME COLUMN phone TO mobile;
