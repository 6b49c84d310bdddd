CREATE TABLE `inverter_losses` (
	`inv` integer NOT NULL,
	`date` text NOT NULL,
	`expected_wh` integer NOT NULL,
	`actual_wh` integer NOT NULL,
	`partial_outage_wh` integer NOT NULL,
	`down_steps` integer NOT NULL,
	PRIMARY KEY(`inv`, `date`)
);
--> statement-breakpoint
CREATE TABLE `losses_due` (
	`sys` integer NOT NULL,
	`date` text NOT NULL,
	PRIMARY KEY(`sys`, `date`)
);
--> statement-breakpoint
CREATE TABLE `system_losses` (
	`sys` integer NOT NULL,
	`date` text NOT NULL,
	`expected_wh` integer NOT NULL,
	`actual_wh` integer NOT NULL,
	`weather_wh` integer NOT NULL,
	`downtime_wh` integer NOT NULL,
	`partial_outage_wh` integer NOT NULL,
	`clipping_wh` integer NOT NULL,
	`soiling_wh` integer NOT NULL,
	`underperformance_wh` integer NOT NULL,
	`unmeasured_wh` integer NOT NULL,
	`healthy_reference_wh` integer NOT NULL,
	`healthy_actual_wh` integer NOT NULL,
	`soilable_wh` integer NOT NULL,
	`peak_power_w` integer NOT NULL,
	`plateau_steps` integer NOT NULL,
	`precipitation_mm` real NOT NULL,
	`calibration` real NOT NULL,
	`ac_limit_w` integer,
	`computed_at` integer NOT NULL,
	PRIMARY KEY(`sys`, `date`)
);
--> statement-breakpoint
CREATE INDEX `system_losses_date_idx` ON `system_losses` (`date`);--> statement-breakpoint
CREATE TABLE `system_models` (
	`sys` integer PRIMARY KEY NOT NULL,
	`calibration` real NOT NULL,
	`calibration_days` integer NOT NULL,
	`inferred_ac_limit_w` integer,
	`updated_at` integer NOT NULL
);
