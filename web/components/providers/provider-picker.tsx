import type { UseQueryResult } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Provider } from "../../../schema/api/providers";
import { ErrorState } from "../ui/error-state";
import { Field } from "../ui/field";
import { NativeSelect } from "../ui/native-select";

interface ProviderPickerProps {
  id: string;
  providersQuery: UseQueryResult<Provider[]>;
  /** The chosen provider's name, or "" when none is chosen. */
  value: string;
  configured: ReadonlySet<string>;
  onChange: (name: string) => void;
}

/** A provider is chosen by name; "Loading providers..." and "No providers available" hold the place. */
export function ProviderPicker({ id, providersQuery, value, configured, onChange }: ProviderPickerProps) {
  const { t } = useTranslation();
  const providers = providersQuery.data ?? [];
  const placeholder = providersQuery.isPending
    ? t("settings.providers.loadingProviders")
    : providers.length === 0
      ? t("settings.providers.empty")
      : t("settings.providers.chooseProvider");

  return (
    <div className="space-y-3">
      <Field label={t("settings.providers.provider")} htmlFor={id}>
        <NativeSelect
          id={id}
          value={value}
          disabled={providers.length === 0}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">{placeholder}</option>
          {providers.map((provider) => (
            <option key={provider.name} value={provider.name}>
              {configured.has(provider.name)
                ? t("settings.providers.optionConnected", { provider: provider.displayName })
                : provider.displayName}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {providersQuery.isError ? (
        <ErrorState
          title={t("settings.providers.providersFailed")}
          error={providersQuery.error}
          onRetry={() => void providersQuery.refetch()}
        />
      ) : null}
    </div>
  );
}
