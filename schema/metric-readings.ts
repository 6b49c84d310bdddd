/**
 * A dashboard metric's power and today's-energy fields: one value each under every name the
 * client has read (W and kWh aliases), built the same way by the server's read model and by the
 * client when a live update arrives. Zod-free, so the dashboard's bundle takes it as it is.
 */
export function metricReadings(powerW: number, todayWh: number, capacityW: number) {
  return {
    currentPowerW: powerW,
    pac: powerW,
    currentPower: powerW,
    power: powerW,
    todayGenerationWh: todayWh,
    etoday: todayWh / 1000,
    todayGeneration: todayWh / 1000,
    yieldtoday: todayWh / 1000,
    capacity: capacityW / 1000,
    /** Power as a share of capacity, %, one decimal. */
    efficiency: capacityW > 0 ? Math.round((powerW / capacityW) * 1000) / 10 : 0,
  };
}
