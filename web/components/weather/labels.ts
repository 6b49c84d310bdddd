/** SPEC section 4: the weather label from cloud cover (%). */
export type ConditionsLabel = "clearSky" | "partlyCloudy" | "cloudy";
export function conditionsLabel(cloudCover: number): ConditionsLabel {
  if (cloudCover < 30) return "clearSky";
  if (cloudCover < 70) return "partlyCloudy";
  return "cloudy";
}

/** SPEC section 4: the icon turns to a cloud above 50 % cloud cover. */
export function showsCloudIcon(cloudCover: number): boolean {
  return cloudCover > 50;
}

/** SPEC section 4: UV High at 8 or above, Moderate at 6 or above, otherwise Low. */
export type UvLabel = "high" | "moderate" | "low";
export function uvLabel(uvIndex: number): UvLabel {
  if (uvIndex >= 8) return "high";
  if (uvIndex >= 6) return "moderate";
  return "low";
}
