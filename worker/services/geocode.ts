import { z } from "zod";
import pkg from "../../package.json";
import {
  type GeocodeBody,
  type GeocodeResult,
  type GeocodeSearch,
  geocodeResultSchema,
} from "../../schema/api/geocode";
import { readGeocodeCache, sweepGeocodeCache, writeGeocodeCache } from "../data/geocode";
import { ApiError, tooManyRequests } from "../lib/errors";
import type { FairShare } from "../throttle/fair-slots";
import type { RatePolicy } from "../throttle/rate";
import { authorizeOrgAction } from "./authorization";
import type { OrgContext, ServiceContext, UserContext } from "./context";

/**
 * Address lookups against a Nominatim-compatible geocoder, following the OpenStreetMap
 * Foundation's Nominatim usage policy (operations.osmfoundation.org/policies/nominatim):
 *  - an identifying User-Agent with a way to contact us;
 *  - at most one request per second, for the whole deployment: every isolate reserves its call
 *    slot in one fair queue (a Throttle Durable Object, worker/throttle/fair-slots.ts) and waits
 *    for it, so calls stay spaced however many isolates serve requests; a queue longer than a few
 *    seconds answers 503 instead of piling up;
 *  - that second shared fairly: a lookup the cache cannot answer is charged to its organisation's
 *    share (and an API key's) before it may queue, and an organisation has at most one call
 *    waiting in the queue, so one tenant over its share gets 429 while the others are still served;
 *  - results cached: in D1 (geocode_cache), not the Cache API, because D1 is shared by every
 *    data centre and isolate (the Cache API is per data centre and does nothing on workers.dev),
 *    so one lookup serves the whole deployment; places found are kept 30 days, "not found" one day.
 */

export const DEFAULT_GEOCODER_URL = "https://nominatim.openstreetmap.org";
/** Nominatim's usage policy: at most one call a second from the whole deployment. */
const CALL_INTERVAL_MS = 1000;
/**
 * A call leaves up to a D1 round trip after its slot (the reservation itself), while the next
 * caller may leave right on its own slot: slots are this much further apart, so the geocoder sees
 * the interval between calls even when one left late.
 */
const SEND_ALLOWANCE_MS = 150;
const MAX_QUEUE_WAIT_MS = 5000;
/** The Throttle object that holds the geocoder's queue and every organisation's share of it. */
const QUEUE_NAME = "fair-queue:geocoder";
/**
 * An organisation's share of the lookups that reach the geocoder (cache hits are free): 10 at
 * once, then one every 6 s. A person typing addresses stays well within it; six organisations at
 * their full rate use the whole deployment's second.
 */
export const ORGANISATION_GEOCODE_SHARE: RatePolicy = { burst: 10, intervalMs: 6000 };
/** An API key's share, also counted on its organisation's: half of it, so a script leaves members theirs. */
export const API_KEY_GEOCODE_SHARE: RatePolicy = { burst: 5, intervalMs: 12_000 };
/**
 * Calls one organisation may have waiting for their slot at once: the queue holds about four
 * seconds of calls, so at least four organisations always find a place in it.
 */
const MAX_WAITING_PER_ORGANISATION = 1;
export const GEOCODER_TIMEOUT_MS = 5000;
const FOUND_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const NOT_FOUND_TTL_MS = 24 * 60 * 60 * 1000;
const RESULT_LIMIT = 5;

/** The fields of Nominatim's jsonv2 answer we read; the rest is ignored. */
const nominatimPlaceSchema = z.object({
  lat: z.coerce.number().min(-90).max(90),
  lon: z.coerce.number().min(-180).max(180),
  display_name: z.string(),
  address: z.record(z.string(), z.string()).optional(),
});
const nominatimAnswerSchema = z.array(nominatimPlaceSchema);
const cachedResultsSchema = z.array(geocodeResultSchema);

const first = (address: Record<string, string>, keys: string[]) => {
  for (const key of keys) {
    const value = address[key];
    if (value) return value;
  }
  return null;
};

