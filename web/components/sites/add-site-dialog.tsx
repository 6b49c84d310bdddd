import { RiCheckboxCircleLine, RiCloseLine, RiSearchLine } from "@remixicon/react";
import { Button, Callout, Dialog, DialogPanel, NumberInput, TextInput } from "@tremor/react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { GeocodeResult } from "../../../schema/api/geocode";
import { type ProviderId, providerIds } from "../../../schema/api/providers";
import { errorDescription } from "../../lib/error-messages";
import { formatNumber, localeFor } from "../../lib/format";
import { providerNames } from "../../lib/providers";
import { useGeocodeMutation } from "../../lib/queries/geocode";
import { useCreateSiteMutation } from "../../lib/queries/sites";
import { toast } from "../../lib/toast";
import { Field } from "../ui/field";
import { NativeSelect } from "../ui/native-select";

interface AddSiteDialogProps {
  open: boolean;
  onClose: () => void;
}

interface AddSiteForm {
  name: string;
  address: string;
  country: string;
  provider: ProviderId | "";
  capacityKw: string;
}

const emptyForm: AddSiteForm = { name: "", address: "", country: "", provider: "", capacityKw: "" };

/**
 * Open, look the address up, the location is verified, submit. Submit is refused
 * until the address is verified; editing the address or country clears the verification.
 */
export function AddSiteDialog({ open, onClose }: AddSiteDialogProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const id = useId();
  const [form, setForm] = useState<AddSiteForm>(emptyForm);
  const [verified, setVerified] = useState<GeocodeResult | null>(null);
  const geocode = useGeocodeMutation();
  const createSite = useCreateSiteMutation();

  const set = <K extends keyof AddSiteForm>(key: K, value: AddSiteForm[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    if (key === "address" || key === "country") setVerified(null);
  };

  const close = () => {
    setForm(emptyForm);
    setVerified(null);
    geocode.reset();
    createSite.reset();
    onClose();
  };

  const toastAddressRequired = () =>
    toast.error(t("sites.add.addressRequired"), { description: t("sites.add.addressRequiredBody") });

  const search = () => {
    const address = form.address.trim();
    if (!address) return toastAddressRequired();
    const country = form.country.trim();
    geocode.mutate(country ? { address, country } : { address }, {
      onSuccess: (result) => {
        setVerified(result);
        toast.success(t("sites.add.addressFound"), {
          description: t("sites.add.addressFoundBody", { address: result.formattedAddress }),
        });
      },
      onError: (error) => {
        setVerified(null);
        toast.error(t("sites.add.addressNotFound"), {
          description: errorDescription(error, t("sites.add.addressNotFoundDefault")),
        });
      },
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.address.trim()) return toastAddressRequired();
    if (!verified) {
      return toast.error(t("sites.add.verificationRequired"), {
        description: t("sites.add.verificationRequiredBody"),
      });
    }
    if (!form.provider) return;
    const capacity = form.capacityKw.trim();
    createSite.mutate(
      {
        name: form.name.trim(),
        address: form.address.trim(),
        location: verified.formattedAddress,
        latitude: String(verified.latitude),
        longitude: String(verified.longitude),
        city: verified.city,
        state: verified.state,
        country: verified.country,
        provider: form.provider,
        ...(capacity ? { capacity } : {}),
      },
      {
        onSuccess: () => {
          toast.success(t("sites.add.created"), { description: t("sites.add.createdBody") });
          close();
        },
        onError: (error) =>
          toast.error(t("sites.add.createFailed"), {
            description: errorDescription(error, t("sites.add.createFailedDefault")),
          }),
      },
    );
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby={`${id}-title`} className="fixed inset-0">
      <DialogPanel className="max-w-lg">
        <div className="mb-4 flex items-start justify-between gap-4">
          <div>
            <h2 id={`${id}-title`} className="text-tremor-title font-semibold text-tremor-content-strong">
              {t("sites.add.title")}
            </h2>
            <p className="text-tremor-default text-tremor-content">{t("sites.add.description")}</p>
          </div>
          <button
            type="button"
            onClick={close}
            aria-label={t("common.close")}
            className="rounded-tremor-small p-1 text-tremor-content hover:bg-tremor-background-subtle"
          >
            <RiCloseLine className="h-5 w-5" aria-hidden="true" />
          </button>
        </div>
        <form onSubmit={submit} className="space-y-4" aria-labelledby={`${id}-title`}>
          <Field label={t("sites.add.name")} htmlFor={`${id}-name`}>
            <TextInput
              id={`${id}-name`}
              required
              value={form.name}
              onValueChange={(value: string) => set("name", value)}
              placeholder={t("sites.add.namePlaceholder")}
            />
          </Field>
          <Field label={t("sites.add.address")} htmlFor={`${id}-address`} hint={t("sites.add.addressHint")}>
            <div className="flex gap-2">
              <TextInput
                id={`${id}-address`}
                value={form.address}
                onValueChange={(value: string) => set("address", value)}
                placeholder={t("sites.add.addressPlaceholder")}
                onKeyDown={(event) => {
                  // Enter in the address field looks it up rather than submitting the form.
                  if (event.key === "Enter") {
                    event.preventDefault();
                    search();
                  }
                }}
              />
              <Button
                type="button"
                variant="secondary"
                icon={RiSearchLine}
                onClick={search}
                loading={geocode.isPending}
              >
                {t("sites.add.search")}
              </Button>
            </div>
          </Field>
          <Field label={t("sites.add.country")} htmlFor={`${id}-country`} hint={t("sites.add.countryHint")}>
            <TextInput
              id={`${id}-country`}
              value={form.country}
              onValueChange={(value: string) => set("country", value)}
              placeholder="US, GB, AU"
              maxLength={40}
            />
          </Field>
          {verified ? (
            <Callout title={t("sites.add.verified")} icon={RiCheckboxCircleLine} color="emerald">
              <p>{verified.formattedAddress}</p>
              <p className="mt-1 text-tremor-label">
                {t("sites.add.coordinates", {
                  latitude: formatNumber(verified.latitude, locale, 4),
                  longitude: formatNumber(verified.longitude, locale, 4),
                })}
              </p>
            </Callout>
          ) : null}
          <Field label={t("sites.add.provider")} htmlFor={`${id}-provider`}>
            <NativeSelect
              id={`${id}-provider`}
              required
              value={form.provider}
              onChange={(event) => {
                const value = providerIds.find((provider) => provider === event.target.value);
                set("provider", value ?? "");
              }}
            >
              <option value="">{t("sites.add.chooseProvider")}</option>
              {providerIds.map((provider) => (
                <option key={provider} value={provider}>
                  {providerNames[provider]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field
            label={t("sites.add.capacity")}
            htmlFor={`${id}-capacity`}
            hint={t("sites.add.capacityHint")}
          >
            <NumberInput
              id={`${id}-capacity`}
              value={form.capacityKw}
              onChange={(event) => set("capacityKw", event.target.value)}
              step="0.1"
              min={0}
              enableStepper={false}
              placeholder="100.5"
            />
          </Field>
          <div className="flex justify-end gap-2 border-t border-tremor-border pt-4">
            <Button type="button" variant="secondary" onClick={close}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" loading={createSite.isPending}>
              {t("sites.add.submit")}
            </Button>
          </div>
        </form>
      </DialogPanel>
    </Dialog>
  );
}
