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
  /** The value is words, not a figure ("No sunshine"): set smaller, so a phrase fits the card. */
  wordy?: boolean;
}

export function SummaryCard({ label, value, aside, indicator, footnote, wordy = false }: SummaryCardProps) {
  return (
    // min-w-0 and break-words: a word longer than the card wraps inside it instead of widening it,
    // and the page with it.
    <Card decoration="top" decorationColor="blue" className="flex min-w-0 flex-col gap-2">
      <div className="flex items-start justify-between gap-2">
        <Text>{label}</Text>
        {indicator}
      </div>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        {wordy ? (
          <p className="min-w-0 break-words font-semibold text-xl text-tremor-content-strong dark:text-dark-tremor-content-strong">
            {value}
          </p>
        ) : (
          <Metric className="min-w-0 break-words">{value}</Metric>
        )}
        {aside}
      </div>
      {footnote ? <p className="text-tremor-label text-tremor-content">{footnote}</p> : null}
    </Card>
  );
}
