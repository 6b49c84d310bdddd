import { RiCloseLine } from "@remixicon/react";
import { Outlet, useNavigate } from "@tanstack/react-router";
import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { connectLive, disconnectLive } from "../../lib/live";
import { logout } from "../../lib/sign-in";
import { useCurrentProfile } from "../profile-context";
import { useSettings } from "../settings/settings-context";
import { Sidebar } from "./sidebar";
import { TopBar } from "./top-bar";

// Only accounts whose address was never verified download the banner.
const VerifyEmailBanner = lazy(() => import("./verify-email-banner"));

/** The signed-in frame: sidebar, top bar and the live channel, around the current screen. */
export function AppShell({ token, hasOrganisation }: { token: string; hasOrganisation: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { openSettings } = useSettings();
  const { emailVerified } = useCurrentProfile();
  const [menuOpen, setMenuOpen] = useState(false);

  // Live data is per organisation; a superAdmin belongs to none, so there is nothing to subscribe to.
  useEffect(() => {
    if (!hasOrganisation) return;
    connectLive(token);
    return () => disconnectLive();
  }, [token, hasOrganisation]);

  const onLogout = () => {
    logout();
    void navigate({ to: "/login" });
  };

  const sidebar = (
    <Sidebar
      onOpenSettings={() => {
        setMenuOpen(false);
        openSettings();
      }}
      onLogout={onLogout}
      onNavigate={() => setMenuOpen(false)}
    />
  );

  return (
    // The sidebar's column stretches with the page, so its background and border reach the bottom of
    // long pages; its contents stay in view while the page scrolls.
    <div className="flex min-h-screen bg-tremor-background-muted">
      <aside className="hidden w-64 shrink-0 border-r border-tremor-border bg-tremor-background md:block">
        <div className="sticky top-0 h-screen">{sidebar}</div>
      </aside>
      {menuOpen ? (
        <div className="fixed inset-0 z-40 md:hidden">
          <button
            type="button"
            aria-label={t("nav.closeMenu")}
            className="absolute inset-0 bg-gray-950/40"
            onClick={() => setMenuOpen(false)}
          />
          <aside className="relative h-full w-64 bg-tremor-background">
            {sidebar}
            <button
              type="button"
              onClick={() => setMenuOpen(false)}
              aria-label={t("nav.closeMenu")}
              className="absolute right-2 top-4 rounded-tremor-small p-1 text-tremor-content"
            >
              <RiCloseLine className="h-5 w-5" aria-hidden="true" />
            </button>
          </aside>
        </div>
      ) : null}
      <div className="min-w-0 flex-1">
        <TopBar onOpenMenu={() => setMenuOpen(true)} />
        <main className="mx-auto max-w-7xl p-4 md:p-8">
          {emailVerified ? null : (
            <Suspense>
              <VerifyEmailBanner />
            </Suspense>
          )}
          <Outlet />
        </main>
      </div>
    </div>
  );
}
