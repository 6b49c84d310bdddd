import { describe, expect, it } from "vitest";
import { screenshot } from "./browser";
import { api, baseUrl, browserPages, mailedLink, PASSWORD, SOLIS_SANDBOX, uniqueEmail } from "./helpers";

const newPage = browserPages();

describe("address verification in the browser", () => {
  it("signs up, sees the banner, follows the mailed link and connects a provider", async () => {
    const page = await newPage({ width: 1366 });
    const email = uniqueEmail("e2e-verify");
    await page.goto(`${baseUrl}/login`);
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("Full Name").fill("Vera Verify");
    await page.getByLabel("Company Name").fill("Proof Solar");
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();
    await page.waitForURL(`${baseUrl}/app/dashboard`);

    // Until the link is followed, a banner asks for it on every screen, and keys are refused.
    const banner = page.getByRole("status", { name: "Confirm your e-mail address" });
    await banner.waitFor();
    await banner.getByText(`We sent a link to ${email}`).waitFor();
    await page.getByText("No sites yet").waitFor();
    await screenshot(page, "21-verification-banner");
    const token = await page.evaluate(() => localStorage.getItem("auth_token"));
    const refused = await fetch(`${baseUrl}/api/api-keys`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: "ci", scope: "read" }),
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe("email_not_verified");
    await page.goto(`${baseUrl}/app/alerts`);
    await banner.waitFor();

    // The link from the caught mail confirms the address and signs in.
    const link = await mailedLink(email, "/verify-email");
    expect(link.origin).toBe(baseUrl);
    await page.goto(link.href);
    await page.waitForURL(`${baseUrl}/app/dashboard`);
    await page.getByText("No sites yet").waitFor();
    expect(await banner.count()).toBe(0);
    const verified = await page.evaluate(() => localStorage.getItem("auth_token"));
    if (!verified) throw new Error("the link did not sign in");
    const profile = await api<{ email: string; emailVerified: boolean }>("/api/user/profile", {
      token: verified,
    });
    expect(profile).toMatchObject({ email, emailVerified: true });
    await api("/api/api-keys", { method: "POST", token: verified, body: { name: "ci", scope: "read" } });

    // Connect the Solis sandbox from the empty dashboard.
    await page.getByRole("button", { name: "Connect a Provider" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Provider", { exact: true }).selectOption("solis");
    await dialog.getByLabel("API Key ID").fill(SOLIS_SANDBOX.keyId);
    await dialog.getByLabel("API Key Secret").fill(SOLIS_SANDBOX.keySecret);
    await dialog.getByRole("button", { name: "Save Credentials" }).click();
    await dialog.getByText("Configured providers").waitFor();
    await expect
      .poll(async () => (await api<unknown[]>("/api/dashboard/metrics", { token: verified })).length, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(3);
    await dialog.getByRole("tab", { name: "Account" }).click();
    await dialog.getByText("Confirmed", { exact: true }).waitFor();
    await screenshot(page, "22-verified-account-connected");
    await page.context().close();
  });
});
