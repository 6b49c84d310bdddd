import { Hono } from "hono";
import { html, raw } from "hono/html";

/** One e-mail as Resend's `POST /emails` receives it. */
export interface CaughtMail {
  id: string;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
  attachments: { filename: string; content: string }[];
  idempotencyKey: string | null;
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string" && v.includes("@"));

/**
 * A mail catcher speaking Resend's HTTP API: `POST /emails` with a Bearer key stores the mail
 * and answers `{id}` as Resend does; `GET /` lists caught mail as a page, `GET /messages` as JSON
 * (`?to=` filters by recipient). `POST /fail-next?to=ADDRESS&count=N` makes the next N sends to
 * that recipient answer 500, so retries can be shown (per recipient: test files share one catcher);
 * `POST /delay-next?to=ADDRESS&ms=N` makes the next send to that recipient answer N ms late, as a
 * slow mail service does.
 */
export function mailSandbox({ now }: { now: () => number }) {
  const caught: CaughtMail[] = [];
  const seenKeys = new Map<string, string>();
  const failNext = new Map<string, number>();
  const delayNext = new Map<string, number>();
  const app = new Hono();

  app.post("/emails", async (c) => {
    if (!/^Bearer \S+/.test(c.req.header("Authorization") ?? "")) {
      return c.json(
        { statusCode: 401, name: "missing_api_key", message: "Missing API key in the authorization header." },
        401,
      );
    }
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    const to = typeof body?.to === "string" ? [body.to] : body?.to;
    if (!body || typeof body.from !== "string" || !isStringList(to) || typeof body.subject !== "string") {
      return c.json(
        { statusCode: 422, name: "validation_error", message: "from, to and subject are required" },
        422,
      );
    }
    const slow = to.find((address) => delayNext.has(address));
    if (slow) {
      const delayMs = delayNext.get(slow) ?? 0;
      delayNext.delete(slow);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    const failing = to.find((address) => (failNext.get(address) ?? 0) > 0);
    if (failing) {
      failNext.set(failing, (failNext.get(failing) ?? 1) - 1);
      return c.json(
        { statusCode: 500, name: "application_error", message: "An unexpected error occurred." },
        500,
      );
    }
    const key = c.req.header("Idempotency-Key") ?? null;
    const earlier = key ? seenKeys.get(key) : undefined;
    if (earlier) return c.json({ id: earlier });
    const attachments = Array.isArray(body.attachments)
      ? (body.attachments as { filename: string; content: string }[])
      : [];
    const mail: CaughtMail = {
      id: crypto.randomUUID(),
      receivedAt: new Date(now()).toISOString(),
      from: body.from,
      to,
      subject: body.subject,
      html: typeof body.html === "string" ? body.html : "",
      text: typeof body.text === "string" ? body.text : "",
      attachments,
      idempotencyKey: key,
    };
    caught.push(mail);
    if (key) seenKeys.set(key, mail.id);
    return c.json({ id: mail.id });
  });

  app.post("/fail-next", (c) => {
    const to = c.req.query("to");
    if (!to) return c.json({ statusCode: 422, name: "validation_error", message: "to is required" }, 422);
    const count = Number(c.req.query("count") ?? "1");
    failNext.set(to, count);
    return c.json({ to, failNext: count });
  });

  app.post("/delay-next", (c) => {
    const to = c.req.query("to");
    const delayMs = Number(c.req.query("ms") ?? "0");
    if (!to || !Number.isFinite(delayMs) || delayMs < 0)
      return c.json({ statusCode: 422, name: "validation_error", message: "to and ms are required" }, 422);
    delayNext.set(to, delayMs);
    return c.json({ to, delayMs });
  });

  app.get("/messages", (c) => {
    const to = c.req.query("to")?.toLowerCase();
    return c.json(to ? caught.filter((m) => m.to.some((r) => r.toLowerCase() === to)) : caught);
  });

  app.get("/messages/:id", (c) => {
    const mail = caught.find((m) => m.id === c.req.param("id"));
    if (!mail) return c.text("Not found", 404);
    // The caught HTML is the worker's own output, shown as the recipient would see it.
    return c.html(mail.html || html`<pre>${mail.text}</pre>`);
  });

  app.get("/", (c) => {
    // Links from where the catcher is mounted (`/mail`): a relative link would leave the mount.
    const base = c.req.path;
    const rows = [...caught]
      .reverse()
      .map(
        (m) =>
          html`<tr><td>${m.receivedAt}</td><td>${m.to.join(", ")}</td><td><a href="${base}/messages/${m.id}">${m.subject}</a></td><td>${m.attachments.map((a) => a.filename).join(", ")}</td></tr>`,
      );
    return c.html(
      html`<!doctype html><html><head><meta charset="utf-8"><title>Caught mail</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:.4rem .8rem;text-align:left}</style></head>
<body><h1>Caught mail (${caught.length})</h1><p>Mail the app sent while EMAIL_API_URL points here. Nothing leaves this machine.</p>
<table><thead><tr><th>Received</th><th>To</th><th>Subject</th><th>Attachments</th></tr></thead><tbody>${raw(rows.join(""))}</tbody></table></body></html>`,
    );
  });

  return app;
}