function toResult(place: z.infer<typeof nominatimPlaceSchema>): GeocodeResult {
  const address = place.address ?? {};
  return {
    formattedAddress: place.display_name,
    latitude: place.lat,
    longitude: place.lon,
    city: first(address, ["city", "town", "village", "municipality", "hamlet"]),
    state: first(address, ["state", "province", "region", "county"]),
    country: address.country ?? null,
    countryCode: address.country_code ? address.country_code.toUpperCase() : null,
    postcode: address.postcode ?? null,
  };
}

/** One spelling per query: case and spacing do not make a new lookup. */
export const normaliseQuery = (address: string) => address.trim().replace(/\s+/g, " ").toLowerCase();

const badGateway = (message: string, details: { reason: string; upstreamStatus?: number }) =>
  new ApiError({ code: "upstream_unavailable", message, details: { service: "geocoder", ...details } });

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A test-environment setting when it is a whole number of ms below the production value, else that value. */
function shortenedInTests(
  env: ServiceContext["env"],
  setting: string | undefined,
  productionMs: number,
): number {
  if (env.APP_ENV !== "test" || setting === undefined) return productionMs;
  const ms = Number(setting);
  return Number.isInteger(ms) && ms > 0 && ms < productionMs ? ms : productionMs;
}

/**
 * The call spacing and the answer time limit. The test suites shorten both (GEOCODER_INTERVAL_MS,
 * GEOCODER_TIMEOUT_MS) so that their lookups do not wait on the real clock; nowhere else can they change.
 */
export const geocoderTimings = (env: ServiceContext["env"]) => ({
  intervalMs: shortenedInTests(env, env.GEOCODER_INTERVAL_MS, CALL_INTERVAL_MS),
  timeoutMs: shortenedInTests(env, env.GEOCODER_TIMEOUT_MS, GEOCODER_TIMEOUT_MS),
});

