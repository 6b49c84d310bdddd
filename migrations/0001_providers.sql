CREATE TABLE `alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`system_id` text,
	`provider` text,
	`provider_alarm_id` text,
	`device_serial` text,
	`code` text,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`severity` text NOT NULL,
	`created_at` integer NOT NULL,
	`resolved` integer DEFAULT false NOT NULL,
	`resolved_at` integer,
	`resolved_by` text,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`system_id`) REFERENCES `monitoring_systems`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alerts_org_provider_alarm_unique` ON `alerts` (`org_id`,`provider`,`provider_alarm_id`);--> statement-breakpoint
CREATE INDEX `alerts_org_resolved_created_idx` ON `alerts` (`org_id`,`resolved`,`created_at`);--> statement-breakpoint
CREATE TABLE `inverter_readings` (
	`inverter_id` text NOT NULL,
	`time` integer NOT NULL,
	`power_w` real,
	`energy_today_wh` real,
	`temperature_c` real,
	`state` text NOT NULL,
	PRIMARY KEY(`inverter_id`, `time`),
	FOREIGN KEY (`inverter_id`) REFERENCES `inverters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `inverters` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`system_id` text NOT NULL,
	`provider_inverter_id` text NOT NULL,
	`serial` text,
	`model` text,
	`rated_power_w` real,
	`state` text NOT NULL,
	`power_w` real,
	`energy_today_wh` real,
	`energy_total_wh` real,
	`temperature_c` real,
	`data_time` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`system_id`) REFERENCES `monitoring_systems`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inverters_system_provider_inverter_unique` ON `inverters` (`system_id`,`provider_inverter_id`);--> statement-breakpoint
CREATE TABLE `monitoring_systems` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`connection_id` text,
	`provider` text NOT NULL,
	`provider_system_id` text NOT NULL,
	`name` text NOT NULL,
	`address` text,
	`latitude` real,
	`longitude` real,
	`timezone` text,
	`capacity_w` real,
	`state` text NOT NULL,
	`power_w` real,
	`energy_today_wh` real,
	`energy_total_wh` real,
	`data_time` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`connection_id`) REFERENCES `provider_connections`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `monitoring_systems_org_provider_system_unique` ON `monitoring_systems` (`org_id`,`provider`,`provider_system_id`);--> statement-breakpoint
CREATE INDEX `monitoring_systems_connection_idx` ON `monitoring_systems` (`connection_id`);--> statement-breakpoint
CREATE TABLE `provider_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`provider` text NOT NULL,
	`credentials_ciphertext` text NOT NULL,
	`credentials_iv` text NOT NULL,
	`session_ciphertext` text,
	`session_iv` text,
	`status` text NOT NULL,
	`last_sync_at` integer,
	`last_sync_status` text,
	`last_error` text,
	`newest_data_at` integer,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`next_sync_at` integer,
	`lease_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `provider_connections_org_provider_unique` ON `provider_connections` (`org_id`,`provider`);--> statement-breakpoint
CREATE INDEX `provider_connections_due_idx` ON `provider_connections` (`next_sync_at`);--> statement-breakpoint
CREATE TABLE `sync_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`connection_id` text NOT NULL,
	`provider` text NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`error` text,
	`error_kind` text,
	`sites_count` integer DEFAULT 0 NOT NULL,
	`inverters_count` integer DEFAULT 0 NOT NULL,
	`readings_count` integer DEFAULT 0 NOT NULL,
	`provider_calls` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`connection_id`) REFERENCES `provider_connections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sync_runs_connection_started_idx` ON `sync_runs` (`connection_id`,`started_at`);--> statement-breakpoint
CREATE TABLE `system_readings` (
	`system_id` text NOT NULL,
	`time` integer NOT NULL,
	`power_w` real,
	`energy_today_wh` real,
	`state` text NOT NULL,
	PRIMARY KEY(`system_id`, `time`),
	FOREIGN KEY (`system_id`) REFERENCES `monitoring_systems`(`id`) ON UPDATE no action ON DELETE cascade
);
