-- Vocabularies. Enums where the set is closed; transitions are data, not code.

create type public.app_role as enum (
  'user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin'
);

create type public.app_permission as enum ('vs', 'pr', 'house', 'master');

create type public.vs_status as enum ('open', 'triaged', 'in_progress', 'resolved', 'closed');

create type public.order_status as enum (
  'pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'completed', 'cancelled'
);

create type public.team_node_kind as enum ('org', 'division', 'team', 'seat');

create type public.change_verdict as enum ('pending', 'approved', 'rejected');

create type public.sign_request_state as enum ('requested', 'signed', 'declined');

-- Which status may follow which. A trigger on vs_tickets reads it.
create table public.vs_status_transitions (
  from_status public.vs_status not null,
  to_status   public.vs_status not null,
  primary key (from_status, to_status),
  constraint vs_status_transitions_not_self check (from_status <> to_status)
);

insert into public.vs_status_transitions (from_status, to_status) values
  ('open', 'triaged'), ('open', 'closed'),
  ('triaged', 'in_progress'), ('triaged', 'closed'),
  ('in_progress', 'resolved'), ('in_progress', 'triaged'),
  ('resolved', 'closed'), ('resolved', 'in_progress'),
  ('closed', 'open');

alter table public.vs_status_transitions enable row level security;

create policy "transitions are readable by signed-in users"
  on public.vs_status_transitions for select to authenticated using (true);

-- Which order status a buyer may leave an order in.
create table public.order_status_transitions (
  from_status public.order_status not null,
  to_status   public.order_status not null,
  primary key (from_status, to_status)
);

insert into public.order_status_transitions (from_status, to_status) values
  ('pending', 'review'), ('review', 'slip_mismatch'), ('slip_mismatch', 'review'),
  ('review', 'paid'), ('paid', 'shipped'), ('shipped', 'completed'),
  ('pending', 'cancelled'), ('review', 'cancelled'), ('slip_mismatch', 'cancelled');

alter table public.order_status_transitions enable row level security;

create policy "order transitions are readable by signed-in users"
  on public.order_status_transitions for select to authenticated using (true);
