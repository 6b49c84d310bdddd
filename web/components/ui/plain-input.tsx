import { forwardRef, type InputHTMLAttributes } from "react";

type PlainInputProps = InputHTMLAttributes<HTMLInputElement> & {
  onValueChange?: (value: string) => void;
};

/** Tremor's TextInput look without Tremor, for the pages shown before sign-in (their JavaScript budget). */
export const PlainInput = forwardRef<HTMLInputElement, PlainInputProps>(
  ({ className = "", onValueChange, onChange, type = "text", ...props }, ref) => (
    <input
      ref={ref}
      type={type}
      className={`w-full rounded-tremor-default border border-tremor-border bg-tremor-background px-3 py-2 text-tremor-default text-tremor-content-emphasis shadow-tremor-input outline-none placeholder:text-tremor-content focus:border-tremor-brand-subtle focus:ring-2 focus:ring-tremor-brand-muted read-only:bg-tremor-background-subtle ${className}`}
      onChange={(event) => {
        onChange?.(event);
        onValueChange?.(event.target.value);
      }}
      {...props}
    />
  ),
);
PlainInput.displayName = "PlainInput";
