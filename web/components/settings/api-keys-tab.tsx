import { useQuery } from "@tanstack/react-query";
import { Button, TextInput } from "@tremor/react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApiKeyScope, CreatedApiKey } from "../../../schema/api/api-keys";
import { errorDescription } from "../../lib/error-messages";
import { formatDateTime, localeFor } from "../../lib/format";
import {
  apiKeysQueryOptions,
  useCreateApiKeyMutation,
  useRevokeApiKeyMutation,
} from "../../lib/queries/api-keys";
import { toast } from "../../lib/toast";
import { ErrorState } from "../ui/error-state";
import { Field } from "../ui/field";
import { NativeSelect } from "../ui/native-select";
import { Spinner } from "../ui/spinner";

/** Organisation API keys: create (the key is shown once), list and revoke. */
export function ApiKeysTab() {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const keys = useQuery(apiKeysQueryOptions());
  const create = useCreateApiKeyMutation();
  const revoke = useRevokeApiKeyMutation();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiKeyScope>("read");
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, scope },
      {
        onSuccess: (key) => {
          setCreated(key);
          setName("");
        },
        onError: (error) => toast.error(errorDescription(error, t("errors.unknownError"))),
      },
    );
  };

  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end">
        <Field label={t("settings.apiKeys.name")} htmlFor="api-key-name">
          <TextInput id="api-key-name" value={name} onValueChange={setName} required maxLength={100} />
        </Field>
        <Field label={t("settings.apiKeys.scope")} htmlFor="api-key-scope">
          <NativeSelect
            id="api-key-scope"
            value={scope}
            onChange={(event) => setScope(event.target.value as ApiKeyScope)}
          >
            <option value="read">{t("settings.apiKeys.scopes.read")}</option>
            <option value="write">{t("settings.apiKeys.scopes.write")}</option>
          </NativeSelect>
        </Field>
        <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
          {t("settings.apiKeys.create")}
        </Button>
      </form>
      {created ? (
        <div role="status" className="rounded-tremor-default border border-amber-300 bg-amber-50 p-3">
          <p className="text-tremor-default font-medium">{t("settings.apiKeys.shownOnce")}</p>
          <code className="mt-2 block break-all text-tremor-default">{created.key}</code>
        </div>
      ) : null}
      {keys.isPending ? (
        <Spinner label={t("common.loading")} />
      ) : keys.isError ? (
        <ErrorState
          title={t("settings.apiKeys.loadFailed")}
          error={keys.error}
          onRetry={() => keys.refetch()}
        />
      ) : keys.data.length === 0 ? (
        <p className="text-tremor-default text-tremor-content">{t("settings.apiKeys.empty")}</p>
      ) : (
        <ul className="divide-y divide-tremor-border" aria-label={t("settings.tabs.apiKeys")}>
          {keys.data.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                <span className="font-medium text-tremor-content-strong">{key.name}</span>{" "}
                <code className="text-tremor-label">{key.prefix}…</code>{" "}
                <span className="text-tremor-label text-tremor-content">
                  {t(`settings.apiKeys.scopes.${key.scope}`)} ·{" "}
                  {key.lastUsedAt
                    ? t("settings.apiKeys.lastUsed", { time: formatDateTime(key.lastUsedAt, { locale }) })
                    : t("settings.apiKeys.neverUsed")}
                </span>
              </span>
              <Button
                variant="secondary"
                color="red"
                size="xs"
                loading={revoke.isPending && revoke.variables === key.id}
                onClick={() =>
                  revoke.mutate(key.id, {
                    onError: (error) => toast.error(errorDescription(error, t("errors.unknownError"))),
                  })
                }
              >
                {t("settings.apiKeys.revoke", { name: key.name })}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
