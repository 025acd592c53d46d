/**
 * Every choice policyfuzz makes where the spec leaves a value open, in one place. The reference
 * migrations in db/ agree with these defaults; a project with its own schema overrides them in
 * its config (policyfuzz.config.json → "model").
 */
import { z } from 'zod';

const roleList = z.array(z.string().min(1));

export const ModelSettingsSchema = z
  .object({
    /** Application roles held in users.role (spec §1 lists them; "admin" is our name for the admin role). */
    roles: roleList.default(['user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin']),
    /** Roles that count as staff (handlers): exempt from owner guards, may soft-delete. */
    staffRoles: roleList.default(['dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'admin']),
    /** Roles that count as admins: may update any user row, read identity conflicts, the leaderboard. */
    adminRoles: roleList.default(['admin', 'dev']),
    /** Permission vocabulary held in permissions / managed_permissions. */
    permissions: roleList.default(['vs', 'pr', 'house', 'master']),
    /** Departments (users.department, vs_tickets.target_dept). */
    departments: roleList.default(['ENG', 'SCI', 'ART', 'LAW', 'SE']),
    users: z
      .object({
        /** Rule 1: columns an owner may change on their own users row; every other column is guarded. */
        ownerEditableColumns: roleList.default(['display_name', 'avatar_url', 'phone']),
        /** Rule 1: never compared by the guard (generated columns and updated_at). */
        guardExcludedColumns: roleList.default(['updated_at']),
      })
      .default({ ownerEditableColumns: ['display_name', 'avatar_url', 'phone'], guardExcludedColumns: ['updated_at'] }),
  })
  .strict();

export type ModelSettings = z.infer<typeof ModelSettingsSchema>;

export const defaultSettings: ModelSettings = ModelSettingsSchema.parse({});
