import { RiEyeLine, RiEyeOffLine } from "@remixicon/react";
import { forwardRef, type InputHTMLAttributes, useState } from "react";
import { useTranslation } from "react-i18next";

type PasswordInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & {
  onValueChange?: (value: string) => void;
};

/**
 * Tremor's password field labels its reveal button "Show Password", so a search for the field by
 * its label "Password" finds two elements; this one names the button without repeating the label.
 */
export const PasswordInput = forwardRef<HTMLInputElement, PasswordInputProps>(
  ({ className = "", onValueChange, onChange, ...props }, ref) => {
    const { t } = useTranslation();
    const [visible, setVisible] = useState(false);
    return (
      <div className="relative">
        <input
          ref={ref}
          type={visible ? "text" : "password"}
          className={`w-full rounded-tremor-default border border-tremor-border bg-tremor-background py-2 pl-3 pr-10 text-tremor-default text-tremor-content-emphasis shadow-tremor-input outline-none placeholder:text-tremor-content focus:border-tremor-brand-subtle focus:ring-2 focus:ring-tremor-brand-muted ${className}`}
          onChange={(event) => {
            onChange?.(event);
            onValueChange?.(event.target.value);
          }}
          {...props}
        />
        <button
          type="button"
          onClick={() => setVisible((current) => !current)}
          aria-label={visible ? t("common.hideCharacters") : t("common.showCharacters")}
          aria-pressed={visible}
          className="absolute inset-y-0 right-0 flex items-center px-3 text-tremor-content-subtle hover:text-tremor-content"
        >
          {visible ? (
            <RiEyeOffLine className="h-5 w-5" aria-hidden="true" />
          ) : (
            <RiEyeLine className="h-5 w-5" aria-hidden="true" />
          )}
        </button>
      </div>
    );
  },
);
PasswordInput.displayName = "PasswordInput";
