import { RiUploadCloud2Line } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import {
  Button,
  Callout,
  Card,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeaderCell,
  TableRow,
} from "@tremor/react";
import { type ChangeEvent, type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  METERONLINE_MAX_CSV_BYTES,
  type MeteronlineImportBody,
  type MeteronlineImportResult,
} from "../../../schema/api/meteronline";
import { apiErrorBody, errorDescription } from "../../lib/error-messages";
import { formatCount, localeFor } from "../../lib/format";
import { useMeteronlineImportMutation } from "../../lib/queries/providers";
import { preferencesQueryOptions, timezonesQueryOptions } from "../../lib/queries/user";
import { toast } from "../../lib/toast";
import { Field } from "../ui/field";
import { NativeSelect } from "../ui/native-select";
import {
  type ColumnMapping,
  guessMapping,
  guessUnits,
  type ImportUnits,
  readCsvColumns,
} from "./csv-columns";
import { isUnauthorized, toastSessionExpired } from "./failure-messages";

const DEFAULT_IMPORT_TIMEZONE = "Europe/Amsterdam";
const MAX_CSV_MEGABYTES = METERONLINE_MAX_CSV_BYTES / (1024 * 1024);

type RowError = MeteronlineImportResult["errors"][number];

interface LoadedFile {
  name: string;
  csv: string;
  columns: string[];
}

/** What a refused import tells the user beyond the toast: the file's columns, or its unreadable rows. */
interface ImportProblem {
  message: string;
  columns: string[] | null;
  rowErrors: RowError[];
}

function readProblem(error: Error, fallback: string): ImportProblem {
  const body = apiErrorBody(error);
  const details = body?.code === "unreadable_file" ? body.details : {};
  const columns = details.columns ?? null;
  const rowErrors: RowError[] = details.errors ?? [];
  return { message: errorDescription(error, fallback), columns, rowErrors };
}

const optionalKeys = ["systemName", "power", "energy"] as const;

