import { forwardRef, type InputHTMLAttributes } from "react";

/** Tremor's TextInput has no date type; this native date field matches its look. */
export const DateInput = forwardRef<HTMLInputElement, Omit<InputHTMLAttributes<HTMLInputElement>, "type">>(
  ({ className = "", ...props }, ref) => (
    <input
      ref={ref}
      type="date"
      className={`w-full rounded-tremor-default border border-tremor-border bg-tremor-background px-3 py-2 text-tremor-default text-tremor-content-emphasis shadow-tremor-input outline-none focus:border-tremor-brand-subtle focus:ring-2 focus:ring-tremor-brand-muted ${className}`}
      {...props}
    />
  ),
);
DateInput.displayName = "DateInput";
