/**
 * Power and energy normalisation for a dashboard metric entry whose units are not known (each
 * function states its rule): the one implementation, used where such entries enter (ingestion of
 * unit-less values, the client's fallback path) and held to these rules by a table of test cases.
 */
export interface RawMetricInverter {
  currentPowerW?: unknown;
  pac?: unknown;
  power?: unknown;
  energyWh?: unknown;
}

export interface RawMetricEntry {
  currentPowerW?: unknown;
  pac?: unknown;
  currentPower?: unknown;
  power?: unknown;
  inverters?: RawMetricInverter[] | null;
  capacity?: unknown;
  todayGenerationWh?: unknown;
  etoday?: unknown;
  todayGeneration?: unknown;
  yieldtoday?: unknown;
}

/** Empty, null and unreadable count as 0; "1500 W" and "12.5 kWh" lose their unit text. */
function numberOf(value: unknown, unitSuffix?: RegExp): number {
  if (value === null || value === undefined || value === "") return 0;
  if (typeof value === "number") return Number.isFinite(value) ? value : 0;
  if (typeof value === "string") {
    const text = unitSuffix ? value.trim().replace(unitSuffix, "") : value.trim();
    const parsed = Number(text);
    return Number.isFinite(parsed) ? parsed : 0;
  }
  return 0;
}

const present = (value: unknown) => value !== null && value !== undefined && value !== "";

/**
 * Current power in W: the first non-zero of currentPowerW, pac, currentPower, then power (a
 * trailing "W" stripped), then the sum over inverters. A non-zero power at most twice the
 * capacity is taken to be kW and multiplied by 1000 (the kilowatt heuristic, docs/product.md).
 */
export function normalisedPowerW(entry: RawMetricEntry): number {
  const candidates = [
    numberOf(entry.currentPowerW),
    numberOf(entry.pac),
    numberOf(entry.currentPower),
    numberOf(entry.power, /\s*W$/i),
  ];
  let power = candidates.find((value) => value !== 0) ?? 0;
  if (power === 0) {
    power = (entry.inverters ?? []).reduce(
      (sum, inv) => sum + (numberOf(inv.currentPowerW) || numberOf(inv.pac) || numberOf(inv.power, /\s*W$/i)),
      0,
    );
  }
  const capacity = numberOf(entry.capacity);
  if (power !== 0 && capacity !== 0 && power <= 2 * capacity) return power * 1000;
  return power;
}

/**
 * Today's generation in Wh: todayGenerationWh if present; otherwise etoday, todayGeneration or
 * yieldtoday read as kWh (times 1000, rounded); otherwise a todayGeneration string ending in
 * kWh parsed the same way; otherwise the sum of the inverters' energyWh.
 */
export function normalisedTodayWh(entry: RawMetricEntry): number {
  if (present(entry.todayGenerationWh)) return numberOf(entry.todayGenerationWh);
  for (const value of [entry.etoday, entry.todayGeneration, entry.yieldtoday]) {
    if (typeof value === "number" && Number.isFinite(value)) return Math.round(value * 1000);
    if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value.trim()))) {
      return Math.round(Number(value.trim()) * 1000);
    }
  }
  if (typeof entry.todayGeneration === "string" && /kwh\s*$/i.test(entry.todayGeneration)) {
    return Math.round(numberOf(entry.todayGeneration, /\s*kwh\s*$/i) * 1000);
  }
  return (entry.inverters ?? []).reduce((sum, inv) => sum + numberOf(inv.energyWh), 0);
}
