CREATE TABLE public.audit_log (
  id BIGSERIAL PRIMARY KEY,
  actor UUID,
  action TEXT NOT NULL,
  at TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- Nobody reads it over the API: row security on, no policy.
ALTER TABLE public.audit_log ENABLE ROW LEVEL SECURITY;
