import { RiHome4Line, RiMapPinLine, RiPlugLine } from "@remixicon/react";
import { Button } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { useSettings } from "./settings/settings-context";
import { ButtonLink } from "./ui/button-link";

/** Placeholder and empty-state screens link to the home page, Settings and Sites. */
export function PlaceholderLinks() {
  const { t } = useTranslation();
  const { openSettings } = useSettings();
  return (
    <>
      <ButtonLink to="/" variant="light">
        <RiHome4Line className="h-4 w-4" aria-hidden="true" />
        {t("common.home")}
      </ButtonLink>
      {/* Named for what it is for: "Settings" alone is the sidebar button's name. */}
      <Button variant="secondary" icon={RiPlugLine} onClick={() => openSettings("providers")}>
        {t("common.connectProvider")}
      </Button>
      <ButtonLink to="/app/sites" variant="light">
        <RiMapPinLine className="h-4 w-4" aria-hidden="true" />
        {t("common.siteList")}
      </ButtonLink>
    </>
  );
}
