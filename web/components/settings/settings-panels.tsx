import { MemberManagement } from "../members/member-management";
import { AccountTab } from "./account-tab";
import { AlertRulesTab } from "./alert-rules-tab";
import { ApiKeysTab } from "./api-keys-tab";
import { NotificationsTab } from "./notifications-tab";
import { ProviderCredentialsTab } from "./provider-credentials-tab";
import type { SettingsTabKey } from "./settings-dialog";
import { SitesPortfoliosTab } from "./sites-portfolios-tab";

/** The open tab's content; loaded with the first opened tab, so no screen's first load carries them. */
export function SettingsPanel({ tab }: { tab: SettingsTabKey }) {
  switch (tab) {
    case "account":
      return <AccountTab />;
    case "notifications":
      return <NotificationsTab />;
    case "alertRules":
      return <AlertRulesTab />;
    case "providers":
      return <ProviderCredentialsTab />;
    case "sites":
      return <SitesPortfoliosTab />;
    case "users":
      return <MemberManagement compact />;
    case "apiKeys":
      return <ApiKeysTab />;
  }
}
