DROP TABLE `inverter_readings`;--> statement-breakpoint
DROP TABLE `system_energy_daily`;--> statement-breakpoint
DROP TABLE `system_energy_hourly`;--> statement-breakpoint
DROP TABLE `system_readings`;--> statement-breakpoint
ALTER TABLE `inverters` DROP COLUMN `power_w`;--> statement-breakpoint
ALTER TABLE `inverters` DROP COLUMN `energy_today_wh`;--> statement-breakpoint
ALTER TABLE `inverters` DROP COLUMN `energy_total_wh`;--> statement-breakpoint
ALTER TABLE `inverters` DROP COLUMN `temperature_c`;--> statement-breakpoint
ALTER TABLE `inverters` DROP COLUMN `data_time`;--> statement-breakpoint
ALTER TABLE `monitoring_systems` DROP COLUMN `power_w`;--> statement-breakpoint
ALTER TABLE `monitoring_systems` DROP COLUMN `energy_today_wh`;--> statement-breakpoint
ALTER TABLE `monitoring_systems` DROP COLUMN `energy_total_wh`;--> statement-breakpoint
ALTER TABLE `monitoring_systems` DROP COLUMN `data_time`;