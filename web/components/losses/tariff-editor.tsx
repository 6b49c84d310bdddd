import { RiDeleteBinLine, RiPriceTag3Line } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Button, NumberInput } from "@tremor/react";
import { type FormEvent, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PutTariffInput, Tariff } from "../../../schema/api/tariffs";
import { currencyCodes } from "../../../schema/currencies";
import { errorDescription } from "../../lib/error-messages";
import { formatDate, localeFor } from "../../lib/format";
import { currencyName, formatPricePerKwh } from "../../lib/format-money";
import {
  organizationTariffsQueryOptions,
  siteTariffsQueryOptions,
  useClearSiteTariffMutation,
  usePutOrganizationTariffMutation,
  usePutSiteTariffMutation,
} from "../../lib/queries/tariffs";
import { toast } from "../../lib/toast";
import { DateInput } from "../ui/date-input";
import { ErrorState } from "../ui/error-state";
import { Field } from "../ui/field";
import { NativeSelect } from "../ui/native-select";
import { Spinner } from "../ui/spinner";

interface TariffFormProps {
  /** The currency the form starts with: the price in force, else the euro. */
  currency: string;
  pending: boolean;
  onSubmit: (input: PutTariffInput, done: () => void) => void;
}

/** Currency, price per kWh and the day it applies from (empty: the server's rule). */
function TariffForm({ currency: initialCurrency, pending, onSubmit }: TariffFormProps) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const id = useId();
  const [currency, setCurrency] = useState(initialCurrency);
  const [price, setPrice] = useState("");
  const [validFrom, setValidFrom] = useState("");
  const options = useMemo(
    () =>
      currencyCodes
        .map((code) => ({ code, name: currencyName(code, locale) }))
        .sort((a, b) => a.name.localeCompare(b.name, locale)),
    [locale],
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ currency, pricePerKwh: price.trim(), ...(validFrom ? { validFrom } : {}) }, () => {
      setPrice("");
      setValidFrom("");
    });
  };
  return (
    <form
      onSubmit={submit}
      className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end"
    >
      <Field label={t("losses.tariff.currency")} htmlFor={`${id}-currency`}>
        <NativeSelect
          id={`${id}-currency`}
          value={currency}
          onChange={(event) => setCurrency(event.target.value)}
        >
          {options.map(({ code, name }) => (
            <option key={code} value={code}>
              {`${code} · ${name}`}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label={t("losses.tariff.price")} htmlFor={`${id}-price`}>
        <NumberInput
          id={`${id}-price`}
          required
          value={price}
          onChange={(event) => setPrice(event.target.value)}
          min={0}
          step="any"
          enableStepper={false}
          placeholder="0.25"
        />
      </Field>
      <Field label={t("losses.tariff.validFrom")} htmlFor={`${id}-from`}>
        <DateInput
          id={`${id}-from`}
          value={validFrom}
          onChange={(event) => setValidFrom(event.target.value)}
        />
      </Field>
      <Button type="submit" icon={RiPriceTag3Line} loading={pending}>
        {t("losses.tariff.save")}
      </Button>
      <p className="text-tremor-label text-tremor-content sm:col-span-4">
        {t("losses.tariff.validFromHint")}
      </p>
    </form>
  );
}

/** A scope's prices, oldest first, with the day each applies from. */
function TariffList({ caption, tariffs }: { caption: string; tariffs: Tariff[] }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  if (tariffs.length === 0) return null;
  return (
    <table className="w-full text-tremor-default text-tremor-content">
      <caption className="mb-1 text-left text-tremor-label font-medium text-tremor-content-emphasis">
        {caption}
      </caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">{t("losses.tariff.validFrom")}</th>
          <th scope="col">{t("losses.tariff.price")}</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-tremor-border">
        {tariffs.map((tariff) => (
          <tr key={tariff.validFrom ?? ""}>
            <td className="py-1.5 pr-4">
              {tariff.validFrom === null
                ? t("losses.tariff.always")
                : formatDate(`${tariff.validFrom}T12:00:00Z`, { locale, timeZone: "UTC" })}
            </td>
            <td className="py-1.5 text-right font-medium tabular-nums text-tremor-content-strong">
              {formatPricePerKwh(tariff.pricePerKwh, tariff.currency, locale)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The toasts of a save: the price saved, or why not in the reader's language. */
function useSaveToasts() {
  const { t } = useTranslation();
  return (done: () => void) => ({
    onSuccess: () => {
      done();
      toast.success(t("losses.tariff.saved"));
    },
    onError: (error: unknown) =>
      toast.error(t("losses.tariff.saveFailed"), {
        description: errorDescription(error, t("losses.tariff.saveFailedDefault")),
      }),
  });
}

/** A site's price of energy: the one in force, its own prices and the default, and the form. */
export function SiteTariffEditor({ siteId, canManage }: { siteId: string; canManage: boolean }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const query = useQuery(siteTariffsQueryOptions(siteId));
  const put = usePutSiteTariffMutation(siteId);
  const clear = useClearSiteTariffMutation(siteId);
  const toasts = useSaveToasts();
  if (query.isPending) return <Spinner className="py-8" />;
  if (query.isError) {
    return (
      <ErrorState title={t("losses.loadFailed")} error={query.error} onRetry={() => void query.refetch()} />
    );
  }
  const { current, tariffs, organizationTariffs } = query.data;
  const onClear = () => {
    if (!window.confirm(t("losses.tariff.confirmClear"))) return;
    clear.mutate(undefined, {
      onSuccess: () => toast.success(t("losses.tariff.cleared")),
      onError: (error) =>
        toast.error(t("losses.tariff.clearFailed"), {
          description: errorDescription(error, "") || undefined,
        }),
    });
  };
  return (
    <section aria-labelledby={`tariff-${siteId}`} className="space-y-5">
      <div>
        <h2 id={`tariff-${siteId}`} className="text-tremor-title font-semibold text-tremor-content-strong">
          {t("losses.tariff.title")}
        </h2>
        <p className="mt-1 text-tremor-default text-tremor-content">{t("losses.tariff.subtitle")}</p>
      </div>
      <p className="text-tremor-default">
        <span className="text-tremor-content">{t("losses.tariff.current")}: </span>
        <span className="font-semibold text-tremor-content-strong" data-testid="tariff-current">
          {current
            ? t("losses.tariff.currentWithSource", {
                price: formatPricePerKwh(current.pricePerKwh, current.currency, locale),
                source: t(`losses.tariff.source.${current.source}`),
              })
            : t("losses.tariff.none")}
        </span>
      </p>
      <div className="grid gap-6 md:grid-cols-2">
        <TariffList caption={t("losses.tariff.history")} tariffs={tariffs} />
        <TariffList caption={t("losses.tariff.defaultHistory")} tariffs={organizationTariffs} />
      </div>
      {canManage ? (
        <>
          <TariffForm
            currency={current?.currency ?? "EUR"}
            pending={put.isPending}
            onSubmit={(input, done) => put.mutate(input, toasts(done))}
          />
          {tariffs.length > 0 ? (
            <Button
              variant="secondary"
              color="red"
              icon={RiDeleteBinLine}
              loading={clear.isPending}
              onClick={onClear}
            >
              {t("losses.tariff.useDefault")}
            </Button>
          ) : null}
        </>
      ) : (
        <p className="text-tremor-label text-tremor-content">{t("losses.tariff.readOnly")}</p>
      )}
    </section>
  );
}

/** The organisation's default price of energy (Settings). */
export function OrganizationTariffEditor({ canManage }: { canManage: boolean }) {
  const { t, i18n } = useTranslation();
  const locale = localeFor(i18n.language);
  const id = useId();
  const query = useQuery(organizationTariffsQueryOptions());
  const put = usePutOrganizationTariffMutation();
  const toasts = useSaveToasts();
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3">
      <div>
        <h3 id={`${id}-title`} className="text-tremor-default font-semibold text-tremor-content-strong">
          {t("losses.tariff.orgTitle")}
        </h3>
        <p className="text-tremor-label text-tremor-content">{t("losses.tariff.orgSubtitle")}</p>
      </div>
      {query.isPending ? (
        <Spinner className="justify-start py-2" />
      ) : query.isError ? (
        <ErrorState title={t("losses.loadFailed")} error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <p className="text-tremor-default">
            <span className="text-tremor-content">{t("losses.tariff.current")}: </span>
            <span className="font-semibold text-tremor-content-strong" data-testid="org-tariff-current">
              {query.data.current
                ? formatPricePerKwh(query.data.current.pricePerKwh, query.data.current.currency, locale)
                : t("losses.tariff.none")}
            </span>
          </p>
          <TariffList caption={t("losses.tariff.orgHistory")} tariffs={query.data.tariffs} />
          {canManage ? (
            <TariffForm
              currency={query.data.current?.currency ?? "EUR"}
              pending={put.isPending}
              onSubmit={(input, done) => put.mutate(input, toasts(done))}
            />
          ) : (
            <p className="text-tremor-label text-tremor-content">{t("losses.tariff.orgReadOnly")}</p>
          )}
        </>
      )}
    </section>
  );
}
