import { RiInformationLine, RiPlugLine, RiSaveLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Button, Callout } from "@tremor/react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CredentialField, Provider } from "../../../schema/api/providers";
import { errorDescription, missingFieldLabels } from "../../lib/error-messages";
import {
  type CredentialValues,
  providerSchemaQueryOptions,
  SessionExpiredError,
  useSaveCredentialsMutation,
  useTestConnectionMutation,
} from "../../lib/queries/providers";
import { toast } from "../../lib/toast";
import { ErrorState } from "../ui/error-state";
import { Spinner } from "../ui/spinner";
import { CredentialFieldInput } from "./credential-field-input";
import { isUnauthorized, toastMissingFields, toastSessionExpired } from "./failure-messages";

interface CredentialFormProps {
  provider: Provider;
  /** The provider is already connected: saving replaces credentials that are never shown again. */
  replacing: boolean;
  onSaved: () => void;
  onCancel: () => void;
}

/** The credential form of one provider, built from its schema. */
export function CredentialForm(props: CredentialFormProps) {
  const { t } = useTranslation();
  const schemaQuery = useQuery(providerSchemaQueryOptions(props.provider.name));
  if (schemaQuery.isPending) return <Spinner label={t("settings.providers.loadingForm")} className="py-6" />;
  if (schemaQuery.isError) {
    return (
      <ErrorState
        title={t("settings.providers.schemaFailed")}
        error={schemaQuery.error}
        onRetry={() => void schemaQuery.refetch()}
      />
    );
  }
  return <CredentialFields {...props} fields={schemaQuery.data.fields} />;
}

const initialValues = (fields: CredentialField[]): CredentialValues =>
  Object.fromEntries(fields.map((field) => [field.field, field.defaultValue ?? ""]));

/** Blank optional fields are left out: the server then applies its own default. */
const valuesToSend = (values: CredentialValues): CredentialValues =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== ""));

function CredentialFields({
  provider,
  replacing,
  onSaved,
  onCancel,
  fields,
}: CredentialFormProps & { fields: CredentialField[] }) {
  const { t } = useTranslation();
  const id = useId();
  const [values, setValues] = useState<CredentialValues>(() => initialValues(fields));

  const test = useTestConnectionMutation({
    onSuccess: (result) =>
      toast.success(t("settings.providers.toasts.testSuccess"), {
        description: t("settings.providers.toasts.testSuccessBody", {
          count: result.sitesFound,
          message: result.message,
        }),
      }),
    onError: (error) => {
      if (isUnauthorized(error)) return toastSessionExpired(t);
      const missing = missingFieldLabels(error);
      if (missing) return toastMissingFields(t, missing);
      toast.error(t("settings.providers.toasts.testFailed"), {
        description: errorDescription(error, t("settings.providers.toasts.testFailedDefault")),
      });
    },
  });

  const save = useSaveCredentialsMutation({
    onSuccess: (result) => {
      const description = result.message || t("settings.providers.toasts.savedDefault");
      // Saved either way; a failed first sync is worth a second look.
      if (result.sync?.status === "failed")
        toast.warning(t("settings.providers.toasts.saved"), { description });
      else toast.success(t("settings.providers.toasts.saved"), { description });
      onSaved();
    },
    onError: (error) => {
      if (error instanceof SessionExpiredError) return toastSessionExpired(t);
      const missing = missingFieldLabels(error);
      if (missing) return toastMissingFields(t, missing);
      toast.error(t("settings.providers.toasts.saveFailed"), {
        description: errorDescription(error, t("settings.providers.toasts.saveFailedDefault")),
      });
    },
  });

  const busy = test.isPending || save.isPending;

  /** Every required field must be non-empty after trimming. */
  const checkRequired = (): boolean => {
    const missing = fields.filter((field) => field.required && !(values[field.field] ?? "").trim());
    if (missing.length === 0) return true;
    toastMissingFields(
      t,
      missing.map((field) => field.label),
    );
    return false;
  };

  const onTest = () => {
    if (!checkRequired()) return;
    test.mutate({ provider: provider.name, credentials: valuesToSend(values) });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!checkRequired()) return;
    save.mutate({ provider: provider.name, credentials: valuesToSend(values) });
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={t("settings.providers.formLabel", { provider: provider.displayName })}
      className="space-y-4"
    >
      {replacing ? (
        <Callout title={t("settings.providers.replacingTitle")} icon={RiInformationLine} color="blue">
          {t("settings.providers.replacingBody")}
        </Callout>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        {fields.map((field) => (
          <div key={field.field} className={field.type === "textarea" ? "md:col-span-2" : undefined}>
            <CredentialFieldInput
              field={field}
              id={`${id}-${field.field}`}
              value={values[field.field] ?? ""}
              disabled={busy}
              onChange={(value) => setValues((current) => ({ ...current, [field.field]: value }))}
            />
          </div>
        ))}
      </div>
      {fields.some((field) => field.required) ? (
        <p className="text-tremor-label text-tremor-content">{t("settings.providers.requiredLegend")}</p>
      ) : null}
      {save.error instanceof SessionExpiredError ? (
        <p role="alert" className="text-tremor-default text-red-600">
          {t("settings.providers.toasts.sessionExpiredError")}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center justify-end gap-3">
        <Button type="button" variant="light" onClick={onCancel} disabled={save.isPending}>
          {t("common.cancel")}
        </Button>
        {provider.ingestion === "api" ? (
          <Button
            type="button"
            variant="secondary"
            icon={RiPlugLine}
            onClick={onTest}
            loading={test.isPending}
            loadingText={t("settings.providers.testing")}
            disabled={busy}
          >
            {t("settings.providers.testConnection")}
          </Button>
        ) : null}
        <Button
          type="submit"
          icon={RiSaveLine}
          loading={save.isPending}
          loadingText={
            provider.ingestion === "api"
              ? t("settings.providers.savingAndSyncing")
              : t("settings.providers.saving")
          }
          disabled={busy}
        >
          {t("settings.providers.saveCredentials")}
        </Button>
      </div>
    </form>
  );
}
