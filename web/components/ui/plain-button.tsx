import type { ButtonHTMLAttributes } from "react";
import { type ButtonVariant, buttonClasses } from "./button-styles";

interface PlainButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** While true the button is disabled and says `loadingText`. */
  loading?: boolean;
  loadingText?: string;
}

/** Tremor's Button look without Tremor, for the pages shown before sign-in (their JavaScript budget). */
export function PlainButton({
  variant = "primary",
  loading = false,
  loadingText,
  className = "",
  type = "button",
  disabled,
  children,
  ...props
}: PlainButtonProps) {
  return (
    <button
      type={type}
      className={buttonClasses(variant, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...props}
    >
      {loading ? (
        <>
          <span
            aria-hidden="true"
            className="h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
          />
          {loadingText ?? children}
        </>
      ) : (
        children
      )}
    </button>
  );
}
