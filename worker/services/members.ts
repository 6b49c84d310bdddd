import {
  INVITE_TTL_DAYS,
  type Invite,
  type InviteBody,
  type InviteCreated,
  type Member,
} from "../../schema/api/members";
import {
  assignableRoles,
  canGrantPermissions,
  canManageRole,
  type MemberPermission,
  type Role,
} from "../../schema/roles";
import type { InviteRow, UserRow } from "../../schema/tables";
import {
  deletePendingInvitesSentBy,
  deletePendingOrgInvite,
  findOrgInvite,
  findPendingInviteForEmail,
  insertInvite,
  inviteGone,
  listPendingInvites,
} from "../data/invites";
import { deleteUserSessions } from "../data/sessions";
import {
  countOrgOwners,
  detachMember,
  findOrgMember,
  findUserByEmail,
  listOrgMembers,
  memberHoldsRole,
  updateMemberPermissions,
  updateMemberRole,
  userOutsideOrg,
} from "../data/users";
import { conflict, forbidden, invalidRequest, notFound } from "../lib/errors";
import { fleetStoreOf } from "../lib/fleet-store";
import { newId, randomToken, sha256Hex } from "../lib/ids";
import { inviteMail } from "../mail/invite";
import { deliverMail } from "../mail/outbox";
import { auditKeysRevokedWith, revokeKeysBeyond } from "./api-keys";
import { auditEntry, auditEntryIf } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { OrgContext, UserContext } from "./context";
import { requireVerifiedEmail } from "./email-verification";

const DAY_MS = 24 * 60 * 60 * 1000;

const toMember = (row: UserRow): Member => ({
  id: row.id,
  email: row.email,
  fullName: row.fullName,
  role: row.role,
  permissions: row.permissions,
  createdAt: new Date(row.createdAt).toISOString(),
});

const toInvite = (row: InviteRow): Invite => ({
  id: row.id,
  email: row.email,
  role: row.role,
  permissions: row.permissions,
  expiresAt: new Date(row.expiresAt).toISOString(),
  createdAt: new Date(row.createdAt).toISOString(),
  invitedBy: row.invitedBy,
});

const actorOf = (ctx: OrgContext) => ({
  orgId: ctx.user.orgId,
  actorId: ctx.user.id,
  actorEmail: ctx.user.email,
});

function requireAssignable(actorRole: Role, role: Role): void {
  if (!assignableRoles(actorRole).includes(role)) {
    throw forbidden("assign_role", `You cannot assign the role ${role}`);
  }
}

/** The member another member acts on: never themselves, never a role above what they manage. */
async function manageableMember(ctx: OrgContext, memberId: string, verb: string): Promise<UserRow> {
  const member = await findOrgMember(ctx.db, ctx.user.orgId, memberId);
  if (!member) throw notFound("user", "User");
  if (member.id === ctx.user.id) throw forbidden("act_on_self", `You cannot ${verb} yourself`);
  if (!canManageRole(ctx.user.role, member.role))
    throw forbidden("manage_user", `You cannot ${verb} this user`);
  return member;
}

function requireGrantable(ctx: OrgContext, permissions: MemberPermission[] | null): void {
  if (!canGrantPermissions(ctx.user, permissions)) {
    throw forbidden("grant_permissions", "You cannot grant permissions you do not hold yourself");
  }
}

const lastOwnerConflict = () => conflict("last_owner", "An organisation must keep at least one owner");

async function requireAnotherOwner(ctx: OrgContext, member: UserRow): Promise<void> {
  if (member.role === "orgOwner" && (await countOrgOwners(ctx.db, ctx.user.orgId)) <= 1) {
    throw lastOwnerConflict();
  }
}

export async function listMembers(ctx: UserContext): Promise<Member[]> {
  const org = authorizeOrgAction(ctx, "users:read");
  return (await listOrgMembers(org.db, org.user.orgId)).map(toMember);
}

