import type { GeocodeResult } from "../../schema/api/geocode";
import type { Portfolio } from "../../schema/api/portfolios";
import type { AvailableSystem, EnhancedSite, Site, SiteSystem } from "../../schema/api/sites";
import type { YieldEstimateResponse } from "../../schema/api/solar";

/** Fixtures in the server's answer shapes (schema/api), for the site and portfolio screens. */

export function makeSite(overrides: Partial<Site> = {}): Site {
  return {
    id: "site-1",
    name: "Warehouse Roof",
    address: "Keizersgracht 123, Amsterdam",
    location: "123, Keizersgracht, Amsterdam, Noord-Holland, Nederland",
    latitude: 52.3752,
    longitude: 4.8862,
    city: "Amsterdam",
    state: "Noord-Holland",
    country: "Nederland",
    timezone: "Europe/Amsterdam",
    locationSource: "verified",
    provider: "solis",
    providers: ["solis"],
    capacity: 12.5,
    capacitySource: "systems",
    acLimitKw: null,
    tiltDeg: null,
    azimuthDeg: null,
    estimatedYield: 11800,
    status: "online",
    currentPower: 4321,
    todayGeneration: 18_400,
    lastUpdate: "2026-06-01T10:15:00.000Z",
    isActive: true,
    label: null,
    systemCount: 2,
    onlineSystemCount: 2,
    createdAt: "2026-05-01T08:00:00.000Z",
    updatedAt: "2026-05-01T08:00:00.000Z",
    ...overrides,
  };
}

export function makeSiteSystem(overrides: Partial<SiteSystem> = {}): SiteSystem {
  return {
    id: "system-1",
    systemName: "Roof East",
    provider: "solis",
    providerId: "1298491919448889001",
    capacity: 6.5,
    systemType: "pv",
    state: "online",
    status: "online",
    currentPowerW: 2100,
    todayEnergyWh: 9200,
    dataTime: "2026-06-01T10:15:00.000Z",
    inverterCount: 1,
    orientation: {
      tiltDeg: null,
      azimuthDeg: null,
      acLimitKw: null,
      effective: {
        tiltDeg: 36.6,
        tiltSource: "default",
        azimuthDeg: 180,
        azimuthSource: "default",
        acLimitKw: 6,
        acLimitSource: "inverters",
      },
    },
    ...overrides,
  };
}

export function makeEnhancedSite(overrides: Partial<EnhancedSite> = {}): EnhancedSite {
  const site = makeSite(overrides);
  return {
    ...site,
    totalCapacity: site.capacity,
    systems: [
      makeSiteSystem(),
      makeSiteSystem({
        id: "system-2",
        systemName: "Roof West",
        providerId: "1298491919448889002",
        capacity: 6,
      }),
    ],
    ...overrides,
  };
}

export function makeAvailableSystem(overrides: Partial<AvailableSystem> = {}): AvailableSystem {
  return {
    id: "avail-1",
    name: "Canal House",
    provider: "solis",
    providerId: "1298491919448889101",
    capacity: 5.2,
    type: "pv",
    location: "Amsterdam",
    latitude: 52.37,
    longitude: 4.89,
    state: "online",
    currentPowerW: 1800,
    dataTime: "2026-06-01T10:10:00.000Z",
    ...overrides,
  };
}

export function makePortfolio(overrides: Partial<Portfolio> = {}): Portfolio {
  return {
    id: "portfolio-1",
    name: "North Holland",
    createdAt: "2026-05-02T08:00:00.000Z",
    updatedAt: "2026-05-02T08:00:00.000Z",
    siteCount: 0,
    siteIds: [],
    capacityKw: 0,
    currentPowerW: 0,
    todayEnergyWh: 0,
    performanceRatio: null,
    ...overrides,
  };
}

export const amsterdam: GeocodeResult = {
  formattedAddress: "123, Keizersgracht, Grachtengordel-West, Amsterdam, Noord-Holland, Nederland",
  latitude: 52.3752,
  longitude: 4.8862,
  city: "Amsterdam",
  state: "Noord-Holland",
  country: "Nederland",
  countryCode: "NL",
  postcode: "1015 CJ",
};

export const rotterdam: GeocodeResult = {
  formattedAddress: "Rotterdam, Zuid-Holland, Nederland",
  latitude: 51.9244,
  longitude: 4.4778,
  city: "Rotterdam",
  state: "Zuid-Holland",
  country: "Nederland",
  countryCode: "NL",
  postcode: null,
};

export const estimate: YieldEstimateResponse = {
  annualYield: 9876.4,
  monthlyAverage: 823,
  monthlyYield: [200, 350, 700, 1000, 1250, 1300, 1280, 1100, 800, 500, 250, 150],
  specificYield: 950,
  peakSunHours: 2.9,
  solarIrradiance: 2.74,
  performanceRatio: 0.86,
  tiltDeg: 38,
  azimuthDeg: 180,
};
