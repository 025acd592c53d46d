-- What a real app of the spec's domain adds to the reference schema (issue 23), none of which
-- changes any rule's answer: NOT NULL profile fields, a case-insensitive unique e-mail, and
-- foreign keys from the person columns to public.users (not only auth.users).
alter table public.users alter column role set not null;
alter table public.users alter column display_name set not null;
create unique index users_email_lower_key on public.users (lower(email));
alter table public.vs_tickets add constraint vs_tickets_submitter_users_fkey foreign key (submitter_id) references public.users (id);
alter table public.pr_tickets add constraint pr_tickets_submitter_users_fkey foreign key (submitter_id) references public.users (id);
alter table public.shop_orders add constraint shop_orders_buyer_users_fkey foreign key (buyer_id) references public.users (id);
alter table public.team_members add constraint team_members_user_users_fkey foreign key (user_id) references public.users (id);