export async function inviteMember(ctx: UserContext, body: InviteBody): Promise<InviteCreated> {
  const org = authorizeOrgAction(ctx, "users:invite");
  requireAssignable(org.user.role, body.role);
  await requireVerifiedEmail(org);
  const existing = await findUserByEmail(org.db, body.email);
  // An address of another organisation is invited like any other (the answer names no one's
  // organisation); its holder cannot join while they belong to one.
  if (existing?.orgId === org.user.orgId)
    throw conflict("already_member", "This person is already a member of your organisation");
  if (await findPendingInviteForEmail(org.db, org.user.orgId, body.email, org.now)) {
    throw conflict("invite_pending", "An invite for this email is already pending");
  }
  // Without explicit permissions an invite carries the inviter's own: never more than they hold.
  const inherited = org.user.role === "orgOwner" ? null : org.user.permissions;
  const requested = body.permissions === undefined ? inherited : body.permissions;
  const permissions = body.role === "orgOwner" ? null : requested;
  if (body.role !== "orgOwner") requireGrantable(org, permissions);
  const token = randomToken();
  const row: InviteRow = {
    id: newId(),
    orgId: org.user.orgId,
    email: body.email,
    role: body.role,
    permissions,
    tokenHash: await sha256Hex(token),
    invitedBy: org.user.id,
    expiresAt: org.now + INVITE_TTL_DAYS * DAY_MS,
    acceptedAt: null,
    createdAt: org.now,
  };
  const inviteLink = `${org.origin}/login?invite=${encodeURIComponent(token)}`;
  const mail = await inviteMail(org, row, inviteLink);
  await org.db.batch([
    insertInvite(org.db, row),
    mail.insert,
    auditEntry(org, {
      ...actorOf(org),
      action: "invite.create",
      targetType: "invite",
      targetId: row.id,
      details: { email: row.email, role: row.role },
    }),
  ]);
  await deliverMail(org.env, org.db, [mail.id], org.now);
  return {
    invite: toInvite(row),
    inviteLink,
    message: `Invitation created for ${row.email}. Share the link: it expires in ${INVITE_TTL_DAYS} days.`,
  };
}

export async function changeMemberRole(ctx: UserContext, memberId: string, role: Role): Promise<Member> {
  const org = authorizeOrgAction(ctx, "users:changeRole");
  const member = await manageableMember(org, memberId, "change the role of");
  requireAssignable(org.user.role, role);
  if (member.role === role) return toMember(member);
  // A promotion to engineer hands out the member's permissions as they stand.
  if (role === "orgEngineer") requireGrantable(org, member.permissions);
  if (role !== "orgOwner") await requireAnotherOwner(org, member);
  const standing = { role, permissions: role === "orgOwner" ? null : member.permissions };
  const [updated, , revokedKeys] = await org.db.batch([
    updateMemberRole(org.db, org.user.orgId, member.id, role),
    // Invites for roles the new role cannot assign end with the old role (all of them for a
    // role that assigns none); nothing ends if the change itself was refused.
    deletePendingInvitesSentBy(org.db, org.user.orgId, member.id, assignableRoles(role), {
      onlyIf: memberHoldsRole(org.user.orgId, member.id, role),
    }),
    // Keys granting more than the new role holds end with the old role (every key for a user).
    revokeKeysBeyond(org, member.id, standing, memberHoldsRole(org.user.orgId, member.id, role)),
    auditEntryIf(
      org,
      {
        ...actorOf(org),
        action: "member.role_change",
        targetType: "user",
        targetId: member.id,
        details: { email: member.email, from: member.role, to: role },
      },
      memberHoldsRole(org.user.orgId, member.id, role),
    ),
  ]);
  // The update's own guard refused: another request took the organisation's other owner meanwhile.
  if (updated.meta.changes === 0) throw lastOwnerConflict();
  await auditKeysRevokedWith(org, revokedKeys, "member.role_change");
  return toMember({ ...member, ...standing });
}