async function callGeocoder(ctx: ServiceContext, query: string, countryCodes: string | undefined) {
  const base = (ctx.env.GEOCODER_URL || DEFAULT_GEOCODER_URL).replace(/\/+$/, "");
  const url = new URL(`${base}/search`);
  url.searchParams.set("q", query);
  url.searchParams.set("format", "jsonv2");
  url.searchParams.set("addressdetails", "1");
  url.searchParams.set("limit", String(RESULT_LIMIT));
  if (countryCodes) url.searchParams.set("countrycodes", countryCodes);
  const fetcher = ctx.providerFetch ?? ((request: Request) => fetch(request));
  const { timeoutMs } = geocoderTimings(ctx.env);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetcher(
      new Request(url, {
        headers: {
          "User-Agent": `Sunfleet/${pkg.version} (+${ctx.origin})`,
          Accept: "application/json",
        },
        signal: controller.signal,
      }),
    );
    text = await response.text();
  } catch {
    if (timedOut) {
      throw badGateway(`The address lookup service did not answer within ${timeoutMs / 1000} s`, {
        reason: "timeout",
      });
    }
    throw badGateway("The address lookup service could not be reached", { reason: "unreachable" });
  } finally {
    clearTimeout(timer);
  }
  if (response.status === 429) {
    throw badGateway("The address lookup service is limiting our requests; try again in a minute", {
      reason: "rate_limited",
      upstreamStatus: 429,
    });
  }
  if (!response.ok) {
    throw badGateway(`The address lookup service failed (HTTP ${response.status})`, {
      reason: "upstream_error",
      upstreamStatus: response.status,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badGateway("The address lookup service sent an answer that could not be read", {
      reason: "malformed",
    });
  }
  const parsed = nominatimAnswerSchema.safeParse(json);
  if (!parsed.success) {
    throw badGateway("The address lookup service sent an answer that could not be read", {
      reason: "malformed",
    });
  }
  return parsed.data.map(toResult);
}

/**
 * Who a lookup is charged to: an organisation (and the API key it came with), or the plant-site
 * job, which has no share of its own (it asks for three plants a run) but, like an organisation,
 * has at most one call waiting in the queue.
 */
export type GeocodeCaller = { orgId: string; apiKeyId: string | null } | "plant-sites";

/** The caller an organisation's request is charged to. */
export const geocodeCallerOf = (ctx: OrgContext): GeocodeCaller => ({
  orgId: ctx.user.orgId,
  apiKeyId: ctx.user.apiKey?.id ?? null,
});

function sharesOf(caller: GeocodeCaller): { holder: string; shares: FairShare[] } {
  if (caller === "plant-sites") return { holder: "job:plant-sites", shares: [] };
  const holder = `org:${caller.orgId}`;
  const shares: FairShare[] = [{ scope: holder, policy: ORGANISATION_GEOCODE_SHARE }];
  if (caller.apiKeyId) shares.push({ scope: `api-key:${caller.apiKeyId}`, policy: API_KEY_GEOCODE_SHARE });
  return { holder, shares };
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Waits for this caller's turn in the deployment-wide one-call-per-second queue. */
async function takeCallSlot(ctx: ServiceContext, caller: GeocodeCaller): Promise<void> {
  const queue = ctx.env.THROTTLE.get(ctx.env.THROTTLE.idFromName(QUEUE_NAME));
  const decision = await queue.reserveFairSlot({
    ...sharesOf(caller),
    maxWaitingPerHolder: MAX_WAITING_PER_ORGANISATION,
    spacingMs: geocoderTimings(ctx.env).intervalMs + SEND_ALLOWANCE_MS,
    maxQueueMs: MAX_QUEUE_WAIT_MS,
    now: Date.now(),
  });
  if (decision.outcome === "over_share") {
    throw tooManyRequests(
      `Too many address lookups from this organisation; try again in ${seconds(decision.retryAfterMs)} s`,
      seconds(decision.retryAfterMs),
    );
  }
  if (decision.outcome === "busy") {
    throw new ApiError({
      code: "upstream_unavailable",
      status: 503,
      message: "Address lookup is busy; try again in a few seconds",
      details: { service: "geocoder", reason: "busy", retryAfterSeconds: seconds(decision.retryAfterMs) },
    });
  }
  const wait = decision.slotAt - Date.now();
  if (wait > 0) await sleep(wait);
}

/** Up to five places for the query: from the cache, else from the geocoder (then cached). */
async function lookup(
  ctx: ServiceContext,
  caller: GeocodeCaller,
  address: string,
  countryCodes: string | undefined,
) {
  const query = normaliseQuery(address);
  const key = `${query}|${countryCodes ?? ""}`;
  const cached = cachedResultsSchema.safeParse(await readGeocodeCache(ctx.db, key, Date.now()));
  if (cached.success) return cached.data;
  await takeCallSlot(ctx, caller);
  const results = await callGeocoder(ctx, address.trim().replace(/\s+/g, " "), countryCodes);
  const now = Date.now();
  await ctx.db.batch([
    writeGeocodeCache(ctx.db, key, results, now, results.length > 0 ? FOUND_TTL_MS : NOT_FOUND_TTL_MS),
    sweepGeocodeCache(ctx.db, now),
  ]);
  return results;
}

/**
 * The best place for an address, or null when none matches: for a plant's address (the
 * plant-site job, or a member's request charged to their organisation). Shares the cache and the
 * fair one-call-per-second queue with the routes.
 */
export async function geocodeBest(
  ctx: ServiceContext,
  caller: GeocodeCaller,
  address: string,
): Promise<GeocodeResult | null> {
  const [best] = await lookup(ctx, caller, address, undefined);
  return best ?? null;
}

/** Address verification: the best match, or 404 "Address not found" with details. */
export async function geocodeAddress(ctx: UserContext, body: GeocodeBody): Promise<GeocodeResult> {
  const org = authorizeOrgAction(ctx, "org:read");
  const [best] = await lookup(org, geocodeCallerOf(org), body.address, body.country);
  if (!best) {
    throw new ApiError({
      code: "address_not_found",
      message: "Address not found",
      details: {
        address: body.address,
        ...(body.country ? { country: body.country.toUpperCase() } : {}),
        message: "No place matches this address. Check the spelling, or add the city and country.",
      },
    });
  }
  return best;
}

/** Address autocomplete: every match, an empty list when none. */
export async function searchAddresses(ctx: UserContext, query: GeocodeBody): Promise<GeocodeSearch> {
  const org = authorizeOrgAction(ctx, "org:read");
  return { results: await lookup(org, geocodeCallerOf(org), query.address, query.country) };
}
