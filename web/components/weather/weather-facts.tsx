import { RiCloudyLine, RiSunCloudyLine, RiSunLine } from "@remixicon/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FactList } from "../ui/fact-list";
import { conditionsLabel, showsCloudIcon } from "./labels";

export interface WeatherFact {
  label: string;
  value: string;
}

interface WeatherFactsProps {
  cloudCover: number;
  /** The headline temperature with its unit (°C in the app, °F in the demo). */
  temperature: string;
  facts: WeatherFact[];
  footer?: ReactNode;
}

/** The conditions label and icon from cloud cover, the temperature, then the figures. */
export function WeatherFacts({ cloudCover, temperature, facts, footer }: WeatherFactsProps) {
  const { t } = useTranslation();
  const label = conditionsLabel(cloudCover);
  const Icon = showsCloudIcon(cloudCover) ? RiCloudyLine : label === "clearSky" ? RiSunLine : RiSunCloudyLine;
  return (
    <div>
      <div className="flex items-center gap-3">
        <Icon
          className={`h-10 w-10 ${showsCloudIcon(cloudCover) ? "text-slate-500" : "text-amber-500"}`}
          aria-hidden="true"
          data-icon={showsCloudIcon(cloudCover) ? "cloud" : "sun"}
        />
        <div>
          <p className="text-tremor-metric font-semibold text-tremor-content-strong">{temperature}</p>
          <p className="text-tremor-default text-tremor-content-emphasis">
            {t(`insights.weather.conditions.${label}`)}
          </p>
        </div>
      </div>
      <FactList facts={facts} className="mt-4" />
      {footer ? <div className="mt-4 text-tremor-label text-tremor-content">{footer}</div> : null}
    </div>
  );
}
