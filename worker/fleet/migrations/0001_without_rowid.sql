-- Readings and rollups are read as one system's (or inverter's) time range and keyed by it:
-- WITHOUT ROWID stores each table in key order with no separate key index, halving its size.
-- The tables are empty at this point (created by 0000); same columns and keys.
DROP TABLE `system_readings`;
--> statement-breakpoint
CREATE TABLE `system_readings` (
	`sys` integer NOT NULL,
	`t` integer NOT NULL,
	`power_w` integer,
	`energy_today_wh` integer,
	`state` integer NOT NULL,
	PRIMARY KEY(`sys`, `t`)
) WITHOUT ROWID;
--> statement-breakpoint
DROP TABLE `inverter_readings`;
--> statement-breakpoint
CREATE TABLE `inverter_readings` (
	`inv` integer NOT NULL,
	`t` integer NOT NULL,
	`power_w` integer,
	`energy_today_wh` integer,
	`temperature_dc` integer,
	`state` integer NOT NULL,
	PRIMARY KEY(`inv`, `t`)
) WITHOUT ROWID;
--> statement-breakpoint
DROP TABLE `system_hourly`;
--> statement-breakpoint
CREATE TABLE `system_hourly` (
	`sys` integer NOT NULL,
	`hour` integer NOT NULL,
	`avg_power_w` integer,
	`samples` integer NOT NULL,
	PRIMARY KEY(`sys`, `hour`)
) WITHOUT ROWID;
--> statement-breakpoint
DROP TABLE `system_daily`;
--> statement-breakpoint
CREATE TABLE `system_daily` (
	`sys` integer NOT NULL,
	`date` text NOT NULL,
	`energy_wh` integer NOT NULL,
	`peak_power_w` integer,
	PRIMARY KEY(`sys`, `date`)
) WITHOUT ROWID;
