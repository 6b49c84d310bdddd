import { Card, Metric, Text } from "@tremor/react";

interface StatCardProps {
  label: string;
  value: string;
  footnote?: string;
}

export function StatCard({ label, value, footnote }: StatCardProps) {
  return (
    <Card decoration="top" decorationColor="blue">
      <Text>{label}</Text>
      <Metric className="mt-1">{value}</Metric>
      {footnote ? <Text className="mt-2 text-tremor-label">{footnote}</Text> : null}
    </Card>
  );
}
