import { Badge, Card, Title } from "@tremor/react";
import { useTranslation } from "react-i18next";
import { providerIds } from "../../../schema/api/providers";
import type { Role } from "../../../schema/roles";
import { DEMO_TIME_ZONE } from "../../lib/demo/simulation";
import { formatTime, localeFor } from "../../lib/format";
import { providerNames } from "../../lib/providers";

const team: { name: string; email: string; role: Role }[] = [
  { name: "Alex Morgan", email: "alex.morgan@demo.sunfleet.example", role: "orgOwner" },
  { name: "Priya Shah", email: "priya.shah@demo.sunfleet.example", role: "orgEngineer" },
  { name: "Diego Ramírez", email: "diego.ramirez@demo.sunfleet.example", role: "orgEngineer" },
  { name: "Sam Lee", email: "sam.lee@demo.sunfleet.example", role: "user" },
];

const QUARTER_HOUR_MS = 15 * 60_000;

/** Every provider shown Connected, and a team list. Nothing here can be changed in the demo. */
export function DemoSettingsTab({ time }: { time: number }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const lastSync = formatTime(Math.floor(time / QUARTER_HOUR_MS) * QUARTER_HOUR_MS, {
    locale,
    timeZone: DEMO_TIME_ZONE,
  });
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <Title>{t("insights.demo.credentialsTitle")}</Title>
        <ul className="mt-4 divide-y divide-tremor-border">
          {providerIds.map((provider) => (
            <li key={provider} className="flex items-center justify-between gap-3 py-3">
              <div>
                <p className="font-medium text-tremor-content-strong">{providerNames[provider]}</p>
                <p className="text-tremor-label text-tremor-content">
                  {t("insights.demo.lastSync", { time: lastSync })}
                </p>
              </div>
              <Badge color="emerald" size="xs">
                {t("insights.demo.connected")}
              </Badge>
            </li>
          ))}
        </ul>
      </Card>
      <Card>
        <Title>{t("insights.demo.teamTitle")}</Title>
        <ul className="mt-4 divide-y divide-tremor-border">
          {team.map((member) => (
            <li key={member.email} className="flex items-center justify-between gap-3 py-3">
              <div>
                <p className="font-medium text-tremor-content-strong">{member.name}</p>
                <p className="text-tremor-label text-tremor-content">{member.email}</p>
              </div>
              <Badge color="gray" size="xs">
                {t(`roles.${member.role}`)}
              </Badge>
            </li>
          ))}
        </ul>
        <p className="mt-4 text-tremor-label text-tremor-content">{t("insights.demo.readOnly")}</p>
      </Card>
    </div>
  );
}
