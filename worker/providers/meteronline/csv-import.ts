import { DateTime } from "luxon";
import Papa from "papaparse";
import type { MeteronlineImportBody } from "../../../schema/api/meteronline";

export interface ImportedReading {
  providerSystemId: string;
  systemName: string;
  time: number;
  powerW: number | null;
  energyTodayWh: number | null;
}

export interface RowError {
  /** 1-based line number in the file, the header being line 1. */
  row: number;
  error: string;
}

const MAX_REPORTED_ERRORS = 100;

/** Portal exports use a decimal comma in some locales ("3,215"). */
function parseNumber(text: string | undefined): number | null | "invalid" {
  const trimmed = (text ?? "").trim();
  if (trimmed === "") return null;
  const normalised = /^-?\d+(\.\d{3})*,\d+$/.test(trimmed)
    ? trimmed.replaceAll(".", "").replace(",", ".")
    : trimmed.replace(",", ".");
  const value = Number(normalised);
  return Number.isFinite(value) ? value : "invalid";
}

const DATE_FORMATS = [
  "yyyy-MM-dd HH:mm:ss",
  "yyyy-MM-dd HH:mm",
  "dd-MM-yyyy HH:mm:ss",
  "dd-MM-yyyy HH:mm",
  "dd/MM/yyyy HH:mm:ss",
  "dd/MM/yyyy HH:mm",
];

/** ISO 8601 (with or without offset) or the portal's day-first formats, in the given zone. */
function parseTimestamp(text: string | undefined, zone: string): number | null {
  const trimmed = (text ?? "").trim();
  if (!trimmed) return null;
  const iso = DateTime.fromISO(trimmed, { zone, setZone: true });
  if (iso.isValid) return iso.toMillis();
  for (const format of DATE_FORMATS) {
    const parsed = DateTime.fromFormat(trimmed, format, { zone });
    if (parsed.isValid) return parsed.toMillis();
  }
  return null;
}

/** The row's values, or why it cannot be read. */
function rowProblem(
  record: Record<string, string>,
  mapping: MeteronlineImportBody["mapping"],
  zone: string,
): string | { time: number; power: number | null; energy: number | null } {
  if (!(record[mapping.system] ?? "").trim()) return `The system column "${mapping.system}" is empty`;
  const time = parseTimestamp(record[mapping.timestamp], zone);
  if (time === null) return `"${record[mapping.timestamp] ?? ""}" is not a date and time`;
  const power = mapping.power ? parseNumber(record[mapping.power]) : null;
  if (power === "invalid") return `Power "${record[mapping.power ?? ""]}" is not a number`;
  const energy = mapping.energy ? parseNumber(record[mapping.energy]) : null;
  if (energy === "invalid") return `Energy "${record[mapping.energy ?? ""]}" is not a number`;
  if (power === null && energy === null) return "The row has neither power nor energy";
  if ((power ?? 0) < 0 || (energy ?? 0) < 0) return "Power and energy cannot be negative";
  return { time, power, energy };
}

/**
 * Reads a Meteronline CSV export with the user's column mapping. Every unreadable row is
 * reported with its line number and reason; the readable rows are returned.
 */
export function parseMeteronlineCsv(body: MeteronlineImportBody) {
  const parsed = Papa.parse<Record<string, string>>(body.csv, {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (h) => h.trim(),
  });
  const headers = parsed.meta.fields ?? [];
  const { mapping } = body;
  const missingColumns = [
    mapping.timestamp,
    mapping.system,
    mapping.systemName,
    mapping.power,
    mapping.energy,
  ]
    .filter((c): c is string => c !== undefined)
    .filter((c) => !headers.includes(c));
  if (missingColumns.length > 0) return { readings: [], errors: [], rowsRead: 0, missingColumns, headers };

  const errors: RowError[] = [];
  const readings: ImportedReading[] = [];
  const powerFactor = body.units.power === "kW" ? 1000 : 1;
  const energyFactor = body.units.energy === "kWh" ? 1000 : 1;
  const report = (row: number, error: string) => {
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ row, error });
  };
  for (const error of parsed.errors) {
    if (error.row !== undefined) report(error.row + 2, error.message);
  }
  for (const [index, record] of parsed.data.entries()) {
    const row = index + 2;
    const systemId = (record[mapping.system] ?? "").trim();
    const problem = rowProblem(record, mapping, body.timezone);
    if (typeof problem === "string") {
      report(row, problem);
      continue;
    }
    const { time, power, energy } = problem;
    readings.push({
      providerSystemId: systemId,
      systemName: (mapping.systemName ? record[mapping.systemName]?.trim() : "") || systemId,
      time,
      powerW: power === null ? null : Math.round(power * powerFactor),
      energyTodayWh: energy === null ? null : Math.round(energy * energyFactor),
    });
  }
  return { readings, errors, rowsRead: parsed.data.length, missingColumns, headers };
}
