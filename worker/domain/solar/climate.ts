/**
 * Climatology by latitude: how much of the clear-sky light reaches the ground on average, and
 * how warm the daylight hours are. A deliberately small model: zonal (latitude-band) values
 * with the season following the sun, so an estimate needs no weather data set.
 *
 * Clear-sky index anchors: the ratio of long-term all-sky to clear-sky global horizontal
 * irradiance over land in each latitude band, approximated from satellite climatologies (NASA
 * POWER's ALLSKY/CLRSKY_SFC_SW_DWN, PVGIS-SARAH2), then calibrated so the whole estimate
 * reproduces published specific yields of fixed, optimally tilted systems: the Netherlands and
 * Germany about 950-1100 kWh/kWp, northern and central Italy about 1150-1350, Arizona about
 * 1500-1700 (tests/worker/services/solar-model.test.ts holds it to them). The subtropical bands
 * stand for the dry sunshine belt (south-western US, North Africa, inland Australia); humid or
 * monsoon sites at those latitudes get less in reality, so this is an estimate, not a survey.
 */

/** Absolute latitude (degrees) to annual clear-sky index; interpolated linearly between anchors. */
const CLEAR_SKY_INDEX_BY_LATITUDE: readonly (readonly [number, number])[] = [
  [0, 0.6],
  [10, 0.66],
  [20, 0.8],
  [25, 0.84],
  [30, 0.86],
  [35, 0.87],
  [40, 0.74],
  [45, 0.69],
  [50, 0.6],
  [55, 0.57],
  [60, 0.53],
  [70, 0.5],
  [90, 0.5],
];

/** Absolute latitude to the seasonal swing of the clear-sky index (summer clearer than winter). */
const SEASONAL_SWING_BY_LATITUDE: readonly (readonly [number, number])[] = [
  [0, 0],
  [20, 0.04],
  [35, 0.08],
  [45, 0.12],
  [60, 0.12],
  [90, 0.1],
];

/** Clear-sky index of a clear hour and of an overcast one: the two modes of measured hourly distributions. */
const CLEAR_SKY = 1;
const OVERCAST_SKY = 0.3;

function interpolate(table: readonly (readonly [number, number])[], x: number): number {
  let [x0, y0] = table[0] ?? [0, 0];
  if (x <= x0) return y0;
  for (const [x1, y1] of table) {
    if (x <= x1) return x1 === x0 ? y1 : y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
    x0 = x1;
    y0 = y1;
  }
  return y0;
}

/** Phase of the year: 1 at the local summer solstice, -1 at midwinter. */
function seasonPhase(latitudeDeg: number, dayOfYear: number): number {
  const northern = Math.cos((2 * Math.PI * (dayOfYear - 172)) / 365);
  return latitudeDeg >= 0 ? northern : -northern;
}

/** Average ratio of actual to clear-sky irradiance for the day of year at this latitude. */
export function clearSkyIndex(latitudeDeg: number, dayOfYear: number): number {
  const band = Math.abs(latitudeDeg);
  const annual = interpolate(CLEAR_SKY_INDEX_BY_LATITUDE, band);
  const swing = interpolate(SEASONAL_SWING_BY_LATITUDE, band);
  const index = annual + swing * seasonPhase(latitudeDeg, dayOfYear);
  return Math.min(CLEAR_SKY, Math.max(OVERCAST_SKY, index));
}

export interface SkyState {
  /** Share of the hours in this state. */
  weight: number;
  clearSkyIndex: number;
}

/**
 * The average sky as a mix of clear and overcast hours. Real skies are bimodal: spreading the
 * mean evenly over every hour would turn all light into diffuse haze and hide what tilting gains
 * on clear days, so the hours are split between the two states in the share that keeps the mean.
 */
export function skyStates(latitudeDeg: number, dayOfYear: number): [SkyState, SkyState] {
  const mean = clearSkyIndex(latitudeDeg, dayOfYear);
  const clearShare = (mean - OVERCAST_SKY) / (CLEAR_SKY - OVERCAST_SKY);
  return [
    { weight: clearShare, clearSkyIndex: CLEAR_SKY },
    { weight: 1 - clearShare, clearSkyIndex: OVERCAST_SKY },
  ];
}

/**
 * Daytime air temperature, °C: a zonal annual mean (about 27 °C in the tropics, falling with
 * latitude as ERA5's zonal means over land do), a seasonal swing that grows with latitude and
 * peaks about a month after the solstice, and the few degrees daylight hours run above the mean.
 */
export function daytimeTemperatureC(latitudeDeg: number, dayOfYear: number): number {
  const band = Math.abs(latitudeDeg);
  const annualMeanC = band < 20 ? 27 : 27 - 0.45 * (band - 20);
  const swingC = Math.min(14, 0.25 * band);
  const daylightOffsetC = 4;
  return annualMeanC + swingC * seasonPhase(latitudeDeg, dayOfYear - 25) + daylightOffsetC;
}
