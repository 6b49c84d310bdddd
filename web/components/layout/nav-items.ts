import {
  RiAlarmWarningLine,
  RiBarChartBoxLine,
  RiBriefcase4Line,
  RiCoinsLine,
  RiDashboardLine,
  RiFileList3Line,
  RiMapPinLine,
  RiSettings4Line,
  RiSunCloudyLine,
  RiTeamLine,
} from "@remixicon/react";
import type { LinkProps } from "@tanstack/react-router";
import type { ComponentType } from "react";

type NavKey =
  | "dashboard"
  | "sites"
  | "siteManagement"
  | "portfolios"
  | "analytics"
  | "losses"
  | "weather"
  | "alerts"
  | "userManagement"
  | "auditLogs";

export interface NavItem {
  to: NonNullable<LinkProps["to"]>;
  labelKey: `nav.${NavKey}`;
  icon: ComponentType<{ className?: string }>;
  /** Whether a pathname counts as this item (Dashboard is also /app itself). */
  isActive: (pathname: string) => boolean;
}

const under = (prefix: string) => (pathname: string) =>
  pathname === prefix || pathname.startsWith(`${prefix}/`);

export const mainNavItems: NavItem[] = [
  {
    to: "/app/dashboard",
    labelKey: "nav.dashboard",
    icon: RiDashboardLine,
    isActive: (pathname) => pathname === "/app" || pathname === "/app/" || under("/app/dashboard")(pathname),
  },
  { to: "/app/sites", labelKey: "nav.sites", icon: RiMapPinLine, isActive: under("/app/sites") },
  {
    to: "/app/site-management",
    labelKey: "nav.siteManagement",
    icon: RiSettings4Line,
    isActive: (pathname) => under("/app/site-management")(pathname) || under("/app/create-site")(pathname),
  },
  {
    to: "/app/portfolios",
    labelKey: "nav.portfolios",
    icon: RiBriefcase4Line,
    isActive: under("/app/portfolios"),
  },
  {
    to: "/app/analytics",
    labelKey: "nav.analytics",
    icon: RiBarChartBoxLine,
    isActive: under("/app/analytics"),
  },
  { to: "/app/losses", labelKey: "nav.losses", icon: RiCoinsLine, isActive: under("/app/losses") },
  { to: "/app/weather", labelKey: "nav.weather", icon: RiSunCloudyLine, isActive: under("/app/weather") },
  { to: "/app/alerts", labelKey: "nav.alerts", icon: RiAlarmWarningLine, isActive: under("/app/alerts") },
];

export const adminNavItems: NavItem[] = [
  {
    to: "/app/admin/users",
    labelKey: "nav.userManagement",
    icon: RiTeamLine,
    isActive: under("/app/admin/users"),
  },
  {
    to: "/app/admin/logs",
    labelKey: "nav.auditLogs",
    icon: RiFileList3Line,
    isActive: under("/app/admin/logs"),
  },
];
