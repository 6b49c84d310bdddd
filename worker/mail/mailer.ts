import type { Env } from "../env";

export const DEFAULT_EMAIL_API_URL = "https://api.resend.com";
export const DEFAULT_EMAIL_FROM = "Sunfleet <alerts@sunfleet.app>";

export interface MailAttachment {
  filename: string;
  /** Base64. */
  content: string;
}

export interface OutgoingMail {
  to: string[];
  subject: string;
  html: string;
  text: string;
  attachments?: MailAttachment[];
}

export type SendOutcome = { ok: true; id: string } | { ok: false; error: string; retryable: boolean };

/**
 * Sends one mail through Resend's HTTP API (`POST {EMAIL_API_URL}/emails`). The idempotency key
 * (the outbox row id) makes a retry after a lost answer deliver the mail once.
 */
export async function sendMail(
  env: Env,
  mail: OutgoingMail,
  idempotencyKey: string,
  fetcher: typeof fetch = fetch,
): Promise<SendOutcome> {
  if (!env.EMAIL_API_KEY) return { ok: false, error: "EMAIL_API_KEY is not set", retryable: true };
  const base = (env.EMAIL_API_URL || DEFAULT_EMAIL_API_URL).replace(/\/+$/, "");
  let response: Response;
  try {
    response = await fetcher(`${base}/emails`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${env.EMAIL_API_KEY}`,
        "Content-Type": "application/json",
        "Idempotency-Key": idempotencyKey,
      },
      body: JSON.stringify({
        from: env.EMAIL_FROM || DEFAULT_EMAIL_FROM,
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        ...(mail.attachments && mail.attachments.length > 0 ? { attachments: mail.attachments } : {}),
      }),
    });
  } catch (error) {
    return {
      ok: false,
      error: `network: ${error instanceof Error ? error.message : "failed"}`,
      retryable: true,
    };
  }
  const text = await response.text();
  if (response.ok) {
    const id = (JSON.parse(text || "{}") as { id?: string }).id ?? "";
    return { ok: true, id };
  }
  // 429 and 5xx pass; other 4xx mean the request itself is wrong, yet the mail is kept and retried
  // slowly, since a key or sender fixed by an operator makes it deliverable again.
  return { ok: false, error: `HTTP ${response.status}: ${text.slice(0, 200)}`, retryable: true };
}
