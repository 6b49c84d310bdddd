CREATE TABLE `irradiance_fetches` (
	`location_key` text PRIMARY KEY NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `irradiance_hourly` (
	`location_key` text NOT NULL,
	`hour_start` integer NOT NULL,
	`ghi_wm2` real NOT NULL,
	PRIMARY KEY(`location_key`, `hour_start`)
);
--> statement-breakpoint
CREATE TABLE `system_energy_daily` (
	`system_id` text NOT NULL,
	`date` text NOT NULL,
	`energy_wh` real NOT NULL,
	`peak_power_w` real,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`system_id`, `date`),
	FOREIGN KEY (`system_id`) REFERENCES `monitoring_systems`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `system_energy_hourly` (
	`system_id` text NOT NULL,
	`hour_start` integer NOT NULL,
	`avg_power_w` real,
	`samples` integer NOT NULL,
	PRIMARY KEY(`system_id`, `hour_start`),
	FOREIGN KEY (`system_id`) REFERENCES `monitoring_systems`(`id`) ON UPDATE no action ON DELETE cascade
);
