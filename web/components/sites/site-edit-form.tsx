import { Button, NumberInput, TextInput } from "@tremor/react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { EnhancedSite, UpdateSiteInput } from "../../../schema/api/sites";
import { errorDescription } from "../../lib/error-messages";
import { formatCapacityKw, localeFor } from "../../lib/format";
import { blankAsNull, fieldText, useOrientationDraft } from "../../lib/orientation-draft";
import { useUpdateSiteMutation } from "../../lib/queries/sites";
import { toast } from "../../lib/toast";
import { Field } from "../ui/field";

interface SiteEditFormProps {
  site: EnhancedSite;
  onDone: () => void;
}

/** Name, a manual capacity (blank follows the systems), tilt, azimuth and AC limit → PATCH. */
export function SiteEditForm({ site, onDone }: SiteEditFormProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const id = useId();
  const systemsCapacityKw = site.systems.reduce((sum, system) => sum + (system.capacity ?? 0), 0);
  const [initialCapacityKw] = useState(() =>
    site.capacitySource === "manual" ? fieldText(site.capacity) : "",
  );
  const [name, setName] = useState(site.name);
  const [capacityKw, setCapacityKw] = useState(initialCapacityKw);
  const draft = useOrientationDraft(site);
  const update = useUpdateSiteMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes: UpdateSiteInput = draft.changes();
    if (name.trim() !== site.name) changes.name = name.trim();
    if (capacityKw !== initialCapacityKw) changes.capacity = blankAsNull(capacityKw);
    if (Object.keys(changes).length === 0) return onDone();
    update.mutate(
      { siteId: site.id, changes },
      {
        onSuccess: () => {
          toast.success(t("siteManagement.toasts.updated"), {
            description: t("siteManagement.toasts.updatedBody", { name: name.trim() }),
          });
          onDone();
        },
        onError: (error) =>
          toast.error(t("siteManagement.toasts.updateFailed"), {
            description: errorDescription(error, t("siteManagement.toasts.updateFailedDefault")),
          }),
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      aria-label={t("siteManagement.edit.formLabel", { name: site.name })}
      className="space-y-4 rounded-tremor-default border border-tremor-border bg-tremor-background-muted p-4"
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <div className="sm:col-span-2 lg:col-span-1">
          <Field label={t("siteManagement.edit.name")} htmlFor={`${id}-name`}>
            <TextInput id={`${id}-name`} required value={name} onValueChange={setName} maxLength={120} />
          </Field>
        </div>
        <Field
          label={t("siteManagement.edit.capacity")}
          htmlFor={`${id}-capacity`}
          hint={t("siteManagement.edit.capacityHint", {
            capacity: formatCapacityKw(systemsCapacityKw, locale),
          })}
        >
          <NumberInput
            id={`${id}-capacity`}
            value={capacityKw}
            onChange={(event) => setCapacityKw(event.target.value)}
            step="0.1"
            min={0}
            enableStepper={false}
            placeholder={String(systemsCapacityKw)}
          />
        </Field>
        <Field label={t("siteManagement.edit.tilt")} htmlFor={`${id}-tilt`}>
          <NumberInput
            id={`${id}-tilt`}
            value={draft.tiltDeg}
            onChange={(event) => draft.setTiltDeg(event.target.value)}
            step="1"
            min={0}
            max={90}
            enableStepper={false}
            placeholder="35"
          />
        </Field>
        <Field label={t("siteManagement.edit.azimuth")} htmlFor={`${id}-azimuth`}>
          <NumberInput
            id={`${id}-azimuth`}
            value={draft.azimuthDeg}
            onChange={(event) => draft.setAzimuthDeg(event.target.value)}
            step="1"
            min={0}
            max={360}
            enableStepper={false}
            placeholder="180"
          />
        </Field>
        <Field label={t("siteManagement.edit.acLimit")} htmlFor={`${id}-ac-limit`}>
          <NumberInput
            id={`${id}-ac-limit`}
            value={draft.acLimitKw}
            onChange={(event) => draft.setAcLimitKw(event.target.value)}
            step="0.1"
            min={0}
            enableStepper={false}
            placeholder="100"
          />
        </Field>
      </div>
      <p className="text-tremor-label text-tremor-content">{t("siteManagement.edit.hint")}</p>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onDone}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" loading={update.isPending}>
          {t("siteManagement.edit.save")}
        </Button>
      </div>
    </form>
  );
}
