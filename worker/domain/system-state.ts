import type { SystemState } from "../../schema/domain";

/**
 * A system's state as a number, the way the dashboard, the live messages and the fleet store
 * carry it: 1 online, 3 alarm, anything else 2 (offline) (docs/product.md).
 */
export const stateNumber = (state: SystemState): 1 | 2 | 3 =>
  state === "online" ? 1 : state === "alarm" ? 3 : 2;
