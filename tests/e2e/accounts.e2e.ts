import { describe, expect, it } from "vitest";
import { screenshot } from "./browser";
import { api, baseUrl, browserPages, PASSWORD, type Session, uniqueEmail, verifyEmail } from "./helpers";

const newPage = browserPages();

describe("accounts in the browser", () => {
  it("signs up, lands on the dashboard, uses settings and logs out", async () => {
    const page = await newPage();
    await page.goto(baseUrl);
    await expect
      .poll(() =>
        page
          .getByRole("link", { name: /pricing/i })
          .first()
          .isVisible(),
      )
      .toBe(true);
    await screenshot(page, "01-landing");

    await page.goto(`${baseUrl}/login`);
    await page.getByLabel("Email").waitFor();
    await screenshot(page, "02-login");

    const email = uniqueEmail("e2e-owner");
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("Full Name").fill("Erin Engineer");
    await page.getByLabel("Company Name").fill("Sunbeam Installers");
    await page.getByRole("button", { name: "Sign Up", exact: true }).click();

    await page.waitForURL(`${baseUrl}/app/dashboard`);
    await page.getByText("Sunbeam Installers").first().waitFor();
    await page.getByText("No sites yet").waitFor();
    await screenshot(page, "03-dashboard");

    await page.getByRole("button", { name: "Settings" }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.getByLabel("Email").inputValue()).toBe(email);
    await dialog.getByText("Contact your administrator to change your email").waitFor();
    // An owner sees all seven tabs, Manage Users, API Keys and Alert Rules among them.
    await expect.poll(() => dialog.getByRole("tab").count()).toBe(7);
    await dialog.getByRole("tab", { name: "Alert Rules" }).waitFor();
    await dialog.getByRole("tab", { name: "Notifications" }).click();
    await dialog.getByLabel("Language").selectOption("es");
    await page.getByRole("link", { name: "Panel" }).first().waitFor();
    await screenshot(page, "04-settings-spanish");
    const saved = await page.evaluate(async () => {
      const token = localStorage.getItem("auth_token");
      const res = await fetch("/api/user/preferences", { headers: { Authorization: `Bearer ${token}` } });
      return (await res.json()) as { language: string };
    });
    expect(saved.language).toBe("es");
    await dialog.getByLabel("Idioma").selectOption("en");
    await page.getByRole("link", { name: "Dashboard" }).first().waitFor();
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();

    // The same account signs in again.
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL(`${baseUrl}/app/dashboard`);
    await page.context().close();
  });

  it("opens the Alerts screen first, in the member's language, with every string translated", async () => {
    const session = await api<Session>("/api/auth/register", {
      method: "POST",
      body: {
        email: uniqueEmail("e2e-es"),
        password: PASSWORD,
        fullName: "Elena Española",
        companyName: "Sol de Madrid",
      },
    });
    await api("/api/user/preferences", {
      method: "PATCH",
      token: session.token,
      body: { language: "es", timezone: "Europe/Madrid" },
    });
    const page = await newPage({ session });
    await page.goto(`${baseUrl}/app/alerts`);
    await page.getByRole("link", { name: "Panel" }).first().waitFor();
    await page.getByRole("heading", { name: "Alertas", level: 1 }).waitFor();
    await page.getByLabel("Ordenar por").waitFor();
    // No string is shown as its key (a screen's own strings must not stand in for the language's).
    const text = (await page.locator("body").textContent()) ?? "";
    expect(text).not.toMatch(/\b(?:nav|pages|fleet|common|topBar|roles)\.[a-zA-Z]/);
    await screenshot(page, "05-alerts-spanish-first");
  });

  it("sends a member removed from their organisation through onboarding to a new one", async () => {
    const ownerEmail = uniqueEmail("e2e-owner");
    const owner = await api<{ token: string }>("/api/auth/register", {
      method: "POST",
      body: { email: ownerEmail, password: PASSWORD, fullName: "Owner", companyName: "First Light" },
    });
    // Inviting needs a verified address.
    await verifyEmail(ownerEmail);
    const memberEmail = uniqueEmail("e2e-member");
    const invite = await api<{ inviteLink: string }>("/api/users/invite", {
      method: "POST",
      token: owner.token,
      body: { email: memberEmail, role: "user" },
    });
    const inviteToken = new URL(invite.inviteLink).searchParams.get("invite");
    const member = await api<{ user: { id: string } }>("/api/auth/register", {
      method: "POST",
      body: { email: memberEmail, password: PASSWORD, fullName: "Member", inviteToken },
    });
    await api(`/api/users/${member.user.id}`, { method: "DELETE", token: owner.token });

    const page = await newPage();
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel("Email").fill(memberEmail);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.getByRole("button", { name: "Complete Setup" }).waitFor();
    await screenshot(page, "05-onboarding");
    await page.getByLabel("Company Name").fill("Second Wind Solar");
    await page.getByRole("button", { name: "Complete Setup" }).click();
    await page.waitForURL(`${baseUrl}/app/dashboard`);
    await page.getByText("Second Wind Solar").first().waitFor();
    await page.context().close();
  });
});
