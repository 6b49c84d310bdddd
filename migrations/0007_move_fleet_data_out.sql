-- Readings, rollups and live values move into each organisation's fleet store (a SQLite-backed
-- Durable Object). They wait here, with their organisation, until the worker has moved them
-- (worker/fleet/legacy-move.ts, run by `npm start` and by the maintenance cron), which then drops
-- these tables. The next migration drops the originals.
CREATE TABLE `fleet_import_system_readings` AS
  SELECT ms.org_id, r.system_id, r.time, r.power_w, r.energy_today_wh, r.state
  FROM `system_readings` r JOIN `monitoring_systems` ms ON ms.id = r.system_id;
--> statement-breakpoint
CREATE TABLE `fleet_import_inverter_readings` AS
  SELECT i.org_id, r.inverter_id, r.time, r.power_w, r.energy_today_wh, r.temperature_c, r.state
  FROM `inverter_readings` r JOIN `inverters` i ON i.id = r.inverter_id;
--> statement-breakpoint
CREATE TABLE `fleet_import_hourly` AS
  SELECT ms.org_id, h.system_id, h.hour_start, h.avg_power_w, h.samples
  FROM `system_energy_hourly` h JOIN `monitoring_systems` ms ON ms.id = h.system_id;
--> statement-breakpoint
CREATE TABLE `fleet_import_daily` AS
  SELECT ms.org_id, d.system_id, d.date, d.energy_wh, d.peak_power_w
  FROM `system_energy_daily` d JOIN `monitoring_systems` ms ON ms.id = d.system_id;
--> statement-breakpoint
CREATE TABLE `fleet_import_live` AS
  SELECT org_id, id AS system_id, state, power_w, energy_today_wh, energy_total_wh, data_time
  FROM `monitoring_systems` WHERE data_time IS NOT NULL;
--> statement-breakpoint
CREATE TABLE `fleet_import_inverter_live` AS
  SELECT org_id, id AS inverter_id, system_id, state, power_w, energy_today_wh, temperature_c, data_time
  FROM `inverters` WHERE data_time IS NOT NULL;
