-- Requests to the press office (posters, articles). Refs are human-readable: PR-2023-0001.
CREATE TABLE public.press_requests (
  ref TEXT PRIMARY KEY,
  requested_by UUID NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  requester_name TEXT NOT NULL,
  body TEXT NOT NULL,
  attachment TEXT,
  state TEXT NOT NULL DEFAULT 'new' CHECK (state IN ('new', 'working', 'published', 'declined')),
  staff_note TEXT,
  archived_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TRIGGER touch_press_requests BEFORE UPDATE ON public.press_requests FOR EACH ROW EXECUTE FUNCTION app.touch();
