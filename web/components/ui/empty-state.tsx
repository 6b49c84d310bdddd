import { Card } from "@tremor/react";
import type { ComponentType, ReactNode } from "react";

interface EmptyStateProps {
  icon: ComponentType<{ className?: string }>;
  title: string;
  description: string;
  children?: ReactNode;
}

export function EmptyState({ icon: Icon, title, description, children }: EmptyStateProps) {
  return (
    <Card className="flex flex-col items-center px-6 py-12 text-center">
      <span className="mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-tremor-brand-faint">
        <Icon className="h-6 w-6 text-tremor-brand" aria-hidden="true" />
      </span>
      <h2 className="text-tremor-title font-semibold text-tremor-content-strong">{title}</h2>
      <p className="mt-1 max-w-md text-tremor-default text-tremor-content">{description}</p>
      {children ? (
        <div className="mt-6 flex flex-wrap items-center justify-center gap-3">{children}</div>
      ) : null}
    </Card>
  );
}
