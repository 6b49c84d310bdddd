import { Card, Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { AnalyticsRecord } from "../../../schema/api/analytics";
import { formatCelsius, formatDateTime, formatKwh, formatPowerW, localeFor } from "../../lib/format";
import { useUserTimeZone } from "../use-user-time-zone";
import { InverterStateBadge } from "./status-badge";

/** One row per inverter with its state label (Online, Alarm or Offline), its power, today's energy and temperature. */
export function InvertersTab({ record }: { record: AnalyticsRecord }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const timeZone = useUserTimeZone();
  if (record.inverterStates.length === 0) {
    return (
      <Card>
        <p className="text-tremor-default text-tremor-content">{t("insights.detail.noInverters")}</p>
      </Card>
    );
  }
  return (
    <Card>
      <p className="text-tremor-label text-tremor-content">
        {record.lastUpdated
          ? t("insights.dataAsOf", { time: formatDateTime(record.lastUpdated, { locale, timeZone }) })
          : t("insights.noDataYet")}
      </p>
      <Table className="mt-2">
        <TableHead>
          <TableRow>
            <TableHeaderCell>{t("insights.inverters.serial")}</TableHeaderCell>
            <TableHeaderCell>{t("insights.inverters.state")}</TableHeaderCell>
            <TableHeaderCell className="text-right">{t("insights.inverters.power")}</TableHeaderCell>
            <TableHeaderCell className="text-right">{t("insights.inverters.today")}</TableHeaderCell>
            <TableHeaderCell className="text-right">{t("insights.inverters.temperature")}</TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {record.inverterStates.map((inverter, index) => (
            <TableRow key={inverter.sn ?? `inverter-${index}`}>
              <TableCell className="font-mono">{inverter.sn ?? t("insights.inverters.noSerial")}</TableCell>
              <TableCell>
                <InverterStateBadge state={inverter.state} />
              </TableCell>
              <TableCell className="text-right">{formatPowerW(inverter.pac, locale)}</TableCell>
              <TableCell className="text-right">{formatKwh(inverter.etodayKWh, locale)}</TableCell>
              <TableCell className="text-right">
                {formatCelsius(inverter.inverterTemperature, locale)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
