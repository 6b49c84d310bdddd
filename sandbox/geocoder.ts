import { Hono } from "hono";

/**
 * Emulator of Nominatim's /search (format=jsonv2, addressdetails=1) over a small offline
 * gazetteer with real coordinates. A place matches when one of its names appears in the query
 * (case and accents ignored), or the query appears in its display name (autocomplete).
 *
 * Like nominatim.openstreetmap.org it refuses requests without an identifying User-Agent (403).
 * Fault injection by magic words in the query, for tests through the outbound sandbox:
 *   __fail_500, __fail_503   the service fails with that status
 *   __fail_429               rate limited
 *   __empty                  answers no place
 *   __slow                   answers after 10 s (longer than the worker waits)
 *   __malformed              answers an HTML page with status 200
 * GET /__calls lists the searches received (query and time), so tests can prove caching and spacing.
 */

interface Place {
  names: string[];
  lat: number;
  lon: number;
  displayName: string;
  category: string;
  type: string;
  addresstype: string;
  importance: number;
  address: Record<string, string>;
}

const nl = { country: "Nederland", country_code: "nl" };
const de = { country: "Deutschland", country_code: "de" };
const it = { country: "Italia", country_code: "it" };
const es = { country: "España", country_code: "es" };
const gb = { country: "United Kingdom", country_code: "gb" };
const us = { country: "United States", country_code: "us" };
const au = { country: "Australia", country_code: "au" };

const city = (
  names: string[],
  lat: number,
  lon: number,
  displayName: string,
  address: Record<string, string>,
  importance = 0.8,
): Place => ({
  names,
  lat,
  lon,
  displayName,
  category: "boundary",
  type: "administrative",
  addresstype: "city",
  importance,
  address,
});

const street = (
  names: string[],
  lat: number,
  lon: number,
  displayName: string,
  address: Record<string, string>,
): Place => ({
  names,
  lat,
  lon,
  displayName,
  category: "building",
  type: "yes",
  addresstype: "building",
  importance: 0.4,
  address,
});

