import type { z } from "zod";
import { ProviderError } from "../errors";
import type { ProviderCallContext } from "../types";
import { parseVendorAnswer } from "../vendor-parse";
import { ensureOwnerConsent, requestAccessToken } from "./auth";
import type { SmaCredentials } from "./credentials";
import {
  deviceListSchema,
  measurementSetsSchema,
  plantListSchema,
  plantSchema,
  pvSeriesSchema,
} from "./schemas";
import { readSmaSession, type SmaSession, writeSmaSession } from "./session";

/** SMA's tokens live 300 s; one with less than this left is replaced before a call, not after a 401. */
const TOKEN_REFRESH_MARGIN_MS = 30_000;
/** Which measurement sets a device offers is asked again once a day. */
const SETS_RECHECK_MS = 86_400_000;
export const PV_SET = "EnergyAndPowerPv";

const segment = encodeURIComponent;

/** Calls to the SMA Monitoring API for one client and plant owner: token, consent, data. */
export class SmaClient {
  private session: SmaSession;
  /** Whether the token in use was issued during this sync (a rejected one is then not renewed again). */
  private tokenIsFresh = false;

  constructor(
    private readonly ctx: ProviderCallContext,
    private readonly credentials: SmaCredentials,
  ) {
    this.session = readSmaSession(ctx.session, credentials.clientId);
  }

  /** Stores the session (token, consent, device sets) for the next sync. */
  save(): void {
    writeSmaSession(this.ctx.session, this.session);
  }

  private async accessToken(): Promise<string> {
    const { accessToken, accessTokenExpiresAt } = this.session;
    if (accessToken && accessTokenExpiresAt !== undefined) {
      if (accessTokenExpiresAt - this.ctx.now() > TOKEN_REFRESH_MARGIN_MS) return accessToken;
    }
    return this.renewToken();
  }

  private async renewToken(): Promise<string> {
    const token = await requestAccessToken(this.ctx, this.credentials);
    this.session = { ...this.session, accessToken: token.value, accessTokenExpiresAt: token.expiresAt };
    this.tokenIsFresh = true;
    this.save();
    return token.value;
  }

  /**
   * Syncs trust a consent SMA already reported as accepted; a connection test always asks SMA
   * again and may re-send a declined request.
   */
  async ensureConsent(options: { recheck: boolean }): Promise<void> {
    const owner = this.credentials.ownerEmail.toLowerCase();
    if (!options.recheck && this.session.consentAcceptedFor === owner) return;
    await ensureOwnerConsent(
      this.ctx,
      await this.accessToken(),
      this.credentials.ownerEmail,
      options.recheck,
    );
    this.session = { ...this.session, consentAcceptedFor: owner };
    this.save();
  }

  private async get<T extends z.ZodType>(path: string, schema: T, what: string): Promise<z.infer<T>> {
    const request = (token: string) =>
      this.ctx.http.json({
        url: `${this.ctx.urls.sma}${path}`,
        headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
      });
    try {
      return parseVendorAnswer(schema, await request(await this.accessToken()), "SMA", `the ${what}`);
    } catch (error) {
      if (!(error instanceof ProviderError) || error.kind !== "auth") throw error;
      if (!this.tokenIsFresh) {
        // A cached token SMA no longer accepts (revoked early): one new token, one more try.
        await this.renewToken();
        return this.get(path, schema, what);
      }
      // A fresh token refused: the owner's consent is the likely cause; ask again next time.
      this.session = { ...this.session, consentAcceptedFor: undefined };
      this.save();
      throw new ProviderError(
        "auth",
        `SMA refused access to the ${what} (${error.message}): the plant owner may have withdrawn consent. Test the connection to ask them again.`,
      );
    }
  }

  async plants() {
    return (await this.get("/v1/plants", plantListSchema, "plant list")).plants;
  }

  async plant(plantId: string) {
    return this.get(`/v1/plants/${segment(plantId)}`, plantSchema, `details of plant ${plantId}`);
  }

  async devices(plantId: string) {
    const path = `/v1/plants/${segment(plantId)}/devices/lean`;
    return (await this.get(path, deviceListSchema, `device list of plant ${plantId}`)).devices;
  }

  /** Whether the device offers PV power and energy: asked, not assumed, and remembered for a day. */
  async offersPv(deviceId: string): Promise<boolean> {
    const now = this.ctx.now();
    const checkedAt = this.session.setsCheckedAt;
    if (checkedAt === undefined || now - checkedAt >= SETS_RECHECK_MS || !this.session.pvSetByDevice) {
      this.session = { ...this.session, pvSetByDevice: {}, setsCheckedAt: now };
    }
    const known = this.session.pvSetByDevice?.[deviceId];
    if (known !== undefined) return known;
    const path = `/v1/devices/${segment(deviceId)}/measurements/sets`;
    const { sets } = await this.get(path, measurementSetsSchema, `measurement sets of device ${deviceId}`);
    const offers = sets.includes(PV_SET);
    this.session.pvSetByDevice = this.session.pvSetByDevice ?? {};
    this.session.pvSetByDevice[deviceId] = offers;
    return offers;
  }

  /** Whether the last read of the lists found that the plant offers no plant-level PV set. */
  lacksPlantSet(plantId: string): boolean {
    return this.session.plantsWithoutPvSet?.includes(plantId) ?? false;
  }

  /** Records, while the lists are read, whether the plant offers a plant-level PV set. */
  notePlantSet(plantId: string, offered: boolean): void {
    const without = (this.session.plantsWithoutPvSet ?? []).filter((id) => id !== plantId);
    this.session = { ...this.session, plantsWithoutPvSet: offered ? without : [...without, plantId] };
  }

  /** The newest PV power values (W). */
  async recentPv(deviceId: string) {
    const path = `/v1/devices/${segment(deviceId)}/measurements/sets/${PV_SET}/Recent`;
    return this.get(path, pvSeriesSchema, `recent PV power of device ${deviceId}`);
  }

  /** A whole plant's newest PV power measurement (W) with its plant-local time. */
  async plantRecentPv(plantId: string) {
    const path = `/v1/plants/${segment(plantId)}/measurements/sets/${PV_SET}/Recent`;
    return this.get(path, pvSeriesSchema, `recent PV power of plant ${plantId}`);
  }

  /** One plant-local day of a whole plant's PV energy in 5-minute buckets (Wh): one call per plant and day. */
  async plantDayPvEnergy(plantId: string, date: string) {
    const path = `/v1/plants/${segment(plantId)}/measurements/sets/${PV_SET}/Day?Date=${date}&ReturnEnergyValues=true`;
    return this.get(path, pvSeriesSchema, `PV energy of plant ${plantId} on ${date}`);
  }

  /** One plant-local day of PV energy in 5-minute buckets (Wh). */
  async dayPvEnergy(deviceId: string, date: string) {
    const path = `/v1/devices/${segment(deviceId)}/measurements/sets/${PV_SET}/Day?Date=${date}&ReturnEnergyValues=true`;
    return this.get(path, pvSeriesSchema, `PV energy of device ${deviceId} on ${date}`);
  }
}
