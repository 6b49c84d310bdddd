import { forwardRef, type SelectHTMLAttributes } from "react";

/** A native select styled like Tremor's inputs: keyboard, screen-reader and test friendly. */
export const NativeSelect = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(
  ({ className = "", ...props }, ref) => (
    <select
      ref={ref}
      className={`w-full rounded-tremor-default border border-tremor-border bg-tremor-background px-3 py-2 text-tremor-default text-tremor-content-emphasis shadow-tremor-input outline-none focus:border-tremor-brand-subtle focus:ring-2 focus:ring-tremor-brand-muted disabled:cursor-not-allowed disabled:bg-tremor-background-subtle ${className}`}
      {...props}
    />
  ),
);
NativeSelect.displayName = "NativeSelect";
