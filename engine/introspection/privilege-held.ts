/**
 * SQL true when `role` holds `privilege` (SELECT, INSERT, UPDATE or DELETE) on relation `rel`, on
 * the relation or on any of its columns (dbdev's `grant insert (organization_id, account_id, role)
 * on app.members`): a policy for that command then decides the role's requests. DELETE has no
 * column form. Each argument is an SQL expression (`'anon'`, `c.oid`, `p.priv`).
 */
export const privilegeHeld = (role: string, rel: string, privilege: string): string =>
  `case when ${privilege} = 'DELETE' then has_table_privilege(${role}, ${rel}, ${privilege}) else has_any_column_privilege(${role}, ${rel}, ${privilege}) end`;
