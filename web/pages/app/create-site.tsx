import { RiArrowLeftLine, RiCheckboxCircleLine, RiPlugLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Button, Callout, Card, TextInput } from "@tremor/react";
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { GeocodeResult } from "../../../schema/api/geocode";
import type { AvailableSystem } from "../../../schema/api/sites";
import { can } from "../../../schema/roles";
import { useCurrentProfile } from "../../components/profile-context";
import { useSettings } from "../../components/settings/settings-context";
import { AddressAutocomplete } from "../../components/sites/address-autocomplete";
import { NoOrganisation } from "../../components/sites/no-organisation";
import { NoSystemsHint, SystemList, totalCapacityKw } from "../../components/sites/system-lists";
import { useYieldEstimate, YieldEstimate } from "../../components/sites/yield-estimate";
import { ButtonLink } from "../../components/ui/button-link";
import { EmptyState } from "../../components/ui/empty-state";
import { ErrorState } from "../../components/ui/error-state";
import { Field } from "../../components/ui/field";
import { PageHeader } from "../../components/ui/page-header";
import { Spinner } from "../../components/ui/spinner";
import { errorDescription } from "../../lib/error-messages";
import { formatCapacityKw, localeFor } from "../../lib/format";
import { actorFromProfile } from "../../lib/permissions";
import { availableSystemsQueryOptions, useCreateSiteWithSystemsMutation } from "../../lib/queries/sites";
import { toast } from "../../lib/toast";

/**
 * Create New Site: a name, an address picked from the suggestions,
 * systems moved from the available list to the configured one (capacity follows), the yield
 * estimate, then POST /api/sites and one POST /api/sites/{id}/systems per system.
 */
export function CreateSitePage() {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  const canManage = can(actorFromProfile(profile), "sites:manage");
  const cancel = (
    <ButtonLink to="/app/site-management" variant="secondary">
      <RiArrowLeftLine className="h-4 w-4" aria-hidden="true" />
      {t("common.cancel")}
    </ButtonLink>
  );
  return (
    <>
      <PageHeader title={t("pages.createSite")} description={t("createSite.subtitle")} actions={cancel} />
      {!can(actorFromProfile(profile), "org:read") ? (
        <NoOrganisation />
      ) : canManage ? (
        <CreateSiteWizard />
      ) : (
        <EmptyState
          icon={RiPlugLine}
          title={t("errors.noAccessTitle")}
          description={t("createSite.readOnly")}
        />
      )}
    </>
  );
}

