import type { MeteronlineImportBody, MeteronlineImportResult } from "../../schema/api/meteronline";
import { findConnection, updateConnection } from "../data/connections";
import { isKnownTimezone } from "../domain/timezones";
import { runBatch } from "../lib/db";
import { ApiError, invalidInput } from "../lib/errors";
import type { NormalisedSystem } from "../providers/types";
import { type ImportedReading, parseMeteronlineCsv, storeSystemsPage } from "../sync";
import { auditEntry } from "./audit";
import { authorizeOrgAction } from "./authorization";
import type { UserContext } from "./context";

/** The newest reading of each system becomes its current values. */
function latestPerSystem(readings: ImportedReading[]): NormalisedSystem[] {
  const latest = new Map<string, ImportedReading>();
  for (const r of readings) {
    const current = latest.get(r.providerSystemId);
    if (!current || r.time > current.time) latest.set(r.providerSystemId, r);
  }
  return [...latest.values()].map((r) => ({
    providerSystemId: r.providerSystemId,
    name: r.systemName,
    address: null,
    latitude: null,
    longitude: null,
    timezone: null,
    capacityW: null,
    state: "online",
    powerW: r.powerW,
    energyTodayWh: r.energyTodayWh,
    energyTotalWh: null,
    dataTime: r.time,
    inverters: [],
  }));
}

export async function importMeteronlineCsv(
  ctx: UserContext,
  body: MeteronlineImportBody,
): Promise<MeteronlineImportResult> {
  const org = authorizeOrgAction(ctx, "credentials:manage");
  if (!isKnownTimezone(body.timezone)) {
    throw invalidInput(`Unknown time zone: ${body.timezone}`, [
      { path: ["timezone"], message: "Unknown time zone" },
    ]);
  }
  const parsed = parseMeteronlineCsv(body);
  if (parsed.missingColumns.length > 0) {
    throw new ApiError({
      code: "unreadable_file",
      message: `The file has no column named ${parsed.missingColumns.map((c) => `"${c}"`).join(", ")}`,
      details: { missingColumns: parsed.missingColumns, columns: parsed.headers },
    });
  }
  if (parsed.readings.length === 0) {
    throw new ApiError({
      code: "unreadable_file",
      message: "No row of the file could be read",
      details: { errors: parsed.errors },
    });
  }
  const connection = await findConnection(org.db, org.user.orgId, "meteronline");
  const scope = {
    orgId: org.user.orgId,
    provider: "meteronline" as const,
    connectionId: connection?.id ?? null,
    now: org.now,
  };
  const systems = latestPerSystem(parsed.readings);
  const newestDataAt = Math.max(...systems.map((s) => s.dataTime ?? 0), connection?.newestDataAt ?? 0);
  // The readings go to the organisation's fleet store with the systems' metadata; the import is
  // recorded once they are stored.
  await storeSystemsPage(org, scope, {
    systems,
    alarms: null,
    history: parsed.readings.map((r) => ({
      providerSystemId: r.providerSystemId,
      time: r.time,
      powerW: r.powerW,
      energyTodayWh: r.energyTodayWh,
    })),
    publish: false,
  });
  await runBatch(org.db, [
    ...(connection
      ? [
          updateConnection(org.db, connection.id, {
            lastSyncAt: org.now,
            lastSyncStatus: "success",
            lastError: null,
            newestDataAt,
          }),
        ]
      : []),
    auditEntry(org, {
      orgId: org.user.orgId,
      actorId: org.user.id,
      actorEmail: org.user.email,
      action: "meteronline.import",
      targetType: "provider",
      targetId: "meteronline",
      details: { rows: parsed.rowsRead, readings: parsed.readings.length, systems: systems.length },
    }),
  ]);
  const skipped = parsed.errors.length;
  return {
    message: `Imported ${parsed.readings.length} readings for ${systems.length} systems${skipped ? `; ${skipped} rows could not be read` : ""}`,
    rowsRead: parsed.rowsRead,
    readingsImported: parsed.readings.length,
    systems: systems.length,
    errors: parsed.errors,
  };
}
