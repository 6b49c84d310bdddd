import type {
  AlertSeverity,
  NormalisedAlarm,
  NormalisedInverter,
  NormalisedSystem,
  SystemState,
} from "../types";
import type { SolisAlarm, SolisInverter, SolisStation } from "./schemas";

/**
 * SolisCloud values to the product's units. Every value comes with a unit string that varies
 * row by row ("kW" or "MW", "kWh" or "MWh"), so the unit string decides, never the field name.
 */

const POWER_FACTORS_W: Record<string, number> = { w: 1, kw: 1e3, mw: 1e6, gw: 1e9 };
const ENERGY_FACTORS_WH: Record<string, number> = { wh: 1, kwh: 1e3, mwh: 1e6, gwh: 1e9 };

/**
 * `value` in `unit` converted with `factors`; a missing unit means the documented default.
 * An unknown unit gives null: one unreadable value must not cost the whole sync.
 */
function convert(
  value: number | null,
  unit: string | null,
  factors: Record<string, number>,
  defaultUnit: string,
  multiplier: number | null = null,
): number | null {
  if (value === null) return null;
  const factor = factors[(unit ?? defaultUnit).toLowerCase()];
  if (factor === undefined) return null;
  // …Pec is the vendor's scale for raw values ("pac":74,"pacPec":"0.001" means 0.074 kW).
  const scale = multiplier !== null && multiplier > 0 ? multiplier : 1;
  return Math.round(value * scale * factor);
}

export function powerW(value: number | null, unit: string | null, multiplier: number | null = null) {
  return convert(value, unit, POWER_FACTORS_W, "kW", multiplier);
}

export function energyWh(value: number | null, unit: string | null) {
  return convert(value, unit, ENERGY_FACTORS_WH, "kWh");
}

/** Capacities are peak units ("kWp"); the trailing p carries no scale. */
export function capacityW(value: number | null, unit: string | null) {
  return powerW(value, unit === null ? null : unit.replace(/p$/i, ""));
}

/** Station and inverter state: 1 online, 2 offline, 3 alarm. */
export function systemState(state: number | null): SystemState {
  if (state === 1) return "online";
  if (state === 3) return "alarm";
  return "offline";
}

/** Alarm level: 1 tip, 2 general, 3 emergency. */
export function alarmSeverity(level: number | null): AlertSeverity {
  if (level === 1) return "info";
  if (level === 3) return "critical";
  return "warning";
}

/** Epoch milliseconds; the vendor sends them as strings. 0 means "never". */
function epochMs(value: number | null): number | null {
  return value !== null && value > 0 ? value : null;
}

function coordinate(value: number | null, limit: number): number | null {
  return value !== null && Math.abs(value) <= limit && value !== 0 ? value : null;
}

export function normaliseInverter(inverter: SolisInverter): NormalisedInverter {
  return {
    providerInverterId: inverter.id,
    serial: inverter.sn,
    model: inverter.model ?? inverter.productModel,
    ratedPowerW: capacityW(inverter.power, inverter.powerStr),
    state: systemState(inverter.state),
    powerW: powerW(inverter.pac, inverter.pacStr, inverter.pacPec),
    energyTodayWh: energyWh(inverter.eToday ?? inverter.etoday, inverter.eTodayStr ?? inverter.etodayStr),
    energyTotalWh: energyWh(inverter.eTotal ?? inverter.etotal, inverter.eTotalStr ?? inverter.etotalStr),
    temperatureC: inverter.inverterTemperature,
    dataTime: epochMs(inverter.dataTimestamp),
  };
}

export function normaliseSystem(station: SolisStation, inverters: NormalisedInverter[]): NormalisedSystem {
  return {
    providerSystemId: station.id,
    name: station.stationName ?? `Solis station ${station.id}`,
    address: station.addr,
    latitude: coordinate(station.latitude, 90),
    longitude: coordinate(station.longitude, 180),
    // Solis gives only an hours offset (timeZone), not an IANA zone; the zone is derived later.
    timezone: null,
    capacityW: capacityW(station.capacity, station.capacityStr),
    state: systemState(station.state),
    powerW: powerW(station.power, station.powerStr),
    energyTodayWh: energyWh(station.dayEnergy, station.dayEnergyStr),
    energyTotalWh: energyWh(station.allEnergy, station.allEnergyStr),
    dataTime: epochMs(station.dataTimestamp),
    inverters,
  };
}

/** Alarm state: 0 pending, 1 processed, 2 restored; the last two have ended. */
function alarmEndedAt(alarm: SolisAlarm, now: number): number | null {
  if (alarm.state !== 1 && alarm.state !== 2) return null;
  const endTime = epochMs(alarm.alarmEndTime);
  if (endTime !== null) return endTime;
  if (alarm.alarmLong !== null && alarm.alarmLong > 0) return alarm.alarmBeginTime + alarm.alarmLong;
  return now;
}

export function normaliseAlarm(alarm: SolisAlarm, now: number): NormalisedAlarm {
  const code = alarm.alarmCode;
  const title = alarm.alarmMsg ?? (code ? `Solis alarm ${code}` : "Solis alarm");
  return {
    // The vendor's own alarm id is not reliable (the doc example sends "-1"); these four are.
    providerAlarmId: [alarm.stationId, alarm.alarmDeviceSn ?? "", code ?? "", alarm.alarmBeginTime].join(":"),
    providerSystemId: alarm.stationId,
    deviceSerial: alarm.alarmDeviceSn,
    code,
    title,
    message: alarm.advice ? `${title.replace(/\.$/, "")}. ${alarm.advice}` : title,
    severity: alarmSeverity(alarm.alarmLevel),
    startedAt: alarm.alarmBeginTime,
    endedAt: alarmEndedAt(alarm, now),
  };
}