function CreateSiteWizard() {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const id = useId();
  const navigate = useNavigate();
  const { openSettings } = useSettings();
  const [name, setName] = useState("");
  const [address, setAddress] = useState("");
  const [place, setPlace] = useState<GeocodeResult | null>(null);
  const [configured, setConfigured] = useState<AvailableSystem[]>([]);
  const availableQuery = useQuery(availableSystemsQueryOptions());
  const create = useCreateSiteWithSystemsMutation();

  const loadFailed = availableQuery.isError;
  useEffect(() => {
    if (loadFailed) {
      toast.error(t("createSite.loadingFailed"), { description: t("createSite.loadingFailedBody") });
    }
  }, [loadFailed, t]);

  const configuredIds = new Set(configured.map((system) => system.id));
  const available = (availableQuery.data ?? []).filter((system) => !configuredIds.has(system.id));
  const capacityKw = totalCapacityKw(configured);
  const estimateInput = useMemo(
    () =>
      place && capacityKw > 0 ? { latitude: place.latitude, longitude: place.longitude, capacityKw } : null,
    [place, capacityKw],
  );
  const estimate = useYieldEstimate(estimateInput);

  const missing = [
    ...(name.trim() ? [] : [t("createSite.missing.name")]),
    ...(place ? [] : [t("createSite.missing.address")]),
    ...(configured.length > 0 ? [] : [t("createSite.missing.systems")]),
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const [first] = configured;
    if (!name.trim() || !place || !first) {
      toast.error(t("createSite.missingInfo"), {
        description: t("createSite.missingInfoBody", { fields: missing.join(", ") }),
      });
      return;
    }
    const siteName = name.trim();
    create.mutate(
      {
        site: {
          name: siteName,
          address: address.trim() || place.formattedAddress,
          location: place.formattedAddress,
          latitude: String(place.latitude),
          longitude: String(place.longitude),
          city: place.city,
          state: place.state,
          country: place.country,
          // No capacity: the site's capacity follows the systems attached to it, now and later.
          provider: first.provider,
          estimatedYield: estimate.data?.annualYield ?? null,
        },
        systems: configured.map((system) => ({
          systemName: system.name,
          provider: system.provider,
          providerId: system.providerId,
          ...(system.capacity === null ? {} : { capacity: String(system.capacity) }),
          systemType: system.type,
        })),
      },
      {
        onSuccess: ({ systemCount }) => {
          toast.success(t("createSite.created"), {
            description: t("createSite.createdBody", { name: siteName, systems: systemCount }),
          });
          void navigate({ to: "/app/site-management" });
        },
        onError: (error) =>
          toast.error(t("createSite.createFailed"), {
            description: errorDescription(error, t("createSite.createFailedDefault")),
          }),
      },
    );
  };

  let availableBody: ReactNode;
  if (availableQuery.isPending) {
    availableBody = <Spinner label={t("createSite.loadingSystems")} className="justify-start py-4" />;
  } else if (availableQuery.isError) {
    availableBody = (
      <ErrorState
        title={t("createSite.loadingFailed")}
        error={availableQuery.error}
        onRetry={() => void availableQuery.refetch()}
      />
    );
  } else if (availableQuery.data.length === 0) {
    availableBody = (
      <div className="space-y-3 rounded-tremor-default border border-dashed border-tremor-border px-4 py-6 text-center">
        <p className="font-medium text-tremor-content-strong">{t("createSite.emptyTitle")}</p>
        <p className="text-tremor-default text-tremor-content">{t("createSite.emptyBody")}</p>
        <Button type="button" variant="secondary" icon={RiPlugLine} onClick={() => openSettings("providers")}>
          {t("createSite.openProviderSettings")}
        </Button>
      </div>
    );
  } else if (available.length === 0) {
    availableBody = <NoSystemsHint text={t("createSite.allConfigured")} />;
  } else {
    availableBody = (
      <SystemList
        labelId={`${id}-available`}
        systems={available}
        action="add"
        onAction={(system) => setConfigured((current) => [...current, system])}
      />
    );
  }

  return (
    <form onSubmit={submit} className="space-y-6" aria-label={t("pages.createSite")}>
      <Card>
        <h2 className="text-tremor-title font-semibold text-tremor-content-strong">
          {t("createSite.detailsTitle")}
        </h2>
        <div className="mt-4 grid gap-4 md:grid-cols-2">
          <Field label={t("createSite.name")} htmlFor={`${id}-name`}>
            <TextInput
              id={`${id}-name`}
              value={name}
              onValueChange={setName}
              placeholder={t("createSite.namePlaceholder")}
              maxLength={120}
            />
          </Field>
          <Field label={t("createSite.address")} htmlFor={`${id}-address`} hint={t("createSite.addressHint")}>
            <AddressAutocomplete
              id={`${id}-address`}
              value={address}
              selected={place}
              onTextChange={(text) => {
                setAddress(text);
                setPlace(null);
              }}
              onSelect={(picked) => {
                setAddress(picked.formattedAddress);
                setPlace(picked);
              }}
            />
          </Field>
        </div>
        {place ? (
          <Callout
            className="mt-4"
            title={t("createSite.locationSet")}
            icon={RiCheckboxCircleLine}
            color="emerald"
          >
            {place.formattedAddress}
          </Callout>
        ) : null}
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <h2 id={`${id}-available`} className="text-tremor-title font-semibold text-tremor-content-strong">
            {t("createSite.availableTitle")}
          </h2>
          <p className="mb-4 text-tremor-label text-tremor-content">{t("createSite.availableDescription")}</p>
          {availableBody}
        </Card>
        <Card>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2
              id={`${id}-configured`}
              className="text-tremor-title font-semibold text-tremor-content-strong"
            >
              {t("createSite.configuredTitle")}
            </h2>
            <p className="text-tremor-default text-tremor-content">
              {t("createSite.totalCapacity")}{" "}
              <span data-testid="total-capacity" className="font-semibold text-tremor-content-strong">
                {formatCapacityKw(capacityKw, locale)}
              </span>
            </p>
          </div>
          <p className="mb-4 text-tremor-label text-tremor-content">
            {t("createSite.configuredDescription")}
          </p>
          {configured.length === 0 ? (
            <NoSystemsHint text={t("createSite.noneConfigured")} />
          ) : (
            <SystemList
              labelId={`${id}-configured`}
              systems={configured}
              action="remove"
              onAction={(system) =>
                setConfigured((current) => current.filter((candidate) => candidate.id !== system.id))
              }
            />
          )}
        </Card>
      </div>

      <YieldEstimate input={estimateInput} estimate={estimate} />

      <div className="flex flex-wrap items-center justify-end gap-3">
        {missing.length > 0 ? (
          <p id={`${id}-missing`} className="text-tremor-default text-tremor-content">
            {t("createSite.stillNeeded", { fields: missing.join(", ") })}
          </p>
        ) : null}
        <Button
          type="submit"
          disabled={missing.length > 0}
          loading={create.isPending}
          aria-describedby={missing.length > 0 ? `${id}-missing` : undefined}
        >
          {t("createSite.submit")}
        </Button>
      </div>
    </form>
  );
}
