import { defaultPreferences } from "../../schema/api/preferences";
import type { Language } from "../../schema/domain";
import type { InviteRow } from "../../schema/tables";
import { findPreferences } from "../data/preferences";
import type { Db } from "../lib/db";
import { renderMail } from "./layout";
import { mailMessages } from "./messages";
import { queueMail } from "./outbox";

export const INVITE_MAIL_KIND = "invite";

/**
 * The invite's link mailed to its address, in the inviter's language (the invitee has none yet):
 * accepting it proves the address. Batch `insert` with the invite, then deliver `id`.
 */
/** The inviter, as the use case that creates the invite knows them. */
interface Inviter {
  db: Db;
  now: number;
  user: { id: string; fullName: string; orgName: string | null };
}

export async function inviteMail(ctx: Inviter, invite: InviteRow, link: string) {
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
