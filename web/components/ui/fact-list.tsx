import type { ReactNode } from "react";

export interface Fact {
  label: string;
  value: ReactNode;
}

/** Labelled figures as a description list, each label above its value, two to a row by default. */
export function FactList({ facts, className = "" }: { facts: readonly Fact[]; className?: string }) {
  return (
    <dl className={`grid grid-cols-2 gap-x-4 gap-y-2 text-tremor-default ${className}`}>
      {facts.map((fact) => (
        <div key={fact.label}>
          <dt className="text-tremor-label text-tremor-content">{fact.label}</dt>
          <dd className="font-medium text-tremor-content-strong">{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}
