import type { ReactNode } from "react";

interface FieldProps {
  label: string;
  htmlFor: string;
  hint?: string;
  children: ReactNode;
}

/** A label above its control, with an optional hint; the label is what tests and screen readers find. */
export function Field({ label, htmlFor, hint, children }: FieldProps) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={htmlFor} className="block text-tremor-default font-medium text-tremor-content-strong">
        {label}
      </label>
      {children}
      {hint ? <p className="text-tremor-label text-tremor-content">{hint}</p> : null}
    </div>
  );
}
