import { useCallback, useEffect, useMemo, useState } from "react";
import {
  advanceDemoTime,
  DEMO_SEED,
  type DemoSnapshot,
  demoSites,
  initialDemoTime,
  simulateDemo,
} from "../../lib/demo/simulation";

/** While Live, the simulated clock moves five minutes every three seconds. */
export const DEMO_TICK_MS = 3000;

const FIRST_SITE_ID = demoSites[0]?.id ?? "";

export interface DemoSimulation {
  snapshot: DemoSnapshot;
  live: boolean;
  toggleLive: () => void;
  selectedSiteId: string;
  selectSite: (siteId: string) => void;
  /** Selects the first site and sets Live (and rewinds the clock). */
  reset: () => void;
}

export function useDemoSimulation(startTime?: number): DemoSimulation {
  const [start] = useState(() => startTime ?? initialDemoTime(Date.now()));
  const [time, setTime] = useState(start);
  const [live, setLive] = useState(true);
  const [selectedSiteId, setSelectedSiteId] = useState(FIRST_SITE_ID);

  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setTime(advanceDemoTime), DEMO_TICK_MS);
    return () => clearInterval(timer);
  }, [live]);

  const snapshot = useMemo(() => simulateDemo(DEMO_SEED, time), [time]);
  const toggleLive = useCallback(() => setLive((current) => !current), []);
  const reset = useCallback(() => {
    setTime(start);
    setLive(true);
    setSelectedSiteId(FIRST_SITE_ID);
  }, [start]);

  return { snapshot, live, toggleLive, selectedSiteId, selectSite: setSelectedSiteId, reset };
}
