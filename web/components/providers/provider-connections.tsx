import { RiInformationLine, RiLockLine, RiPlugLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Callout, Card } from "@tremor/react";
import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { can } from "../../../schema/roles";
import { actorFromProfile } from "../../lib/permissions";
import { credentialsQueryOptions, providersQueryOptions } from "../../lib/queries/providers";
import { useCurrentProfile } from "../profile-context";
import { EmptyState } from "../ui/empty-state";
import { ErrorState } from "../ui/error-state";
import { Spinner } from "../ui/spinner";
import { ConfiguredProviderItem } from "./configured-provider-item";
import { CredentialForm } from "./credential-form";
import { MeteronlineImport } from "./meteronline-import";
import { ProviderPicker } from "./provider-picker";

/** Sandbox credentials are documented for local runs only; a deployed site does not mention them. */
function isLocalRun(): boolean {
  if (import.meta.env.DEV) return true;
  return (
    typeof window !== "undefined" && ["localhost", "127.0.0.1", "[::1]"].includes(window.location.hostname)
  );
}

/**
 * Settings → Provider Credentials: connect a provider with a form built from its schema, then
 * follow, sync, edit or remove each connection.
 */
export function ProviderConnections() {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  const actor = actorFromProfile(profile);
  const canRead = can(actor, "org:read");
  const canManage = can(actor, "credentials:manage");
  const id = useId();
  const formAreaRef = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState("");

  const providersQuery = useQuery({ ...providersQueryOptions(), enabled: canRead });
  const credentialsQuery = useQuery({ ...credentialsQueryOptions(), enabled: canRead });

  if (!canRead) {
    return (
      <EmptyState
        icon={RiLockLine}
        title={t("errors.noAccessTitle")}
        description={t("settings.providers.noOrganisation")}
      />
    );
  }

  const providers = providersQuery.data ?? [];
  const credentials = credentialsQuery.data ?? [];
  const configured = new Set<string>(credentials.map((credential) => credential.provider));
  const selectedProvider = providers.find((provider) => provider.name === selected);

  const choose = (name: string) => {
    setSelected(name);
    // The form opens above the list; bring it into view for Edit and Import.
    requestAnimationFrame(() =>
      formAreaRef.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" }),
    );
  };

  return (
    <div className="space-y-6">
      {canManage ? (
        <Card>
          <h3 className="text-tremor-title font-semibold text-tremor-content-strong">
            {t("settings.providers.connectTitle")}
          </h3>
          <p className="text-tremor-default text-tremor-content">
            {t("settings.providers.connectDescription")}
          </p>
          <div ref={formAreaRef} className="mt-4 space-y-4">
            <ProviderPicker
              id={`${id}-provider`}
              providersQuery={providersQuery}
              value={selected}
              configured={configured}
              onChange={setSelected}
            />
            {selectedProvider ? (
              <>
                <p className="text-tremor-default text-tremor-content">{selectedProvider.description}</p>
                <CredentialForm
                  // A fresh form (and fresh values) for each provider.
                  key={selectedProvider.name}
                  provider={selectedProvider}
                  replacing={configured.has(selectedProvider.name)}
                  onSaved={() => setSelected("")}
                  onCancel={() => setSelected("")}
                />
              </>
            ) : null}
          </div>
          {isLocalRun() ? (
            <p className="mt-4 flex items-center gap-1.5 border-t border-tremor-border pt-3 text-tremor-label text-tremor-content">
              <RiInformationLine className="h-4 w-4 shrink-0" aria-hidden="true" />
              {t("settings.providers.sandboxHint")}
            </p>
          ) : null}
        </Card>
      ) : (
        <Callout title={t("settings.providers.readOnlyTitle")} icon={RiLockLine} color="gray">
          {t("settings.providers.readOnlyBody")}
        </Callout>
      )}

      {canManage && selectedProvider?.ingestion === "csv-import" ? <MeteronlineImport /> : null}

      <Card>
        <h3 className="text-tremor-title font-semibold text-tremor-content-strong">
          {t("settings.providers.configuredTitle")}
        </h3>
        <p className="text-tremor-default text-tremor-content">
          {t("settings.providers.configuredDescription")}
        </p>
        <div className="mt-4">
          {credentialsQuery.isPending ? (
            <Spinner className="py-6" />
          ) : credentialsQuery.isError ? (
            <ErrorState
              title={t("settings.providers.credentialsFailed")}
              error={credentialsQuery.error}
              onRetry={() => void credentialsQuery.refetch()}
            />
          ) : credentials.length === 0 ? (
            <div className="flex flex-col items-center py-6 text-center">
              <RiPlugLine className="h-6 w-6 text-tremor-content-subtle" aria-hidden="true" />
              <p className="mt-2 text-tremor-default font-medium text-tremor-content-strong">
                {t("settings.providers.noConfigured")}
              </p>
              <p className="text-tremor-default text-tremor-content">
                {canManage
                  ? t("settings.providers.noConfiguredBody")
                  : t("settings.providers.noConfiguredReadOnly")}
              </p>
            </div>
          ) : (
            <ul
              aria-label={t("settings.providers.configuredTitle")}
              className="divide-y divide-tremor-border"
            >
              {credentials.map((credential) => (
                <ConfiguredProviderItem
                  key={credential.provider}
                  credential={credential}
                  provider={providers.find((provider) => provider.name === credential.provider)}
                  canManage={canManage}
                  onEdit={() => choose(credential.provider)}
                  onImport={() => choose(credential.provider)}
                />
              ))}
            </ul>
          )}
        </div>
      </Card>
    </div>
  );
}
