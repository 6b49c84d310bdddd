/** The weather wording (conditions, icon, UV level), and the dashboard's reading of it for generation. */

/** Below 30 % cloud cover Clear Sky, below 70 % Partly Cloudy, otherwise Cloudy. */
export type ConditionsLabel = "clearSky" | "partlyCloudy" | "cloudy";
export function conditionsLabel(cloudCover: number): ConditionsLabel {
  if (cloudCover < 30) return "clearSky";
  if (cloudCover < 70) return "partlyCloudy";
  return "cloudy";
}

/** The icon turns to a cloud above 50 % cloud cover. */
export function showsCloudIcon(cloudCover: number): boolean {
  return cloudCover > 50;
}

/** UV High at 8 or above, Moderate at 6 or above, otherwise Low. */
export type UvLabel = "high" | "moderate" | "low";
export function uvLabel(uvIndex: number): UvLabel {
  if (uvIndex >= 8) return "high";
  if (uvIndex >= 6) return "moderate";
  return "low";
}

/** How the sky at the site bears on generation: no sun at all, then by the cloud-cover bands above. */
export type WeatherImpact = "optimal" | "reduced" | "heavy" | "night";
export function weatherImpact(weather: { cloudCover: number; solarIrradiance: number }): WeatherImpact {
  if (weather.solarIrradiance <= 0) return "night";
  const conditions = conditionsLabel(weather.cloudCover);
  return conditions === "clearSky" ? "optimal" : conditions === "partlyCloudy" ? "reduced" : "heavy";
}
