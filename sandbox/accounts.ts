/**
 * Sandbox accounts: the credentials that unlock simulated plants, listed in the README.
 * `plants` is how many plants the account holds (the benchmark account holds 500); SolaX's
 * `commercialPlants` come on top, in the Developer OpenAPI only.
 */
export const sandboxAccounts = {
  solis: [
    { keyId: "1300386381676644416", keySecret: "sandbox-solis-key-secret", plants: 3 },
    { keyId: "1300386381676644500", keySecret: "sandbox-solis-bench-secret", plants: 500 },
    // The fleet-scale account of the sync benchmark: plants in twelve zones (WORLD_SITES).
    { keyId: "1300386381676642000", keySecret: "sandbox-solis-fleet-secret", plants: 2000, world: true },
    // Ten times that, for the sync benchmark's report at 20,000 stations.
    { keyId: "1300386381676620000", keySecret: "sandbox-solis-world-secret", plants: 20000, world: true },
  ],
  fronius: [
    {
      accessKeyId: "FKIA08F3E8AE4B2B4C6B8D5E1A2B3C4D5E6F",
      accessKeyValue: "2f1c6a1e-8f0b-4a8e-9d55-0c3b7e1d2a90",
      plants: 3,
    },
    {
      accessKeyId: "FKIABENCH0000000000000000000000000500",
      accessKeyValue: "5a0c7e3b-1d2f-4b6a-8c9d-0e1f2a3b4c5d",
      plants: 500,
    },
    // The losses account (sandbox/losses.ts): five plants with known losses over any 30 days.
    {
      accessKeyId: "FKIALOSSES00000000000000000000000025",
      accessKeyValue: "7c2e9a41-3b5d-4f6e-8a1c-2d3e4f5a6b7c",
      plants: 5,
      losses: true,
    },
  ],
  sma: [
    {
      clientId: "sunfleet-sandbox",
      clientSecret: "sandbox-sma-client-secret",
      ownerEmail: "owner@sandbox.sma.test",
      plants: 3,
      // On top of `plants` (sandbox/sma.ts): a plant in Sydney, whose plant-local times run ahead
      // of UTC, with an energy meter beside its inverters; and a plant whose data manager stopped
      // uploading 3 hours ago, so its newest values are always 3 hours old.
      quirkPlants: [
        { timezone: "Australia/Sydney", energyMeter: true, uploadLagHours: 0 },
        { timezone: "Europe/Madrid", energyMeter: false, uploadLagHours: 3 },
      ],
    },
    {
      clientId: "sunfleet-bench",
      clientSecret: "sandbox-sma-bench-secret",
      ownerEmail: "bench@sandbox.sma.test",
      plants: 500,
      quirkPlants: [],
    },
  ],
  solax: [
    // Token API: one dongle (wifiSn) per plant. Developer OpenAPI: client credentials.
    {
      tokenId: "20240701sandboxsolaxtoken",
      wifiSns: ["SVSANDBOX1", "SVSANDBOX2", "SVSANDBOX3"],
      clientId: "solax-sandbox-client",
      clientSecret: "sandbox-solax-client-secret",
      plants: 3,
      // Developer OpenAPI only: commercial and industrial plants (business type 4), 150 kW each.
      commercialPlants: 1,
    },
    {
      tokenId: "20240701benchsolaxtoken",
      wifiSns: [] as string[],
      clientId: "solax-bench-client",
      clientSecret: "sandbox-solax-bench-secret",
      plants: 500,
      commercialPlants: 0,
    },
    // The fleet-scale account of the sync benchmark: 480 residential and 20 commercial plants.
    {
      tokenId: "20240701fleetsolaxtoken",
      wifiSns: [] as string[],
      clientId: "solax-fleet-client",
      clientSecret: "sandbox-solax-fleet-secret",
      plants: 480,
      commercialPlants: 20,
    },
  ],
} as const;
