import type { SystemState } from "../../schema/domain";
import type { StoredState } from "../../schema/fleet-tables";
import { stateNumber } from "../domain/system-state";

/** The store keeps states as the dashboard's numbers: 1 online, 2 offline, 3 alarm. */
export const toStoredState = (state: SystemState): StoredState => stateNumber(state);

export const fromStoredState = (state: number | null): SystemState | null =>
  state === null ? null : state === 1 ? "online" : state === 3 ? "alarm" : "offline";

/** SQL giving the state's name from a stored number (the shape the metric rows carry). */
export const stateNameSql = (column: string) =>
  `CASE ${column} WHEN 1 THEN 'online' WHEN 3 THEN 'alarm' ELSE 'offline' END`;
