import { Hono } from "hono";
import { html } from "hono/html";
import { unsubscribeTokenSchema } from "../../schema/api/unsubscribe";
import { type AppEnv, serviceContext } from "../hono-env";
import { validate } from "../lib/validate";
import { mailMessages } from "../mail/messages";
import { confirmUnsubscribe, describeUnsubscribe, type UnsubscribeOutcome } from "../services/unsubscribe";

/** The page a mail's unsubscribe link opens: it asks, and a POST (the form, or a one-click client) switches off. */
function page(outcome: UnsubscribeOutcome, token: string) {
  const words = mailMessages[outcome.language];
  const body =
    outcome.state === "invalid"
      ? html`<p role="alert">${words.unsubscribeInvalid}</p>`
      : outcome.state === "done"
        ? html`<p role="status">${words.unsubscribeDone(outcome.email, words.topics[outcome.topic])}</p>`
        : html`<p>${words.unsubscribeAsk(outcome.email, words.topics[outcome.topic])}</p>
<form method="post"><input type="hidden" name="token" value="${token}"><button type="submit">${words.unsubscribeButton}</button></form>`;
  return html`<!doctype html><html lang="${outcome.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Sunfleet · ${words.unsubscribeTitle}</title>
<style>body{font-family:system-ui,sans-serif;color:#111827;max-width:32rem;margin:4rem auto;padding:0 1rem}button{background:#2563eb;color:#fff;border:0;border-radius:6px;padding:.6rem 1.2rem;font-size:1rem;cursor:pointer}</style></head>
<body><h1>Sunfleet · ${words.unsubscribeTitle}</h1>${body}</body></html>`;
}

// A GET only asks: mail scanners that open links must not switch anyone's mail off.
export const unsubscribeRoutes = new Hono<AppEnv>()
  .get("/", validate("query", unsubscribeTokenSchema), async (c) => {
    const { token } = c.req.valid("query");
    const outcome = await describeUnsubscribe(serviceContext(c), token);
    return c.html(page(outcome, token), outcome.state === "invalid" ? 400 : 200);
  })
  .post("/", validate("form", unsubscribeTokenSchema), async (c) => {
    const { token } = c.req.valid("form");
    const outcome = await confirmUnsubscribe(serviceContext(c), token);
    return c.html(page(outcome, token), outcome.state === "invalid" ? 400 : 200);
  });
