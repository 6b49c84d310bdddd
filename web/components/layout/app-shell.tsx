import { RiCloseLine } from "@remixicon/react";
import { Outlet, useNavigate } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { connectLive, disconnectLive } from "../../lib/live";
import { logout } from "../../lib/session";
import { useSettings } from "../settings/settings-context";
import { Sidebar } from "./sidebar";
import { TopBar } from "./top-bar";

/** The signed-in frame: sidebar, top bar and the live channel, around the current screen. */
export function AppShell({ token, hasOrganisation }: { token: string; hasOrganisation: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { openSettings } = useSettings();
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
    <div className="min-h-screen bg-tremor-background-muted">
      <aside className="fixed inset-y-0 left-0 z-30 hidden w-64 md:block">{sidebar}</aside>
      {menuOpen ? (
        <div className="fixed inset-0 z-40 md:hidden">
          <button
            type="button"
            aria-label={t("nav.closeMenu")}
            className="absolute inset-0 bg-gray-950/40"
            onClick={() => setMenuOpen(false)}
          />
          <aside className="relative h-full w-64">
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
      <div className="md:pl-64">
        <TopBar onOpenMenu={() => setMenuOpen(true)} />
        <main className="mx-auto max-w-7xl p-4 md:p-8">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
