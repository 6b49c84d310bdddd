import { defaultPreferences } from "../../schema/api/preferences";
import type { Language } from "../../schema/domain";
import type { InviteRow } from "../../schema/tables";
import { findPreferences } from "../data/preferences";
import { renderMail } from "../mail/layout";
import { mailMessages } from "../mail/messages";
import type { OrgContext } from "./context";
import { queueMail } from "./email";

export const INVITE_MAIL_KIND = "invite";

/**
 * The invite's link mailed to its address, in the inviter's language (the invitee has none yet):
 * accepting it proves the address. Batch `insert` with the invite, then deliver `id`.
 */
export async function inviteMail(ctx: OrgContext, invite: InviteRow, link: string) {
  const language: Language =
    ((await findPreferences(ctx.db, ctx.user.id))?.language as Language | undefined) ??
    defaultPreferences.language;
  const words = mailMessages[language];
  const orgName = ctx.user.orgName ?? "";
  const subject = words.inviteSubject(orgName);
  const content = renderMail(language, subject, {
    paragraphs: [words.inviteIntro(ctx.user.fullName, orgName), words.inviteExpiry],
    action: { label: words.inviteAction, url: link },
  });
  return queueMail(
    ctx.db,
    { kind: INVITE_MAIL_KIND, orgId: invite.orgId, userId: null, to: [invite.email], subject, ...content },
    ctx.now,
  );
}
