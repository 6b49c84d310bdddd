import { RiEditLine } from "@remixicon/react";
import { Button, NumberInput } from "@tremor/react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SystemOrientation } from "../../../schema/api/orientation";
import type { EnhancedSite, SiteSystem } from "../../../schema/api/sites";
import type { UpdateSystemInput } from "../../../schema/api/systems";
import { errorDescription } from "../../lib/error-messages";
import { formatCapacityKw, formatNumber, localeFor } from "../../lib/format";
import { useOrientationDraft } from "../../lib/orientation-draft";
import { providerNames } from "../../lib/providers";
import { useUpdateSystemMutation } from "../../lib/queries/site-detail";
import { toast } from "../../lib/toast";
import { Field } from "../ui/field";

/** An effective value with where it comes from: "32° (default)". */
function useEffectiveText() {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  return {
    degrees: (value: number | null, source: string | null) =>
      value === null || source === null
        ? t("losses.orientation.unknown")
        : t("losses.orientation.valueWithSource", {
            value: `${formatNumber(value, locale, Number.isInteger(value) ? 0 : 1)}°`,
            source: t(`losses.orientation.source.${source as "system"}`),
          }),
    kw: (value: number | null, source: string | null) =>
      value === null || source === null
        ? t("losses.orientation.unknown")
        : t("losses.orientation.valueWithSource", {
            value: formatCapacityKw(value, locale),
            source: t(`losses.orientation.source.${source as "system"}`),
          }),
  };
}

interface OrientationFormProps {
  system: SiteSystem;
  onDone: () => void;
}

/** Tilt, azimuth and AC limit of one system → PATCH /api/systems/{id}; blank is the default. */
function OrientationForm({ system, onDone }: OrientationFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const effective = useEffectiveText();
  const { orientation } = system;
  const draft = useOrientationDraft(orientation);
  const update = useUpdateSystemMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes: UpdateSystemInput = draft.changes();
    if (Object.keys(changes).length === 0) return onDone();
    update.mutate(
      { systemId: system.id, changes },
      {
        onSuccess: () => {
          toast.success(t("losses.orientation.saved"));
          onDone();
        },
        onError: (error) =>
          toast.error(t("losses.orientation.saveFailed"), {
            description: errorDescription(error, t("losses.orientation.saveFailedDefault")),
          }),
      },
    );
  };
  const inUse = (value: string) => t("losses.orientation.inUse", { value });
  return (
    <form
      onSubmit={submit}
      aria-label={t("losses.orientation.formLabel", { name: system.systemName })}
      className="space-y-4 rounded-tremor-default border border-tremor-border bg-tremor-background-muted p-4"
    >
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          label={`${t("losses.orientation.tilt")} (°)`}
          htmlFor={`${id}-tilt`}
          hint={`${t("losses.orientation.tiltHint")} ${inUse(effective.degrees(orientation.effective.tiltDeg, orientation.effective.tiltSource))}`}
        >
          <NumberInput
            id={`${id}-tilt`}
            value={draft.tiltDeg}
            onChange={(event) => draft.setTiltDeg(event.target.value)}
            min={0}
            max={90}
            step="any"
            enableStepper={false}
          />
        </Field>
        <Field
          label={`${t("losses.orientation.azimuth")} (°)`}
          htmlFor={`${id}-azimuth`}
          hint={`${t("losses.orientation.azimuthHint")} ${inUse(effective.degrees(orientation.effective.azimuthDeg, orientation.effective.azimuthSource))}`}
        >
          <NumberInput
            id={`${id}-azimuth`}
            value={draft.azimuthDeg}
            onChange={(event) => draft.setAzimuthDeg(event.target.value)}
            min={0}
            max={360}
            step="any"
            enableStepper={false}
          />
        </Field>
        <Field
          label={`${t("losses.orientation.acLimit")} (kW)`}
          htmlFor={`${id}-ac-limit`}
          hint={`${t("losses.orientation.acLimitHint")} ${inUse(effective.kw(orientation.effective.acLimitKw, orientation.effective.acLimitSource))}`}
        >
          <NumberInput
            id={`${id}-ac-limit`}
            value={draft.acLimitKw}
            onChange={(event) => draft.setAcLimitKw(event.target.value)}
            min={0}
            step="any"
            enableStepper={false}
          />
        </Field>
      </div>
      <p className="text-tremor-label text-tremor-content">{t("losses.orientation.hint")}</p>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onDone}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" loading={update.isPending}>
          {t("losses.orientation.save")}
        </Button>
      </div>
    </form>
  );
}

/** A site's systems with the orientation each is modelled with, and an editor per system. */
export function SystemOrientationTable({ site, canManage }: { site: EnhancedSite; canManage: boolean }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const effective = useEffectiveText();
  const [editing, setEditing] = useState<string | null>(null);
  if (site.systems.length === 0) {
    return <p className="text-tremor-default text-tremor-content">{t("losses.site.noSystems")}</p>;
  }
  const orientationOf = (o: SystemOrientation) => o.effective;
  return (
    <div className="space-y-3">
      <table className="w-full text-tremor-default text-tremor-content">
        <caption className="sr-only">{t("losses.site.systemsCaption", { name: site.name })}</caption>
        <thead>
          <tr className="border-b border-tremor-border text-left text-tremor-label">
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("losses.site.system")}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("losses.site.provider")}
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              {t("losses.site.capacity")}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("losses.orientation.tilt")}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("losses.orientation.azimuth")}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("losses.orientation.acLimit")}
            </th>
            {canManage ? (
              <th scope="col" className="py-2">
                <span className="sr-only">{t("losses.site.actions")}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-tremor-border">
          {site.systems.map((system) => {
            const values = orientationOf(system.orientation);
            return (
              <tr key={system.id}>
                <th scope="row" className="py-2 pr-3 text-left font-medium text-tremor-content-strong">
                  {system.systemName}
                </th>
                <td className="py-2 pr-3">{providerNames[system.provider]}</td>
                <td className="py-2 pr-3 text-right tabular-nums">
                  {system.capacity === null ? "—" : formatCapacityKw(system.capacity, locale)}
                </td>
                <td className="py-2 pr-3">{effective.degrees(values.tiltDeg, values.tiltSource)}</td>
                <td className="py-2 pr-3">{effective.degrees(values.azimuthDeg, values.azimuthSource)}</td>
                <td className="py-2 pr-3">{effective.kw(values.acLimitKw, values.acLimitSource)}</td>
                {canManage ? (
                  <td className="py-2 text-right">
                    <Button
                      size="xs"
                      variant="light"
                      icon={RiEditLine}
                      aria-label={t("losses.orientation.edit", { name: system.systemName })}
                      title={t("losses.orientation.edit", { name: system.systemName })}
                      onClick={() => setEditing(system.id)}
                    />
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {site.systems.map((system) =>
        editing === system.id ? (
          <OrientationForm key={system.id} system={system} onDone={() => setEditing(null)} />
        ) : null,
      )}
    </div>
  );
}
