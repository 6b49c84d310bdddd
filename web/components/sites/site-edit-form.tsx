import { Button, NumberInput, TextInput } from "@tremor/react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { EnhancedSite, UpdateSiteInput } from "../../../schema/api/sites";
import { errorDescription } from "../../lib/error-messages";
import { formatCapacityKw, localeFor } from "../../lib/format";
import { useUpdateSiteMutation } from "../../lib/queries/sites";
import { toast } from "../../lib/toast";
import { Field } from "../ui/field";

const text = (value: number | null) => (value === null ? "" : String(value));
/** A blank optional number clears it (null); the server parses and range-checks the rest. */
const orNull = (value: string) => (value.trim() ? value.trim() : null);

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
  const [initial] = useState(() => ({
    capacityKw: site.capacitySource === "manual" ? text(site.capacity) : "",
    tiltDeg: text(site.tiltDeg),
    azimuthDeg: text(site.azimuthDeg),
    acLimitKw: text(site.acLimitKw),
  }));
  const [name, setName] = useState(site.name);
  const [capacityKw, setCapacityKw] = useState(initial.capacityKw);
  const [tiltDeg, setTiltDeg] = useState(initial.tiltDeg);
  const [azimuthDeg, setAzimuthDeg] = useState(initial.azimuthDeg);
  const [acLimitKw, setAcLimitKw] = useState(initial.acLimitKw);
  const update = useUpdateSiteMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Only the fields that changed, so the audit log names what was edited.
    const changes: UpdateSiteInput = {};
    if (name.trim() !== site.name) changes.name = name.trim();
    if (capacityKw !== initial.capacityKw) changes.capacity = orNull(capacityKw);
    if (tiltDeg !== initial.tiltDeg) changes.tiltDeg = orNull(tiltDeg);
    if (azimuthDeg !== initial.azimuthDeg) changes.azimuthDeg = orNull(azimuthDeg);
    if (acLimitKw !== initial.acLimitKw) changes.acLimitKw = orNull(acLimitKw);
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
            value={tiltDeg}
            onChange={(event) => setTiltDeg(event.target.value)}
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
            value={azimuthDeg}
            onChange={(event) => setAzimuthDeg(event.target.value)}
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
            value={acLimitKw}
            onChange={(event) => setAcLimitKw(event.target.value)}
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
