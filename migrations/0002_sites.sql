CREATE TABLE `geocode_cache` (
	`query_key` text PRIMARY KEY NOT NULL,
	`results` text NOT NULL,
	`fetched_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `geocode_cache_expires_idx` ON `geocode_cache` (`expires_at`);--> statement-breakpoint
CREATE TABLE `outbound_slots` (
	`service` text PRIMARY KEY NOT NULL,
	`next_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `portfolio_sites` (
	`portfolio_id` text NOT NULL,
	`site_id` text NOT NULL,
	`org_id` text NOT NULL,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`portfolio_id`, `site_id`),
	FOREIGN KEY (`portfolio_id`) REFERENCES `portfolios`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `portfolio_sites_site_idx` ON `portfolio_sites` (`site_id`);--> statement-breakpoint
CREATE TABLE `portfolios` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`description` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `portfolios_org_name_unique` ON `portfolios` (`org_id`,`name_key`);--> statement-breakpoint
CREATE TABLE `sites` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`address` text NOT NULL,
	`location` text,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`city` text,
	`state` text,
	`country` text,
	`timezone` text NOT NULL,
	`provider` text,
	`capacity_kw` real,
	`ac_limit_kw` real,
	`tilt_deg` real,
	`azimuth_deg` real,
	`estimated_yield_kwh` real,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sites_org_name_idx` ON `sites` (`org_id`,`name`);--> statement-breakpoint
ALTER TABLE `monitoring_systems` ADD `site_id` text REFERENCES sites(id);--> statement-breakpoint
CREATE INDEX `monitoring_systems_org_site_idx` ON `monitoring_systems` (`org_id`,`site_id`);