import { z } from "zod";
import { ProviderError, StaleListsError } from "../errors";
import type {
  KnownInverter,
  KnownSystem,
  NormalisedAlarm,
  NormalisedInverter,
  NormalisedSystem,
  ProviderCallContext,
  SyncPage,
} from "../types";
import type { SolaxOpenApiCredentials } from "./credentials";
import { combinedState, inverterState, kWhToWh, localMillis, offsetMinutes, utcMillis } from "./normalise";
import { SolaxOpenApiClient } from "./openapi-client";
import {
  alarmRecordSchema,
  deviceRecordSchema,
  plantRecordSchema,
  realtimeResultSchema,
  type SolaxAlarmRecord,
  type SolaxDeviceRecord,
  type SolaxPlantRecord,
  type SolaxRealtimeRow,
} from "./schemas";

/** Every call names a business type: 1 residential, 4 commercial and industrial; both are read. */
const BUSINESS_TYPES = ["1", "4"] as const;
type BusinessType = (typeof BUSINESS_TYPES)[number];
const INVERTER = "1";
/** realtime_data takes at most 10 serial numbers per call. */
const SN_BATCH = 10;

const sum = (values: (number | null)[]) =>
  values.some((value) => value !== null)
    ? values.reduce<number>((total, value) => total + (value ?? 0), 0)
    : null;

/** An inverter with its live row; `listedOffline` when the device list just said it is offline. */
function toInverter(
  inverter: KnownInverter,
  row: SolaxRealtimeRow | undefined,
  listedOffline: boolean,
): NormalisedInverter {
  const activePowerW = row?.totalActivePower ?? null;
  const powerW = activePowerW === null ? null : Math.round(activePowerW);
  // A device the cloud reports offline is offline whatever its last status said.
  const online = row !== undefined && row.onlineStatus !== 0 && !listedOffline;
  return {
    ...inverter,
    state: online ? inverterState(row?.deviceStatus ?? null, powerW) : "offline",
    powerW,
    energyTodayWh: kWhToWh(row?.dailyYield ?? row?.dailyACOutput ?? null),
    energyTotalWh: kWhToWh(row?.totalYield ?? row?.totalACOutput ?? null),
    temperatureC: row?.inverterTemperature ?? null,
    dataTime: utcMillis(row?.dataTime ?? null),
  };
}

/**
 * Alarm start times are the plant's wall clock without an offset; the offset comes from the
 * plant's realtime rows (UTC dataTime beside plantLocalTime). Without one they are read as UTC.
 */
function toAlarm(plantId: string, record: SolaxAlarmRecord, offset: number | null): NormalisedAlarm {
  const startedAt = localMillis(record.alarmStartTime, offset ?? 0) ?? utcMillis(record.alarmStartTime) ?? 0;
  const name = record.alarmName ?? `Alarm ${record.errorCode ?? ""}`.trim();
  return {
    providerAlarmId: `${plantId}:${record.deviceSn ?? "-"}:${record.errorCode ?? "-"}:${record.alarmStartTime}`,
    providerSystemId: plantId,
    deviceSerial: record.deviceSn,
    code: record.errorCode,
    title: name,
    message: `${name}${record.errorCode ? ` (error code ${record.errorCode})` : ""} on ${record.deviceSn ?? "a device"}`,
    // The OpenAPI gives no level; its alarms are device faults (Grid Fault, …).
    severity: "critical",
    startedAt,
    // Only ongoing alarms are asked for; one that clears drops out of the list.
    endedAt: null,
  };
}

export async function testOpenApiConnection(ctx: ProviderCallContext, credentials: SolaxOpenApiCredentials) {
  const client = new SolaxOpenApiClient(ctx, credentials);
  let sitesFound = 0;
  for (const businessType of BUSINESS_TYPES) {
    const page = await client.firstPage(
      "/openapi/v2/plant/page_plant_info",
      { businessType },
      plantRecordSchema,
      "the plant list",
    );
    sitesFound += page.total ?? page.records.length;
  }
  return { sitesFound };
}

const coordinate = (value: number | null, limit: number) =>
  value !== null && value !== 0 && Math.abs(value) <= limit ? value : null;

/**
 * Plants a unit reads: about 1.3 calls a plant (its alarms, realtime 10 inverters a call) at 90
 * calls a minute make a unit of about half a minute.
 */
