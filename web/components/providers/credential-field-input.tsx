import { Textarea, TextInput } from "@tremor/react";
import { useTranslation } from "react-i18next";
import type { CredentialField } from "../../../schema/api/providers";
import { NativeSelect } from "../ui/native-select";
import { PasswordInput } from "../ui/password-input";

interface CredentialFieldInputProps {
  field: CredentialField;
  id: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}

/** One schema field as its control: secrets masked, choices as a select, long lists as a textarea. */
export function CredentialFieldInput({ field, id, value, onChange, disabled }: CredentialFieldInputProps) {
  const { t } = useTranslation();
  const hintId = field.description ? `${id}-hint` : undefined;
  const common = {
    id,
    name: field.field,
    disabled,
    "aria-required": field.required,
    "aria-describedby": hintId,
    // Credentials are not the browser's to remember or to fill in from a saved login.
    autoComplete: "off",
  };

  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-tremor-default font-medium text-tremor-content-strong">
        {field.label}
        {field.required ? (
          <span className="ml-0.5 text-red-600" aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      {field.type === "password" ? (
        <PasswordInput
          {...common}
          autoComplete="new-password"
          spellCheck={false}
          placeholder={field.placeholder}
          value={value}
          onValueChange={onChange}
        />
      ) : field.type === "select" ? (
        <NativeSelect {...common} value={value} onChange={(event) => onChange(event.target.value)}>
          {field.required && value !== "" ? null : (
            <option value="">{t("settings.providers.chooseOption")}</option>
          )}
          {(field.options ?? []).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      ) : field.type === "textarea" ? (
        <Textarea
          {...common}
          rows={3}
          spellCheck={false}
          placeholder={field.placeholder}
          value={value}
          onValueChange={(next: string) => onChange(next)}
        />
      ) : (
        <TextInput
          {...common}
          type={field.type}
          spellCheck={false}
          placeholder={field.placeholder}
          value={value}
          onValueChange={onChange}
        />
      )}
      {field.description ? (
        <p id={hintId} className="text-tremor-label text-tremor-content">
          {field.description}
        </p>
      ) : null}
    </div>
  );
}
