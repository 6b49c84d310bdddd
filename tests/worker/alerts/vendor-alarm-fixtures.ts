import type { NormalisedAlarm, NormalisedSystem } from "../../../worker/providers/types";

/** A vendor plant in alarm, with no live values: what a sync page carries for a plant whose vendor reports a fault. */
export const plantOne: NormalisedSystem = {
  providerSystemId: "plant-1",
  name: "Plant One",
  address: null,
  latitude: 48.1,
  longitude: 11.6,
  timezone: "Europe/Berlin",
  capacityW: 10_000,
  state: "alarm",
  powerW: null,
  energyTodayWh: null,
  energyTotalWh: null,
  dataTime: null,
  inverters: [],
};

/** An open alarm the vendor reports for Plant One's inverter INV-9 (title and message alike). */
export const plantOneAlarm = (
  alarm: Pick<NormalisedAlarm, "providerAlarmId" | "title" | "severity" | "startedAt"> &
    Partial<NormalisedAlarm>,
): NormalisedAlarm => ({
  providerSystemId: plantOne.providerSystemId,
  deviceSerial: "INV-9",
  code: alarm.providerAlarmId,
  message: alarm.title,
  endedAt: null,
  ...alarm,
});
