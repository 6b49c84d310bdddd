import { Hono } from "hono";
import { z } from "zod";
import { idParamSchema, messageResponseSchema } from "../../schema/api/common";
import {
  changeRoleBodySchema,
  inviteBodySchema,
  inviteCreatedSchema,
  inviteSchema,
  memberSchema,
  permissionsBodySchema,
} from "../../schema/api/members";
import { type AppEnv, userContext } from "../hono-env";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import {
  changeMemberPermissions,
  changeMemberRole,
  inviteMember,
  listInvites,
  listMembers,
  removeMember,
  revokeInvite,
} from "../services/members";

/** What `/api/users` and `/api/members` share: the member list, inviting and removing. */
const memberListRoutes = new Hono<AppEnv>()
  .get("/", responds("Members", z.array(memberSchema)), async (c) =>
    c.json(await listMembers(userContext(c))),
  )
  .post(
    "/invite",
    responds("InviteCreated", inviteCreatedSchema, { status: 201 }),
    validate("json", inviteBodySchema),
    async (c) => c.json(await inviteMember(userContext(c), c.req.valid("json")), 201),
  )
  .delete("/:id", responds("Message", messageResponseSchema), validate("param", idParamSchema), async (c) =>
    c.json(await removeMember(userContext(c), c.req.valid("param").id)),
  );

/** `/api/users`: the client's user-management calls (list, invite, change role, remove). */
export const usersRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .route("/", memberListRoutes)
  .patch(
    "/:id/role",
    responds("Member", memberSchema),
    validate("param", idParamSchema),
    validate("json", changeRoleBodySchema),
    async (c) =>
      c.json(await changeMemberRole(userContext(c), c.req.valid("param").id, c.req.valid("json").role)),
  );

/** `/api/members`: the member/permission variants of the same operations. */
export const membersRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .route("/", memberListRoutes)
  .put(
    "/:id/permissions",
    responds("Member", memberSchema),
    validate("param", idParamSchema),
    validate("json", permissionsBodySchema),
    async (c) =>
      c.json(
        await changeMemberPermissions(
          userContext(c),
          c.req.valid("param").id,
          c.req.valid("json").permissions,
        ),
      ),
  );

export const invitesRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", responds("Invites", z.array(inviteSchema)), async (c) =>
    c.json(await listInvites(userContext(c))),
  )
  .delete("/:id", responds("Message", messageResponseSchema), validate("param", idParamSchema), async (c) =>
    c.json(await revokeInvite(userContext(c), c.req.valid("param").id)),
  );
