import type { ComponentType, ReactNode } from "react";

interface NoticeProps {
  title: string;
  icon?: ComponentType<{ className?: string }>;
  children: ReactNode;
}

/** Tremor's blue Callout look without Tremor, for the pages shown before sign-in (their JavaScript budget). */
export function Notice({ title, icon: Icon, children }: NoticeProps) {
  return (
    <div className="rounded-tremor-default border-l-4 border-blue-700 bg-blue-50 py-3 pl-4 pr-3 text-tremor-default text-blue-700">
      <div className="flex items-start gap-1.5 font-medium">
        {Icon ? <Icon className="h-5 w-5 shrink-0" aria-hidden="true" /> : null}
        <h4>{title}</h4>
      </div>
      <div className="mt-2 overflow-y-auto">{children}</div>
    </div>
  );
}
