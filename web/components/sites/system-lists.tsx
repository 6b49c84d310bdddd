import { RiAddLine, RiPlugLine, RiSubtractLine } from "@remixicon/react";
import { Button } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { AvailableSystem } from "../../../schema/api/sites";
import { formatCapacityKw, localeFor } from "../../lib/format";
import { providerNames } from "../../lib/providers";
import { SystemStateBadge } from "./site-status-badge";

interface SystemRowProps {
  system: AvailableSystem;
  action: "add" | "remove";
  onAction: (system: AvailableSystem) => void;
}

function SystemRow({ system, action, onAction }: SystemRowProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const nameId = `system-${system.id}-${action}`;
  return (
    <li aria-labelledby={nameId} className="flex items-start justify-between gap-3 px-3 py-2.5">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <span id={nameId} className="font-medium text-tremor-content-strong">
            {system.name}
          </span>
          <SystemStateBadge state={system.state} />
        </div>
        <p className="text-tremor-label text-tremor-content">
          {providerNames[system.provider]} ·{" "}
          {system.capacity === null
            ? t("createSite.capacityUnknown")
            : formatCapacityKw(system.capacity, locale)}
          {system.location ? ` · ${system.location}` : ""}
        </p>
      </div>
      <Button
        type="button"
        size="xs"
        variant={action === "add" ? "secondary" : "light"}
        color={action === "add" ? undefined : "red"}
        icon={action === "add" ? RiAddLine : RiSubtractLine}
        aria-label={t(action === "add" ? "createSite.addSystem" : "createSite.removeSystem", {
          name: system.name,
        })}
        onClick={() => onAction(system)}
      >
        {t(action === "add" ? "createSite.add" : "createSite.remove")}
      </Button>
    </li>
  );
}

/** Sum of the systems' DC capacities in kW (unknown counts as 0), without float dust. */
export function totalCapacityKw(systems: readonly AvailableSystem[]): number {
  const total = systems.reduce((sum, system) => sum + (system.capacity ?? 0), 0);
  return Math.round(total * 1000) / 1000;
}

interface SystemListProps {
  labelId: string;
  systems: AvailableSystem[];
  action: "add" | "remove";
  onAction: (system: AvailableSystem) => void;
}

/** The available-systems list scrolls past 16rem. */
export function SystemList({ labelId, systems, action, onAction }: SystemListProps) {
  return (
    <ul
      aria-labelledby={labelId}
      className={`divide-y divide-tremor-border rounded-tremor-default border border-tremor-border ${
        action === "add" ? "max-h-[16rem] overflow-y-auto" : ""
      }`}
    >
      {systems.map((system) => (
        <SystemRow key={system.id} system={system} action={action} onAction={onAction} />
      ))}
    </ul>
  );
}

export function NoSystemsHint({ text }: { text: string }) {
  return (
    <p className="flex items-center gap-2 rounded-tremor-default border border-dashed border-tremor-border px-3 py-4 text-tremor-default text-tremor-content">
      <RiPlugLine className="h-4 w-4 shrink-0" aria-hidden="true" />
      {text}
    </p>
  );
}
