-- One row per signed-up person. Created by the signup trigger (next migration).
CREATE SEQUENCE public.member_no_seq;

CREATE TABLE public.members (
  id UUID PRIMARY KEY REFERENCES auth.users (id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  name TEXT,
  phone TEXT,
  role TEXT DEFAULT 'member' CHECK (role IN ('member', 'officer', 'president')),
  faculty TEXT,
  perms TEXT[] NOT NULL DEFAULT '{}',
  delegated_perms TEXT[] NOT NULL DEFAULT '{}',
  student_no TEXT NOT NULL UNIQUE DEFAULT ('S' || lpad(nextval('public.member_no_seq')::TEXT, 6, '0')),
  joined_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
