/** SPEC section 4's weather wording, and the dashboard's reading of it for generation. */

export type SkyLabel = "clearSky" | "partlyCloudy" | "cloudy";
export type UvLabel = "high" | "moderate" | "low";
export type WeatherImpact = "optimal" | "reduced" | "heavy" | "night";

/** Below 30 % Clear Sky, below 70 % Partly Cloudy, otherwise Cloudy. */
export function skyLabel(cloudCoverPercent: number): SkyLabel {
  if (cloudCoverPercent < 30) return "clearSky";
  if (cloudCoverPercent < 70) return "partlyCloudy";
  return "cloudy";
}

/** SPEC: the icon changes when the cloud cover is above 50 %. */
export const isOvercastIcon = (cloudCoverPercent: number) => cloudCoverPercent > 50;

/** High at 8 or above, Moderate at 6 or above, otherwise Low. */
export function uvLabel(uvIndex: number): UvLabel {
  if (uvIndex >= 8) return "high";
  if (uvIndex >= 6) return "moderate";
  return "low";
}

/** How the sky at the site bears on generation: no sun at all, then by SPEC's cloud bands. */
export function weatherImpact(weather: { cloudCover: number; solarIrradiance: number }): WeatherImpact {
  if (weather.solarIrradiance <= 0) return "night";
  const sky = skyLabel(weather.cloudCover);
  return sky === "clearSky" ? "optimal" : sky === "partlyCloudy" ? "reduced" : "heavy";
}

/** SPEC's fixed coordinates, used only when the organisation has no sites. */
export const DEFAULT_WEATHER_LOCATION = { latitude: 40.7128, longitude: -74.006 } as const;