export async function changeMemberPermissions(
  ctx: UserContext,
  memberId: string,
  permissions: MemberPermission[] | null,
): Promise<Member> {
  const org = authorizeOrgAction(ctx, "users:editPermissions");
  const member = await manageableMember(org, memberId, "change the permissions of");
  if (member.role === "orgOwner")
    throw invalidRequest("owner_has_every_permission", "An organisation owner always has every permission");
  requireGrantable(org, permissions);
  const unique = permissions === null ? null : [...new Set(permissions)];
  const [, revokedKeys] = await org.db.batch([
    updateMemberPermissions(org.db, org.user.orgId, member.id, unique),
    // Keys granting an area the member no longer holds end with it.
    revokeKeysBeyond(org, member.id, { role: member.role, permissions: unique }),
    auditEntry(org, {
      ...actorOf(org),
      action: "member.permissions_change",
      targetType: "user",
      targetId: member.id,
      details: { email: member.email, from: member.permissions, to: unique },
    }),
  ]);
  await auditKeysRevokedWith(org, revokedKeys, "member.permissions_change");
  return toMember({ ...member, permissions: unique });
}

/**
 * Removes a member from the organisation; their account stays, but every session they held ends,
 * their live sockets close, and the invites they sent that are still pending and the API keys
 * they created end.
 */
export async function removeMember(ctx: UserContext, memberId: string): Promise<{ message: string }> {
  const org = authorizeOrgAction(ctx, "users:remove");
  const member = await manageableMember(org, memberId, "remove");
  await requireAnotherOwner(org, member);
  const [detached, , , revokedKeys] = await org.db.batch([
    detachMember(org.db, org.user.orgId, member.id),
    deletePendingInvitesSentBy(org.db, org.user.orgId, member.id, [], {
      onlyIf: userOutsideOrg(org.user.orgId, member.id),
    }),
    deleteUserSessions(org.db, member.id, null, { onlyIf: userOutsideOrg(org.user.orgId, member.id) }),
    revokeKeysBeyond(org, member.id, null, userOutsideOrg(org.user.orgId, member.id)),
    auditEntryIf(
      org,
      {
        ...actorOf(org),
        action: "member.remove",
        targetType: "user",
        targetId: member.id,
        details: { email: member.email, role: member.role },
      },
      userOutsideOrg(org.user.orgId, member.id),
    ),
  ]);
  if (detached.meta.changes === 0) throw lastOwnerConflict();
  await auditKeysRevokedWith(org, revokedKeys, "member.remove");
  await disconnectUserSockets(org, member.id);
  return { message: `${member.email} was removed from the organisation` };
}

async function disconnectUserSockets(ctx: OrgContext, userId: string): Promise<void> {
  await fleetStoreOf(ctx).disconnectUser(ctx.user.orgId, userId);
}

export async function listInvites(ctx: UserContext): Promise<Invite[]> {
  const org = authorizeOrgAction(ctx, "invites:read");
  return (await listPendingInvites(org.db, org.user.orgId, org.now)).map(toInvite);
}

export async function revokeInvite(ctx: UserContext, inviteId: string): Promise<{ message: string }> {
  const org = authorizeOrgAction(ctx, "invites:revoke");
  const invite = await findOrgInvite(org.db, org.user.orgId, inviteId);
  if (!invite) throw notFound("invite", "Invite");
  if (!canManageRole(org.user.role, invite.role))
    throw forbidden("revoke_invite", "You cannot revoke this invite");
  const [revoked] = await org.db.batch([
    deletePendingOrgInvite(org.db, org.user.orgId, invite.id),
    auditEntryIf(
      org,
      {
        ...actorOf(org),
        action: "invite.revoke",
        targetType: "invite",
        targetId: invite.id,
        details: { email: invite.email, role: invite.role },
      },
      inviteGone(invite.id),
    ),
  ]);
  // Accepted between the read and the delete: the acceptance stands.
  if (revoked.meta.changes === 0) throw conflict("invite_accepted", "This invite has already been accepted");
  return { message: `The invite for ${invite.email} was revoked` };
}
