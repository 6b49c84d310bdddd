import { z } from "zod";

export const roles = ["user", "orgEngineer", "orgOwner", "superAdmin"] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

export const roleLabels: Record<Role, string> = {
  superAdmin: "Super Administrator",
  orgOwner: "Organization Owner",
  orgEngineer: "Organization Engineer",
  user: "User",
};

/**
 * Areas a member's `permissions` may narrow. A member may do an action only when their role
 * allows it and the action's area is among their permissions (null = every area).
 * An orgOwner is never narrowed, so an organisation can always be administered.
 */
export const memberPermissions = ["credentials", "sites", "portfolios", "users", "audit", "apiKeys"] as const;
export const memberPermissionSchema = z.enum(memberPermissions);
export type MemberPermission = z.infer<typeof memberPermissionSchema>;

/** Every action the server authorises, with the area a member permission can narrow. */
export const actions = {
  "org:read": null,
  "preferences:editOwn": null,
  "credentials:manage": "credentials",
  "sites:manage": "sites",
  "portfolios:manage": "portfolios",
  "alerts:manage": "sites",
  "settings:manage": "sites",
  "users:read": "users",
  "users:invite": "users",
  "users:changeRole": "users",
  "users:remove": "users",
  "users:editPermissions": "users",
  "invites:read": "users",
  "invites:revoke": "users",
  "audit:read": "audit",
  "audit:readAllOrgs": null,
  // The platform operator's view of every organisation's fleet store (its size against its bound).
  "platform:read": null,
  // Creating keys and revoking one's own: a key is bounded by its creator's areas, so no area is needed.
  "apiKeys:manageOwn": null,
  // Seeing and revoking every key of the organisation, whoever created it.
  "apiKeys:manage": "apiKeys",
} as const satisfies Record<string, MemberPermission | null>;
export type Action = keyof typeof actions;

const orgMemberActions: Action[] = ["org:read", "preferences:editOwn"];
const engineerActions: Action[] = [
  ...orgMemberActions,
  "credentials:manage",
  "sites:manage",
  "portfolios:manage",
  "alerts:manage",
  "settings:manage",
  "users:read",
  "users:invite",
  "users:changeRole",
  "users:remove",
  "users:editPermissions",
  "invites:read",
  "invites:revoke",
  "audit:read",
  "apiKeys:manageOwn",
  "apiKeys:manage",
];

/** The one table of role -> allowed actions. Target-role rules live in `canManageRole`. */
export const roleActions: Record<Role, ReadonlySet<Action>> = {
  user: new Set(orgMemberActions),
  orgEngineer: new Set(engineerActions),
  orgOwner: new Set(engineerActions),
  superAdmin: new Set<Action>(["preferences:editOwn", "audit:read", "audit:readAllOrgs", "platform:read"]),
};

export interface Actor {
  role: Role;
  permissions: readonly MemberPermission[] | null;
}

export function can(actor: Actor, action: Action): boolean {
  if (!roleActions[actor.role].has(action)) return false;
  const area = actions[action];
  if (area === null || actor.role === "orgOwner" || actor.permissions === null) return true;
  return actor.permissions.includes(area);
}

/**
 * Whether an actor may hand `permissions` to a member (by invite, permission change or promotion):
 * a narrowed actor never grants an area they do not hold, so narrowing cannot be undone by proxy.
 */
export function canGrantPermissions(actor: Actor, permissions: readonly MemberPermission[] | null): boolean {
  if (actor.role === "orgOwner" || actor.permissions === null) return true;
  if (permissions === null) return false;
  const held = actor.permissions;
  return permissions.every((area) => held.includes(area));
}

/** Roles an actor may hand out when inviting or changing a role: an owner any, an engineer engineers and users, a user none. */
export function assignableRoles(actorRole: Role): Role[] {
  if (actorRole === "orgOwner") return ["user", "orgEngineer", "orgOwner"];
  if (actorRole === "orgEngineer") return ["user", "orgEngineer"];
  return [];
}

/** Whether an actor may act on (change, remove) a member who currently holds `targetRole`. */
export function canManageRole(actorRole: Role, targetRole: Role): boolean {
  if (actorRole === "orgOwner") return targetRole !== "superAdmin";
  if (actorRole === "orgEngineer") return targetRole === "user" || targetRole === "orgEngineer";
  return false;
}

/** Who sees the Administration sidebar section and the Manage Users settings tab. */
export const administrationRoles: readonly Role[] = ["superAdmin", "orgOwner", "orgEngineer"];