export const gazetteer: Place[] = [
  street(
    ["keizersgracht"],
    52.3752,
    4.8862,
    "123, Keizersgracht, Grachtengordel-West, Amsterdam, Noord-Holland, Nederland, 1015 CJ, Nederland",
    {
      house_number: "123",
      road: "Keizersgracht",
      city: "Amsterdam",
      state: "Noord-Holland",
      postcode: "1015 CJ",
      ...nl,
    },
  ),
  street(
    ["damrak"],
    52.3771,
    4.8977,
    "1, Damrak, Burgwallen-Oude Zijde, Amsterdam, Noord-Holland, Nederland, 1012 LG, Nederland",
    {
      house_number: "1",
      road: "Damrak",
      city: "Amsterdam",
      state: "Noord-Holland",
      postcode: "1012 LG",
      ...nl,
    },
  ),
  city(["amsterdam"], 52.3730796, 4.8924534, "Amsterdam, Noord-Holland, Nederland", {
    city: "Amsterdam",
    state: "Noord-Holland",
    ...nl,
  }),
  city(["rotterdam"], 51.9244424, 4.47775, "Rotterdam, Zuid-Holland, Nederland", {
    city: "Rotterdam",
    state: "Zuid-Holland",
    ...nl,
  }),
  city(["utrecht"], 52.0907006, 5.1215634, "Utrecht, Nederland", {
    city: "Utrecht",
    state: "Utrecht",
    ...nl,
  }),
  street(["alexanderplatz"], 52.5219184, 13.4132147, "Alexanderplatz, Mitte, Berlin, 10178, Deutschland", {
    road: "Alexanderplatz",
    city: "Berlin",
    state: "Berlin",
    postcode: "10178",
    ...de,
  }),
  city(
    ["berlin"],
    52.5170365,
    13.3888599,
    "Berlin, Deutschland",
    { city: "Berlin", state: "Berlin", ...de },
    0.9,
  ),
  street(
    ["leopoldstrasse", "leopoldstraße"],
    48.1625,
    11.5865,
    "Leopoldstraße, Schwabing, München, Bayern, 80802, Deutschland",
    {
      road: "Leopoldstraße",
      city: "München",
      state: "Bayern",
      postcode: "80802",
      ...de,
    },
  ),
  city(["munich", "münchen", "muenchen"], 48.1371079, 11.5753822, "München, Bayern, Deutschland", {
    city: "München",
    state: "Bayern",
    ...de,
  }),
  city(["hamburg"], 53.550341, 10.000654, "Hamburg, Deutschland", {
    city: "Hamburg",
    state: "Hamburg",
    ...de,
  }),
  street(["via torino"], 45.4609, 9.1839, "Via Torino, Municipio 1, Milano, Lombardia, 20123, Italia", {
    road: "Via Torino",
    city: "Milano",
    state: "Lombardia",
    postcode: "20123",
    ...it,
  }),
  city(["milan", "milano"], 45.4641943, 9.1896346, "Milano, Lombardia, Italia", {
    city: "Milano",
    state: "Lombardia",
    ...it,
  }),
  city(["rome", "roma"], 41.8933203, 12.4829321, "Roma, Roma Capitale, Lazio, Italia", {
    city: "Roma",
    state: "Lazio",
    ...it,
  }),
  street(
    ["calle de alcala"],
    40.4203,
    -3.6986,
    "Calle de Alcalá, Centro, Madrid, Comunidad de Madrid, 28014, España",
    {
      road: "Calle de Alcalá",
      city: "Madrid",
      state: "Comunidad de Madrid",
      postcode: "28014",
      ...es,
    },
  ),
  city(["madrid"], 40.4167047, -3.7035825, "Madrid, Comunidad de Madrid, España", {
    city: "Madrid",
    state: "Comunidad de Madrid",
    ...es,
  }),
  street(
    ["downing street"],
    51.5033635,
    -0.1276248,
    "10 Downing Street, Westminster, London, Greater London, England, SW1A 2AA, United Kingdom",
    {
      house_number: "10",
      road: "Downing Street",
      city: "London",
      state: "England",
      postcode: "SW1A 2AA",
      ...gb,
    },
  ),
  city(
    ["london"],
    51.5074456,
    -0.1277653,
    "London, Greater London, England, United Kingdom",
    {
      city: "London",
      state: "England",
      ...gb,
    },
    0.9,
  ),
  street(
    ["camelback"],
    33.5092,
    -112.0335,
    "East Camelback Road, Phoenix, Maricopa County, Arizona, 85016, United States",
    {
      road: "East Camelback Road",
      city: "Phoenix",
      county: "Maricopa County",
      state: "Arizona",
      postcode: "85016",
      ...us,
    },
  ),
  city(["phoenix"], 33.4484367, -112.074141, "Phoenix, Maricopa County, Arizona, United States", {
    city: "Phoenix",
    county: "Maricopa County",
    state: "Arizona",
    ...us,
  }),
  city(
    ["new york"],
    40.7127281,
    -74.0060152,
    "City of New York, New York, United States",
    {
      city: "City of New York",
      state: "New York",
      ...us,
    },
    0.9,
  ),
  street(
    ["george street"],
    -33.8688,
    151.2069,
    "George Street, Sydney, Council of the City of Sydney, New South Wales, 2000, Australia",
    {
      road: "George Street",
      city: "Sydney",
      state: "New South Wales",
      postcode: "2000",
      ...au,
    },
  ),
  city(
    ["sydney"],
    -33.8698439,
    151.2082848,
    "Sydney, Council of the City of Sydney, New South Wales, Australia",
    {
      city: "Sydney",
      state: "New South Wales",
      ...au,
    },
  ),
];

/** Lower case, accents and punctuation dropped, single spaces. */
export const foldText = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[^\p{L}\p{N}_ ]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

const MAGIC = /__(fail_500|fail_503|fail_429|empty|slow|malformed)/;

