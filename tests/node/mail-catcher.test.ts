import { describe, expect, it } from "vitest";
import { createSandbox } from "../../sandbox/app";

describe("the sandbox's mail catcher page", () => {
  it("links each caught mail to a page that shows it, from /mail as npm start prints it", async () => {
    const sandbox = createSandbox();
    const sent = await sandbox.fetch(
      new Request("http://sandbox.test/mail/emails", {
        method: "POST",
        headers: { Authorization: "Bearer sandbox", "Content-Type": "application/json" },
        body: JSON.stringify({
          from: "Sunfleet <alerts@sunfleet.test>",
          to: ["olga@example.com"],
          subject: "Sunfleet: 2 new alerts",
          html: "<p>Inverter down at Munich Rooftop 2</p>",
        }),
      }),
    );
    expect(sent.status).toBe(200);
    const listing = "http://sandbox.test/mail";
    const page = await (await sandbox.fetch(new Request(listing))).text();
    const href = /<a href="([^"]+)">Sunfleet: 2 new alerts<\/a>/.exec(page)?.[1];
    expect(href, page).toBeDefined();
    const message = await sandbox.fetch(new Request(new URL(href ?? "", listing)));
    expect(message.status).toBe(200);
    expect(await message.text()).toContain("Inverter down at Munich Rooftop 2");
  });
});

describe("the sandbox's mail catcher delays", () => {
  it("answer the next send to one recipient late when asked, and later sends at once", async () => {
    const sandbox = createSandbox();
    const send = (to: string) =>
      sandbox.fetch(
        new Request("http://sandbox.test/mail/emails", {
          method: "POST",
          headers: { Authorization: "Bearer sandbox", "Content-Type": "application/json" },
          body: JSON.stringify({ from: "Sunfleet <a@sunfleet.test>", to: [to], subject: "Hi", text: "Hi" }),
        }),
      );
    const asked = await sandbox.fetch(
      new Request("http://sandbox.test/mail/delay-next?to=slow@example.com&ms=300", { method: "POST" }),
    );
    expect(asked.status).toBe(200);
    const timed = async (to: string) => {
      const startedAt = Date.now();
      expect((await send(to)).status).toBe(200);
      return Date.now() - startedAt;
    };
    expect(await timed("other@example.com")).toBeLessThan(250);
    expect(await timed("slow@example.com")).toBeGreaterThanOrEqual(290);
    expect(await timed("slow@example.com")).toBeLessThan(250);
  });
});
