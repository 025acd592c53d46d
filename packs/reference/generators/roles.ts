/**
 * Roles by what the settings say they mean, never by the reference's words ('user', 'staff',
 * 'uni_staff', …): a project whose roles have other names sets its vocabularies and the
 * generators draw its own words, with no mapping of role values.
 */
import type { ModelSettings } from '../model/settings.ts';

export interface RolesByMeaning {
  /** Roles with no meaning in the settings (no staff, admin, handler, on-behalf or project role). */
  plain: string[];
  /** Staff who are not admins. */
  staff: string[];
  admin: string[];
  /** VS handlers whose scope is every department, who are not admins. */
  vsUnrestricted: string[];
  professor: string[];
  onBehalf: string[];
}

export function rolesByMeaning(settings: ModelSettings): RolesByMeaning {
  const special = new Set([
    ...settings.staffRoles,
    ...settings.adminRoles,
    ...settings.vs.handlerRoles,
    ...settings.vs.deptScopedRoles,
    ...settings.pr.handlerRoles,
    ...settings.pr.onBehalfRoles,
    ...settings.shop.handlerRoles,
    ...settings.projects.actorRoles,
    ...settings.projects.professorRoles,
  ]);
  const notAdmin = (r: string) => !settings.adminRoles.includes(r);
  return {
    plain: settings.roles.filter((r) => !special.has(r)),
    staff: settings.staffRoles.filter(notAdmin),
    admin: settings.adminRoles,
    vsUnrestricted: settings.vs.handlerRoles.filter((r) => notAdmin(r) && !settings.vs.deptScopedRoles.includes(r)),
    professor: settings.projects.professorRoles,
    onBehalf: settings.pr.onBehalfRoles,
  };
}

/** The first role of each list named (none for an empty list): one role per meaning, for weighted draws. */
export function firstOf(...lists: string[][]): string[] {
  return lists.flatMap((l) => l.slice(0, 1));
}