const PLANTS_PER_UNIT = 40;

const knownJson = z.custom<KnownSystem>((value) => typeof value === "object" && value !== null);
const cursorSchema = z.object({
  businessTypeIndex: z.number().int().min(0),
  /** A steady cycle's position in the business type's stored plants. */
  offset: z.number().int().min(0),
  /** When the lists are read: the business type's listed plants still to read. */
  listed: z.array(z.object({ plant: knownJson, offline: z.array(z.string()) })).optional(),
});
type SolaxCursor = z.infer<typeof cursorSchema>;

/**
 * Plants and inverters are listed account-wide (paged) per business type, live values come 10
 * inverters per call, and ongoing alarms per plant. Plant power and energy are the sums of their
 * inverters', which saves one plant/realtime_data call per plant. The first unit of a business
 * type reads its lists (a plant's inverters can sit on any page of the account-wide device list)
 * and the cursor carries the listed plants still to read; each unit reads PLANTS_PER_UNIT plants'
 * live values and alarms. A steady cycle skips the lists and reads the stored plants.
 */
export async function syncOpenApiPage(
  ctx: ProviderCallContext,
  credentials: SolaxOpenApiCredentials,
  cursor: string | null,
  known: KnownSystem[] | null,
): Promise<SyncPage> {
  const at: SolaxCursor =
    cursor === null ? { businessTypeIndex: 0, offset: 0 } : cursorSchema.parse(JSON.parse(cursor));
  const businessType = BUSINESS_TYPES[at.businessTypeIndex];
  if (businessType === undefined) throw new ProviderError("malformed", "unknown SolaX sync position");
  const client = new SolaxOpenApiClient(ctx, credentials);
  const ofType = (types: BusinessType) =>
    (known ?? []).filter((plant) => (plant.providerGroup ?? "1") === types);
  let plants: PlantToRead[];
  let offset = at.offset;
  if (known !== null) {
    plants = ofType(businessType).map((plant) => ({ plant, offline: new Set<string>() }));
  } else {
    plants = at.listed
      ? at.listed.map(({ plant, offline }) => ({ plant, offline: new Set(offline) }))
      : await listedPlants(client, businessType);
    offset = 0;
  }
  const part = await businessSnapshot(
    client,
    businessType,
    plants.slice(offset, offset + PLANTS_PER_UNIT),
    known !== null,
  );
  const rest = offset + PLANTS_PER_UNIT;
  const last = at.businessTypeIndex + 1 >= BUSINESS_TYPES.length;
  let next: SolaxCursor | null;
  if (rest < plants.length) {
    next =
      known !== null
        ? { businessTypeIndex: at.businessTypeIndex, offset: rest }
        : {
            businessTypeIndex: at.businessTypeIndex,
            offset: 0,
            listed: plants.slice(rest).map(({ plant, offline }) => ({ plant, offline: [...offline] })),
          };
  } else next = last ? null : { businessTypeIndex: at.businessTypeIndex + 1, offset: 0 };
  // A steady cycle knows its units in advance; a read of the lists learns them as it goes.
  const totalPages =
    known === null
      ? null
      : BUSINESS_TYPES.reduce(
          (n, type) => n + Math.max(1, Math.ceil(ofType(type).length / PLANTS_PER_UNIT)),
          0,
        );
  return { ...part, nextCursor: next && JSON.stringify(next), pagesRead: 1, totalPages };
}

/** A plant to read, and the serials of its inverters the device list just reported offline. */
interface PlantToRead {
  plant: KnownSystem;
  offline: Set<string>;
}

/** The business type's plants with their inverters, from the account-wide plant and device lists. */
async function listedPlants(client: SolaxOpenApiClient, businessType: BusinessType): Promise<PlantToRead[]> {
  const plants = await client.records(
    "/openapi/v2/plant/page_plant_info",
    { businessType },
    plantRecordSchema,
    "the plant list",
  );
  if (plants.length === 0) return [];
  const devices = await client.records(
    "/openapi/v2/device/page_device_info",
    { businessType, deviceType: INVERTER },
    deviceRecordSchema,
    "the inverter list",
  );
  const devicesByPlant = new Map<string, SolaxDeviceRecord[]>();
  for (const device of devices) {
    if (device.plantId === null) continue;
    devicesByPlant.set(device.plantId, [...(devicesByPlant.get(device.plantId) ?? []), device]);
  }
  return plants.map((plant) => {
    const plantDevices = devicesByPlant.get(plant.plantId) ?? [];
    return {
      plant: {
        providerSystemId: plant.plantId,
        name: plant.plantName ?? `SolaX plant ${plant.plantId}`,
        ...plantPlace(plant),
        // The OpenAPI gives a UTC offset at best, not an IANA zone; it is derived from the coordinates.
        timezone: null,
        providerGroup: businessType,
        inverters: plantDevices.map((device) => ({
          providerInverterId: device.deviceSn,
          serial: device.deviceSn,
          model: null,
          ratedPowerW: null,
        })),
      },
      offline: new Set(plantDevices.filter((d) => d.onlineStatus === 0).map((d) => d.deviceSn)),
    };
  });
}

