CREATE INDEX press_requests_requested_by ON public.press_requests (requested_by) WHERE archived_at IS NULL;
CREATE INDEX orders_customer ON public.orders (customer_id);