/** Meteronline has no API: its portal's CSV exports are uploaded here with a column mapping. */
export function MeteronlineImport() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const locale = localeFor(i18n.language);
  const preferencesQuery = useQuery(preferencesQueryOptions());
  const timezonesQuery = useQuery(timezonesQueryOptions());
  const [file, setFile] = useState<LoadedFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<Partial<ColumnMapping>>({});
  const [units, setUnits] = useState<ImportUnits>({ power: "kW", energy: "kWh" });
  const [chosenTimezone, setChosenTimezone] = useState<string | null>(null);
  const [result, setResult] = useState<MeteronlineImportResult | null>(null);
  const [problem, setProblem] = useState<ImportProblem | null>(null);
  const timezone = chosenTimezone ?? preferencesQuery.data?.timezone ?? DEFAULT_IMPORT_TIMEZONE;

  const importCsv = useMeteronlineImportMutation({
    onSuccess: (data) => {
      setResult(data);
      setProblem(null);
      toast.success(t("settings.providers.import.toasts.imported"), { description: data.message });
    },
    onError: (error) => {
      if (isUnauthorized(error)) return toastSessionExpired(t);
      const fallback = t("settings.providers.import.toasts.failedDefault");
      setResult(null);
      setProblem(readProblem(error, fallback));
      toast.error(t("settings.providers.import.toasts.failed"), {
        description: errorDescription(error, fallback),
      });
    },
  });

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setResult(null);
    setProblem(null);
    setFile(null);
    setFileError(null);
    if (!chosen) return;
    if (chosen.size > METERONLINE_MAX_CSV_BYTES) {
      setFileError(t("settings.providers.import.tooLarge", { size: `${MAX_CSV_MEGABYTES} MB` }));
      return;
    }
    let csv: string;
    let columns: string[];
    try {
      csv = await chosen.text();
      columns = await readCsvColumns(csv);
    } catch {
      setFileError(t("settings.providers.import.readFailed"));
      return;
    }
    if (columns.length === 0) {
      setFileError(t("settings.providers.import.noHeader"));
      return;
    }
    const guessed = guessMapping(columns);
    setFile({ name: chosen.name, csv, columns });
    setMapping(guessed);
    setUnits(guessUnits(guessed));
  };

  const hasValueColumn = Boolean(mapping.power || mapping.energy);
  const ready = file !== null && Boolean(mapping.timestamp) && Boolean(mapping.system) && hasValueColumn;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || !mapping.timestamp || !mapping.system) return;
    const body: MeteronlineImportBody = {
      csv: file.csv,
      mapping: { timestamp: mapping.timestamp, system: mapping.system },
      units,
      timezone,
    };
    for (const key of optionalKeys) {
      const column = mapping[key];
      if (column) body.mapping[key] = column;
    }
    importCsv.mutate(body);
  };

  const setColumn = (key: keyof ColumnMapping, column: string) =>
    setMapping((current) => {
      const next = { ...current };
      if (column) next[key] = column;
      else delete next[key];
      return next;
    });

  const columnSelect = (key: keyof ColumnMapping, required: boolean) => (
    <Field label={t(`settings.providers.import.columns.${key}`)} htmlFor={`${id}-${key}`}>
      <NativeSelect
        id={`${id}-${key}`}
        value={mapping[key] ?? ""}
        aria-required={required}
        onChange={(event) => setColumn(key, event.target.value)}
      >
        <option value="">
          {required ? t("settings.providers.import.chooseColumn") : t("settings.providers.import.noColumn")}
        </option>
        {file?.columns.map((column) => (
          <option key={column} value={column}>
            {column}
          </option>
        ))}
      </NativeSelect>
    </Field>
  );

  const zones = timezonesQuery.data ?? [];
  const zoneListed = zones.some((zone) => zone.value === timezone);
  const rowErrors = result?.errors ?? problem?.rowErrors ?? [];

  return (
    <Card>
      <h3 className="text-tremor-title font-semibold text-tremor-content-strong">
        {t("settings.providers.import.title")}
      </h3>
      <p className="text-tremor-default text-tremor-content">{t("settings.providers.import.description")}</p>
      <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
        <Field
          label={t("settings.providers.import.file")}
          htmlFor={`${id}-file`}
          hint={t("settings.providers.import.fileHint", { size: `${MAX_CSV_MEGABYTES} MB` })}
        >
          <input
            id={`${id}-file`}
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => void onFile(event)}
            className="block w-full text-tremor-default text-tremor-content file:mr-3 file:rounded-tremor-small file:border-0 file:bg-tremor-brand-faint file:px-3 file:py-1.5 file:font-medium file:text-tremor-brand hover:file:bg-tremor-brand-muted"
          />
        </Field>
        {fileError ? (
          <p role="alert" className="text-tremor-default text-red-600">
            {fileError}
          </p>
        ) : null}
        {file ? (
          <>
            <p className="text-tremor-label text-tremor-content">
              {t("settings.providers.import.columnsFound", {
                file: file.name,
                columns: file.columns.join(", "),
              })}
            </p>
            <div className="grid gap-4 md:grid-cols-2">
              {columnSelect("timestamp", true)}
              {columnSelect("system", true)}
              {columnSelect("systemName", false)}
              <div aria-hidden="true" className="hidden md:block" />
              {columnSelect("power", false)}
              <Field label={t("settings.providers.import.powerUnit")} htmlFor={`${id}-power-unit`}>
                <NativeSelect
                  id={`${id}-power-unit`}
                  value={units.power}
                  onChange={(event) =>
                    setUnits((current) => ({ ...current, power: event.target.value === "W" ? "W" : "kW" }))
                  }
                >
                  <option value="kW">kW</option>
                  <option value="W">W</option>
                </NativeSelect>
              </Field>
              {columnSelect("energy", false)}
              <Field
                label={t("settings.providers.import.energyUnit")}
                htmlFor={`${id}-energy-unit`}
                hint={t("settings.providers.import.energyHint")}
              >
                <NativeSelect
                  id={`${id}-energy-unit`}
                  value={units.energy}
                  onChange={(event) =>
                    setUnits((current) => ({
                      ...current,
                      energy: event.target.value === "Wh" ? "Wh" : "kWh",
                    }))
                  }
                >
                  <option value="kWh">kWh</option>
                  <option value="Wh">Wh</option>
                </NativeSelect>
              </Field>
              <Field
                label={t("settings.providers.import.timezone")}
                htmlFor={`${id}-timezone`}
                hint={t("settings.providers.import.timezoneHint")}
              >
                <NativeSelect
                  id={`${id}-timezone`}
                  value={timezone}
                  onChange={(event) => setChosenTimezone(event.target.value)}
                >
                  {zoneListed ? null : <option value={timezone}>{timezone}</option>}
                  {zones.map((zone) => (
                    <option key={zone.value} value={zone.value}>
                      {zone.label.includes(zone.offset) ? zone.label : `${zone.label} (${zone.offset})`}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
            </div>
            {hasValueColumn ? null : (
              <p className="text-tremor-label text-amber-700">{t("settings.providers.import.needsValue")}</p>
            )}
            <div className="flex justify-end">
              <Button
                type="submit"
                icon={RiUploadCloud2Line}
                disabled={!ready || importCsv.isPending}
                loading={importCsv.isPending}
                loadingText={t("settings.providers.import.importing")}
              >
                {t("settings.providers.import.submit")}
              </Button>
            </div>
          </>
        ) : null}
      </form>
      {problem ? (
        <Callout
          title={t("settings.providers.import.problemTitle")}
          color="red"
          className="mt-4"
          role="alert"
        >
          {/* Tremor wraps a callout's body in a paragraph already. */}
          <span className="block break-words">{problem.message}</span>
          {problem.columns ? (
            <span className="mt-1 block">
              {t("settings.providers.import.fileColumns", { columns: problem.columns.join(", ") })}
            </span>
          ) : null}
        </Callout>
      ) : null}
      {result ? (
        <section aria-label={t("settings.providers.import.resultTitle")} className="mt-4 space-y-2">
          <h4 className="text-tremor-default font-semibold text-tremor-content-strong">
            {t("settings.providers.import.resultTitle")}
          </h4>
          <p className="text-tremor-default text-tremor-content">{result.message}</p>
          <dl className="grid grid-cols-3 gap-3">
            {(
              [
                ["rowsRead", result.rowsRead],
                ["readingsImported", result.readingsImported],
                ["systems", result.systems],
              ] as const
            ).map(([key, value]) => (
              <div key={key} className="rounded-tremor-default bg-tremor-background-muted px-3 py-2">
                <dt className="text-tremor-label text-tremor-content">
                  {t(`settings.providers.import.${key}`)}
                </dt>
                <dd className="text-tremor-metric font-semibold text-tremor-content-strong">
                  {formatCount(value, locale)}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
      {rowErrors.length > 0 ? (
        <section aria-label={t("settings.providers.import.errorsTitle")} className="mt-4">
          <h4 className="text-tremor-default font-semibold text-tremor-content-strong">
            {t("settings.providers.import.errorsTitle")}
          </h4>
          <div className="max-h-64 overflow-y-auto">
            <Table>
              <TableHead>
                <TableRow>
                  <TableHeaderCell>{t("settings.providers.import.row")}</TableHeaderCell>
                  <TableHeaderCell>{t("settings.providers.import.reason")}</TableHeaderCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rowErrors.map((rowError) => (
                  <TableRow key={`${rowError.row}-${rowError.error}`}>
                    <TableCell>{formatCount(rowError.row, locale)}</TableCell>
                    <TableCell className="whitespace-normal">{rowError.error}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </section>
      ) : null}
    </Card>
  );
}
