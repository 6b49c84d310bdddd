import { useQuery } from "@tanstack/react-query";
import { Button, TextInput } from "@tremor/react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  API_KEY_DEFAULT_TTL_DAYS,
  type ApiKey,
  type ApiKeyScope,
  type CreatedApiKey,
} from "../../../schema/api/api-keys";
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

/** The lifetimes offered at creation; the API takes any number of days up to two years. */
const EXPIRY_DAYS = [30, 90, 365, 730] as const;
type ExpiryDays = (typeof EXPIRY_DAYS)[number];

/** A key's scope and areas, when it expires (or expired) and when it was last used. */
function KeyFacts({ apiKey, now }: { apiKey: ApiKey; now: number }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const expired = Date.parse(apiKey.expiresAt) <= now;
  const areas = apiKey.permissions.map((area) => t(`settings.apiKeys.areas.${area}`)).join(", ");
  const expiry = t(expired ? "settings.apiKeys.expired" : "settings.apiKeys.expires", {
    time: formatDateTime(apiKey.expiresAt, { locale }),
  });
  return (
    <span className="text-tremor-label text-tremor-content">
      {t(`settings.apiKeys.scopes.${apiKey.scope}`)}
      {areas ? ` (${areas})` : ""} ·{" "}
      <span className={expired ? "font-medium text-red-700" : undefined}>{expiry}</span> ·{" "}
      {apiKey.lastUsedAt
        ? t("settings.apiKeys.lastUsed", { time: formatDateTime(apiKey.lastUsedAt, { locale }) })
        : t("settings.apiKeys.neverUsed")}
    </span>
  );
}

/** Organisation API keys: create (the key is shown once), list and revoke. */
export function ApiKeysTab() {
  const { t } = useTranslation();
  const keys = useQuery(apiKeysQueryOptions());
  const create = useCreateApiKeyMutation();
  const revoke = useRevokeApiKeyMutation();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiKeyScope>("read");
  const [expiresInDays, setExpiresInDays] = useState<ExpiryDays>(API_KEY_DEFAULT_TTL_DAYS);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, scope, expiresInDays },
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
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_10rem_8rem_auto] sm:items-end">
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
        <Field label={t("settings.apiKeys.expiresIn")} htmlFor="api-key-expiry">
          <NativeSelect
            id="api-key-expiry"
            value={String(expiresInDays)}
            onChange={(event) => setExpiresInDays(Number(event.target.value) as ExpiryDays)}
          >
            {EXPIRY_DAYS.map((days) => (
              <option key={days} value={days}>
                {t(`settings.apiKeys.expiries.days${days}`)}
              </option>
            ))}
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
                <KeyFacts apiKey={key} now={keys.dataUpdatedAt} />
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
