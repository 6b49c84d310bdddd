import { type Action, can } from "../../schema/roles";
import { ApiError, forbidden } from "../lib/errors";
import type { OrgContext, UserContext } from "./context";

/** Throws 403 unless the caller's role (and member permissions) allow the action. */
/**
 * What an organisation API key may do: read, or read and change the organisation's data; never
 * manage members, invites, keys, settings or the audit log.
 */
const apiKeyActions: Record<"read" | "write", ReadonlySet<Action>> = {
  read: new Set<Action>(["org:read"]),
  write: new Set<Action>([
    "org:read",
    "credentials:manage",
    "sites:manage",
    "portfolios:manage",
    "alerts:manage",
  ]),
};

export function requireAction(ctx: UserContext, action: Action): void {
  const { apiKey } = ctx.user;
  if (apiKey && !apiKeyActions[apiKey.scope].has(action)) throw forbidden("api_key_scope");
  if (!can(ctx.user, action)) throw forbidden();
}

/** Narrows to a caller inside an organisation: org-scoped routes need one. */
export function requireOrg(ctx: UserContext): OrgContext {
  if (ctx.user.orgId === null) {
    throw new ApiError({ code: "onboarding_required", message: "Complete your organisation setup first" });
  }
  return ctx as OrgContext;
}

/** Both checks, in the order every org-scoped service needs them. */
export function authorizeOrgAction(ctx: UserContext, action: Action): OrgContext {
  requireAction(ctx, action);
  return requireOrg(ctx);
}