/** Places matching the query, the most specific (streets, then longest matching name) first. */
export function searchGazetteer(query: string, countryCodes: string[], limit: number) {
  const folded = foldText(query.replace(MAGIC, " "));
  if (folded.length === 0) return [];
  const scored: { place: Place; score: number }[] = [];
  for (const place of gazetteer) {
    if (countryCodes.length > 0 && !countryCodes.includes(place.address.country_code ?? "")) continue;
    const named = place.names.map(foldText).filter((name) => folded.includes(name));
    const longest = Math.max(0, ...named.map((name) => name.length));
    // A street named in the query is more specific than the city around it.
    const specificity = place.addresstype === "city" ? 0 : 500;
    if (longest > 0) scored.push({ place, score: 1000 + specificity + longest * 10 + place.importance });
    else if (folded.length >= 3 && foldText(place.displayName).includes(folded)) {
      scored.push({ place, score: place.importance });
    }
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ place }) => place);
}

function toJsonV2(place: Place, index: number) {
  const name = place.address.road ?? place.address.city ?? place.displayName.split(",")[0] ?? "";
  return {
    place_id: 100_000 + index,
    licence: "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
    osm_type: place.addresstype === "city" ? "relation" : "way",
    osm_id: 1_000_000 + index,
    lat: place.lat.toFixed(7),
    lon: place.lon.toFixed(7),
    category: place.category,
    type: place.type,
    place_rank: place.addresstype === "city" ? 16 : 30,
    importance: place.importance,
    addresstype: place.addresstype,
    name,
    display_name: place.displayName,
    address: place.address,
    boundingbox: [
      (place.lat - 0.01).toFixed(7),
      (place.lat + 0.01).toFixed(7),
      (place.lon - 0.01).toFixed(7),
      (place.lon + 0.01).toFixed(7),
    ],
  };
}

/** Nominatim blocks generic clients; an application must name itself. */
const IDENTIFYING_AGENT = /^[A-Za-z][\w.-]*\/\S+ \(.+\)$/;

export interface GeocoderSandboxOptions {
  now: () => number;
}

export function geocoderSandbox(options: GeocoderSandboxOptions) {
  const calls: { q: string; at: number; userAgent: string }[] = [];
  return new Hono()
    .get("/__calls", (c) => c.json({ total: calls.length, calls }))
    .get("/search", async (c) => {
      const q = c.req.query("q") ?? "";
      const userAgent = c.req.header("User-Agent") ?? "";
      calls.push({ q, at: Date.now(), userAgent });
      if (calls.length > 10_000) calls.splice(0, calls.length - 10_000);
      if (!IDENTIFYING_AGENT.test(userAgent)) {
        return c.text("Access blocked: identify your application in the User-Agent (usage policy)", 403);
      }
      if (c.req.query("format") !== "jsonv2") return c.json({ error: "Unsupported format" }, 400);
      const magic = MAGIC.exec(q)?.[1];
      if (magic === "fail_500") return c.text("Internal Server Error", 500);
      if (magic === "fail_503") return c.text("Service Unavailable", 503);
      if (magic === "fail_429") return c.text("Too Many Requests", 429, { "Retry-After": "60" });
      if (magic === "malformed") return c.html("<html><body>Bad gateway</body></html>", 200);
      if (magic === "empty") return c.json([]);
      if (magic === "slow") {
        await new Promise((resolve) => setTimeout(resolve, 10_000));
        return c.json([]);
      }
      const limit = Math.min(40, Math.max(1, Number(c.req.query("limit") ?? 10) || 10));
      const countryCodes = (c.req.query("countrycodes") ?? "")
        .toLowerCase()
        .split(",")
        .map((code) => code.trim())
        .filter(Boolean);
      const places = searchGazetteer(q, countryCodes, limit);
      c.header("X-Sandbox-Time", new Date(options.now()).toISOString());
      return c.json(places.map((place) => toJsonV2(place, gazetteer.indexOf(place))));
    });
}
