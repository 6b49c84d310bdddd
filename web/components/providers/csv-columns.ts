import type { MeteronlineImportBody } from "../../../schema/api/meteronline";

export type ColumnMapping = MeteronlineImportBody["mapping"];
export type ImportUnits = MeteronlineImportBody["units"];

/**
 * The column names of an export, read as the server reads them (papaparse, header row, names
 * trimmed, duplicates renamed), so what the user maps is what the import finds. The parser is
 * loaded on first use: only the few who import CSV files need it.
 */
export async function readCsvColumns(csv: string): Promise<string[]> {
  const { default: Papa } = await import("papaparse");
  const parsed = Papa.parse<Record<string, string>>(csv, {
    header: true,
    preview: 1,
    skipEmptyLines: "greedy",
    transformHeader: (header) => header.trim(),
  });
  return (parsed.meta.fields ?? []).filter((name) => name !== "");
}

/** Dutch and English words Meteronline exports use for each column. */
const patterns: Record<keyof ColumnMapping, RegExp> = {
  timestamp: /time|date|datum|tijd|moment/i,
  systemName: /name|naam/i,
  system: /system|installation|installatie|site|station|meter|\bid\b/i,
  power: /power|vermogen|\bpac\b|\(k?w\)|\bk?w$/i,
  energy: /energy|energie|yield|opbrengst|kwh|\bwh\b/i,
};

/** A first guess at the mapping from the header names; the user corrects it in the selects. */
export function guessMapping(columns: string[]): Partial<ColumnMapping> {
  const taken = new Set<string>();
  const pick = (key: keyof ColumnMapping, exclude?: RegExp) => {
    const found = columns.find(
      (column) => !taken.has(column) && patterns[key].test(column) && !(exclude?.test(column) ?? false),
    );
    if (found) taken.add(found);
    return found;
  };
  // Energy first: "Energy (kWh)" would otherwise pass for a power column in kW.
  const energy = pick("energy");
  const timestamp = pick("timestamp");
  const systemName = pick("systemName");
  const system = pick("system");
  const power = pick("power");
  const mapping: Partial<ColumnMapping> = {};
  if (timestamp) mapping.timestamp = timestamp;
  if (system) mapping.system = system;
  if (systemName) mapping.systemName = systemName;
  if (power) mapping.power = power;
  if (energy) mapping.energy = energy;
  return mapping;
}

/** Units named in the headers ("Power (W)", "Energy [Wh]"); kW and kWh otherwise, as the portal exports. */
export function guessUnits(mapping: Partial<ColumnMapping>): ImportUnits {
  const power = mapping.power && /\bw\b|\(w\)|\[w\]/i.test(mapping.power) && !/kw/i.test(mapping.power);
  const energy = mapping.energy && /\bwh\b/i.test(mapping.energy) && !/kwh/i.test(mapping.energy);
  return { power: power ? "W" : "kW", energy: energy ? "Wh" : "kWh" };
}
