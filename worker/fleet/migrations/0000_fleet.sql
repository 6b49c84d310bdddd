CREATE TABLE `inverter_readings` (
	`inv` integer NOT NULL,
	`t` integer NOT NULL,
	`power_w` integer,
	`energy_today_wh` integer,
	`temperature_dc` integer,
	`state` integer NOT NULL,
	PRIMARY KEY(`inv`, `t`)
);
--> statement-breakpoint
CREATE TABLE `inverters` (
	`inv` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`inverter_id` text NOT NULL,
	`sys` integer NOT NULL,
	`serial` text,
	`state` integer,
	`power_w` integer,
	`energy_today_wh` integer,
	`temperature_c` real,
	`data_time` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inverters_inverter_id_unique` ON `inverters` (`inverter_id`);--> statement-breakpoint
CREATE INDEX `inverters_sys_idx` ON `inverters` (`sys`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `system_daily` (
	`sys` integer NOT NULL,
	`date` text NOT NULL,
	`energy_wh` integer NOT NULL,
	`peak_power_w` integer,
	PRIMARY KEY(`sys`, `date`)
);
--> statement-breakpoint
CREATE TABLE `system_hourly` (
	`sys` integer NOT NULL,
	`hour` integer NOT NULL,
	`avg_power_w` integer,
	`samples` integer NOT NULL,
	PRIMARY KEY(`sys`, `hour`)
);
--> statement-breakpoint
CREATE TABLE `system_readings` (
	`sys` integer NOT NULL,
	`t` integer NOT NULL,
	`power_w` integer,
	`energy_today_wh` integer,
	`state` integer NOT NULL,
	PRIMARY KEY(`sys`, `t`)
);
--> statement-breakpoint
CREATE TABLE `systems` (
	`sys` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`system_id` text NOT NULL,
	`provider` text NOT NULL,
	`provider_system_id` text NOT NULL,
	`name` text NOT NULL,
	`capacity_w` real,
	`site_id` text,
	`site_name` text,
	`site_capacity_kw` real,
	`address` text,
	`latitude` real,
	`longitude` real,
	`timezone` text NOT NULL,
	`location_key` text,
	`state` integer,
	`power_w` integer,
	`energy_today_wh` integer,
	`energy_total_wh` integer,
	`data_time` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `systems_system_id_unique` ON `systems` (`system_id`);