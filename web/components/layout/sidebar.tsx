import { RiLogoutBoxRLine, RiSettings3Line } from "@remixicon/react";
import { Link, useRouter, useRouterState } from "@tanstack/react-router";
import { useEffect, useId } from "react";
import { useTranslation } from "react-i18next";
import { formatCount, initialsFromEmail, localeFor } from "../../lib/format";
import { seesAdministration } from "../../lib/permissions";
import { useOpenAlertCount } from "../../lib/queries/alerts";
import { useSiteCount } from "../../lib/queries/sites";
import { useCurrentProfile } from "../profile-context";
import { Logo } from "./logo";
import { adminNavItems, mainNavItems, type NavItem } from "./nav-items";

interface SidebarProps {
  onOpenSettings: () => void;
  onLogout: () => void;
  /** Called after a link is followed (closes the menu on small screens). */
  onNavigate?: () => void;
}

interface NavBadge {
  count: number;
  /** Screen-reader text for the count ("2 sites"). */
  label: string;
  tone: "neutral" | "alert";
}

function NavLink({
  item,
  pathname,
  onNavigate,
  badge,
}: {
  item: NavItem;
  pathname: string;
  onNavigate?: () => void;
  badge?: NavBadge;
}) {
  const { t, i18n } = useTranslation();
  const active = item.isActive(pathname);
  const Icon = item.icon;
  const showBadge = badge !== undefined && (badge.tone === "neutral" || badge.count > 0);
  const badgeId = useId();
  return (
    <Link
      to={item.to}
      onClick={onNavigate}
      aria-current={active ? "page" : undefined}
      aria-describedby={showBadge ? badgeId : undefined}
      className={`flex items-center gap-3 rounded-tremor-default px-3 py-2 text-tremor-default font-medium transition-colors ${
        active
          ? "bg-tremor-brand-faint text-tremor-brand-emphasis"
          : "text-tremor-content-emphasis hover:bg-tremor-background-subtle hover:text-tremor-content-strong"
      }`}
    >
      <Icon className="h-5 w-5 shrink-0" aria-hidden="true" />
      {t(item.labelKey)}
      {showBadge ? (
        <>
          {/* The link keeps its plain name; the count is its description. */}
          <span
            aria-hidden="true"
            data-testid={`nav-badge-${item.to}`}
            className={`ml-auto min-w-[1.5rem] rounded-tremor-full px-2 py-0.5 text-center text-tremor-label font-semibold ${
              badge.tone === "alert"
                ? "bg-red-600 text-white"
                : "bg-tremor-background-subtle text-tremor-content-emphasis"
            }`}
          >
            {formatCount(badge.count, localeFor(i18n.language))}
          </span>
          <span id={badgeId} hidden>
            {badge.label}
          </span>
        </>
      ) : null}
    </Link>
  );
}

/** Sites badge: how many sites the organisation has; Alerts badge (red): unresolved alerts. */
function useNavBadges(hasOrganisation: boolean): Partial<Record<string, NavBadge>> {
  const { t } = useTranslation();
  const siteCount = useSiteCount(hasOrganisation);
  const openAlerts = useOpenAlertCount(hasOrganisation);
  return {
    "/app/sites":
      siteCount === undefined
        ? undefined
        : { count: siteCount, label: t("fleet.badges.sites", { n: siteCount }), tone: "neutral" },
    "/app/alerts":
      openAlerts === undefined
        ? undefined
        : { count: openAlerts, label: t("fleet.badges.alerts", { n: openAlerts }), tone: "alert" },
  };
}

/** The fleet's list screens, whose code is fetched once the app is idle (see useIdlePreload). */
const PRELOADED_WHEN_IDLE = ["/app/sites", "/app/site-management", "/app/analytics", "/app/alerts"] as const;

/**
 * Fetches the fleet screens' code when the browser is next idle: each screen's chunk fetches its
 * own imports when it runs (the entry lists none, for every page's first download), a chain of
 * three round trips that held Solar Sites' first request ~1.8 s after a click made while the
 * dashboard was still loading.
 */
function useIdlePreload() {
  const router = useRouter();
  useEffect(() => {
    const preload = () => {
      for (const to of PRELOADED_WHEN_IDLE) void router.preloadRoute({ to }).catch(() => undefined);
    };
    if (typeof requestIdleCallback !== "function") {
      const timer = setTimeout(preload, 2_000);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(preload, { timeout: 3_000 });
    return () => cancelIdleCallback(idle);
  }, [router]);
}

export function Sidebar({ onOpenSettings, onLogout, onNavigate }: SidebarProps) {
  const { t } = useTranslation();
  useIdlePreload();
  const profile = useCurrentProfile();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const badges = useNavBadges(profile.companyId !== null);

  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 items-center px-5">
        <Link to="/app/dashboard" onClick={onNavigate}>
          <Logo />
        </Link>
      </div>
      <nav aria-label={t("nav.mainNavigation")} className="flex-1 space-y-6 overflow-y-auto px-3 py-4">
        <ul className="space-y-1">
          {mainNavItems.map((item) => (
            <li key={item.to}>
              <NavLink item={item} pathname={pathname} onNavigate={onNavigate} badge={badges[item.to]} />
            </li>
          ))}
        </ul>
        {seesAdministration(profile) ? (
          <section aria-labelledby="sidebar-administration">
            <h2
              id="sidebar-administration"
              className="px-3 pb-2 text-tremor-label font-semibold uppercase tracking-wider text-tremor-content"
            >
              {t("nav.administration")}
            </h2>
            <ul className="space-y-1">
              {adminNavItems.map((item) => (
                <li key={item.to}>
                  <NavLink item={item} pathname={pathname} onNavigate={onNavigate} />
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </nav>
      <div className="space-y-3 border-t border-tremor-border p-3">
        <button
          type="button"
          onClick={onOpenSettings}
          className="flex w-full items-center gap-3 rounded-tremor-default px-3 py-2 text-tremor-default font-medium text-tremor-content-emphasis hover:bg-tremor-background-subtle hover:text-tremor-content-strong"
        >
          <RiSettings3Line className="h-5 w-5" aria-hidden="true" />
          {t("nav.settings")}
        </button>
        <div className="flex items-center gap-3 px-1">
          <span
            aria-hidden="true"
            className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-tremor-brand text-tremor-label font-semibold text-tremor-brand-inverted"
          >
            {initialsFromEmail(profile.email)}
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate text-tremor-default font-medium text-tremor-content-strong">
              {profile.email}
            </p>
            <p className="truncate text-tremor-label text-tremor-content">{t(`roles.${profile.role}`)}</p>
          </div>
          <button
            type="button"
            onClick={onLogout}
            aria-label={t("nav.logOut")}
            title={t("nav.logOut")}
            className="rounded-tremor-small p-2 text-tremor-content hover:bg-tremor-background-subtle hover:text-red-600"
          >
            <RiLogoutBoxRLine className="h-5 w-5" aria-hidden="true" />
          </button>
        </div>
      </div>
    </div>
  );
}
