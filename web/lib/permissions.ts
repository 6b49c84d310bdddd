import type { Profile } from "../../schema/api/auth";
import {
  type Actor,
  administrationRoles,
  type MemberPermission,
  memberPermissionSchema,
} from "../../schema/roles";

/** The profile as the shared permission rules in schema/roles.ts expect it. */
export function actorFromProfile(profile: Pick<Profile, "role" | "permissions">): Actor {
  if (profile.permissions === null) return { role: profile.role, permissions: null };
  const permissions = profile.permissions.flatMap((permission): MemberPermission[] => {
    const parsed = memberPermissionSchema.safeParse(permission);
    return parsed.success ? [parsed.data] : [];
  });
  return { role: profile.role, permissions };
}

export function seesAdministration(profile: Pick<Profile, "role">): boolean {
  return administrationRoles.includes(profile.role);
}
