import { RiCloseLine } from "@remixicon/react";
import { Dialog, DialogPanel, Tab, TabGroup, TabList } from "@tremor/react";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { can } from "../../../schema/roles";
import { actorFromProfile, seesAdministration } from "../../lib/permissions";
import { useCurrentProfile } from "../profile-context";
import { Spinner } from "../ui/spinner";

// The panels load when the dialog first opens: no screen's first load carries them.
const SettingsPanel = lazy(() => import("./settings-panels").then((m) => ({ default: m.SettingsPanel })));

export type SettingsTabKey =
  | "account"
  | "notifications"
  | "alertRules"
  | "providers"
  | "sites"
  | "users"
  | "apiKeys";

interface SettingsTab {
  key: SettingsTabKey;
  label: string;
}

interface SettingsDialogProps {
  open: boolean;
  tab: SettingsTabKey;
  onTabChange: (tab: SettingsTabKey) => void;
  onClose: () => void;
}

export function SettingsDialog({ open, tab, onTabChange, onClose }: SettingsDialogProps) {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  // Manage Users is hidden for role user (4 tabs instead of 5).
  const showManageUsers = seesAdministration(profile);

  const accountTab: SettingsTab = {
    key: "account",
    label: t("settings.tabs.account"),
  };
  const manageUsersTab: SettingsTab = {
    key: "users",
    label: t("settings.tabs.manageUsers"),
  };
  const alertRulesTab: SettingsTab = {
    key: "alertRules",
    label: t("settings.tabs.alertRules"),
  };
  const tabs: SettingsTab[] = [
    accountTab,
    { key: "notifications", label: t("settings.tabs.notifications") },
    ...(profile.companyId !== null ? [alertRulesTab] : []),
    { key: "providers", label: t("settings.tabs.providerCredentials") },
    { key: "sites", label: t("settings.tabs.sitesPortfolios") },
    ...(showManageUsers ? [manageUsersTab] : []),
    ...(can(actorFromProfile(profile), "apiKeys:manageOwn")
      ? [{ key: "apiKeys" as const, label: t("settings.tabs.apiKeys") }]
      : []),
  ];

  const activeIndex = Math.max(
    0,
    tabs.findIndex((candidate) => candidate.key === tab),
  );
  const activeTab = tabs[activeIndex] ?? accountTab;

  return (
    // Tremor's dialog root has no box of its own (its children are fixed), so browsers' visibility
    // checks would call the open dialog hidden; covering the viewport gives it the box it shows.
    <Dialog open={open} onClose={onClose} aria-labelledby="settings-title" className="fixed inset-0">
      <DialogPanel className="max-w-4xl p-0">
        <div className="flex items-start justify-between border-b border-tremor-border px-6 py-4">
          <div>
            <h2 id="settings-title" className="text-tremor-title font-semibold text-tremor-content-strong">
              {t("settings.title")}
            </h2>
            <p className="text-tremor-default text-tremor-content">{t("settings.description")}</p>
          </div>
          <button
            type="button"
            onClick={onClose}
            aria-label={t("common.close")}
            className="rounded-tremor-small p-1 text-tremor-content hover:bg-tremor-background-subtle hover:text-tremor-content-strong"
          >
            <RiCloseLine className="h-5 w-5" aria-hidden="true" />
          </button>
        </div>
        <TabGroup
          index={activeIndex}
          onIndexChange={(index) => onTabChange(tabs[index]?.key ?? "account")}
          className="px-6"
        >
          <TabList className="mt-2 overflow-x-auto">
            {tabs.map((tab) => (
              <Tab key={tab.key}>{tab.label}</Tab>
            ))}
          </TabList>
        </TabGroup>
        {/* Only the open tab is mounted: hidden tabs neither fetch nor duplicate field labels. */}
        <div role="tabpanel" aria-label={activeTab.label} className="px-6 pb-6 pt-6">
          <Suspense fallback={<Spinner className="py-10" />}>
            <SettingsPanel tab={activeTab.key} />
          </Suspense>
        </div>
      </DialogPanel>
    </Dialog>
  );
}
