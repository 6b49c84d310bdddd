import { Card, Metric, Text } from "@tremor/react";
import type { ReactNode } from "react";

interface SummaryCardProps {
  label: string;
  value: string;
  /** Beside the value (the fleet PR next to efficiency). */
  aside?: ReactNode;
  /** The change indicator, when one can honestly be computed. */
  indicator?: ReactNode;
  /** What the number covers and the time of its data. */
  footnote?: ReactNode;
}

export function SummaryCard({ label, value, aside, indicator, footnote }: SummaryCardProps) {
  return (
    <Card decoration="top" decorationColor="blue" className="flex flex-col gap-2">
      <div className="flex items-start justify-between gap-2">
        <Text>{label}</Text>
        {indicator}
      </div>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <Metric>{value}</Metric>
        {aside}
      </div>
      {footnote ? <p className="text-tremor-label text-tremor-content">{footnote}</p> : null}
    </Card>
  );
}