async function businessSnapshot(
  client: SolaxOpenApiClient,
  businessType: BusinessType,
  plants: PlantToRead[],
  stored: boolean,
) {
  const rows = new Map<string, SolaxRealtimeRow>();
  const serials = [
    ...new Set(plants.flatMap(({ plant }) => plant.inverters.map((inverter) => inverter.providerInverterId))),
  ];
  for (let start = 0; start < serials.length; start += SN_BATCH) {
    const batch = serials.slice(start, start + SN_BATCH);
    const answer = await client.get(
      "/openapi/v2/device/realtime_data",
      { snList: batch.join(","), deviceType: INVERTER, businessType },
      realtimeResultSchema,
      "the inverters' realtime data",
    );
    for (const row of answer) rows.set(row.deviceSn, row);
  }

  const systems: NormalisedSystem[] = [];
  const alarms: NormalisedAlarm[] = [];
  for (const { plant, offline } of plants) {
    const inverters = plant.inverters.map((inverter) =>
      toInverter(inverter, rows.get(inverter.providerInverterId), offline.has(inverter.providerInverterId)),
    );
    const plantRows = plant.inverters.flatMap((inverter) => rows.get(inverter.providerInverterId) ?? []);
    const offset =
      plantRows
        .map((row) => offsetMinutes(row.dataTime, row.plantLocalTime))
        .find((value) => value !== null) ?? null;
    const ongoing = await plantAlarms(client, plant.providerSystemId, businessType, stored);
    alarms.push(...ongoing.map((record) => toAlarm(plant.providerSystemId, record, offset)));
    const dataTimes = inverters.flatMap((inverter) =>
      inverter.dataTime === null ? [] : [inverter.dataTime],
    );
    const { inverters: _known, ...described } = plant;
    systems.push({
      ...described,
      state: combinedState([
        ...inverters.map((inverter) => inverter.state),
        ...(ongoing.length > 0 ? ["alarm" as const] : []),
      ]),
      powerW: sum(inverters.map((inverter) => inverter.powerW)),
      energyTodayWh: sum(inverters.map((inverter) => inverter.energyTodayWh)),
      energyTotalWh: sum(inverters.map((inverter) => inverter.energyTotalWh)),
      dataTime: dataTimes.length > 0 ? Math.max(...dataTimes) : null,
      inverters,
    });
  }
  return { systems, alarms };
}

/** A plant's ongoing alarms; SolaX refusing a stored plant's id means it left the application. */
async function plantAlarms(
  client: SolaxOpenApiClient,
  plantId: string,
  businessType: BusinessType,
  stored: boolean,
): Promise<SolaxAlarmRecord[]> {
  try {
    return await client.records(
      "/openapi/v2/alarm/page_alarm_info",
      { plantId, businessType, alarmState: "1" },
      alarmRecordSchema,
      `the alarms of plant ${plantId}`,
    );
  } catch (error) {
    if (stored && error instanceof ProviderError && error.kind === "invalid_request") {
      throw new StaleListsError(`SolaX no longer lists plant ${plantId} for this application`);
    }
    throw error;
  }
}

/** Capacity (kWp to W), address and coordinates of a plant record. */
function plantPlace(plant: SolaxPlantRecord) {
  const capacityKw = plant.pvCapacity ?? plant.capacity;
  return {
    capacityW: capacityKw !== null && capacityKw > 0 ? Math.round(capacityKw * 1000) : null,
    address: plant.plantAddress ?? plant.address,
    latitude: coordinate(plant.latitude, 90),
    longitude: coordinate(plant.longitude, 180),
  };
}
