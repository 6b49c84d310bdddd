import type { ProviderId } from "../../schema/api/providers";

/** Brand names of the monitoring providers; they are not translated. */
export const providerNames: Record<ProviderId, string> = {
  meteronline: "Meteronline",
  solis: "Solis",
  fronius: "Fronius",
  sma: "SMA",
  solax: "SolaX",
};
