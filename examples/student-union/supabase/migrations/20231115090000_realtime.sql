-- Live updates for the notification bell.
ALTER PUBLICATION supabase_realtime ADD TABLE public.notifications;
